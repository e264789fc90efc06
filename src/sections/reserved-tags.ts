import { HTML_ELEMENTS } from "../_html-elements.js";
import {
  AGENT_VARIABLES,
  DOCUMENT_TAGS,
  drawsInPlaceName,
  escapeWrapperTags,
  HOST_ELEMENTS,
  isPageElement,
  MAX_TAG_NAME,
  nameKey,
  nameKeys,
  ofNameFamily,
  type PageTagTold,
  SEPARATOR_RUNS,
  withElementNames,
  withoutOwnerMark,
} from "../_prompt-text.js";
import type { Diagnostic } from "../types.js";
import { wrapperHides } from "./html-reading.js";
import type { SectionTemplate } from "./types.js";

/** The element the builtin `project_context` section wraps your own AGENTS.md in. */
const USER_FILE_ELEMENT = "user_instructions";

/**
 * The element names a trusted project's section may neither take as its tag
 * nor write in its own text (rev52b F14): the hosts' ({@link HOST_ELEMENTS}),
 * the one your own AGENTS.md is printed in (`user_instructions`), and every
 * section's that a layer of yours (the builtins, your agent dir, `sections`
 * in code) defines; and `own`, the render's own element names (what a
 * repository's files are escaped against but the project's: `rule`, `skill`,
 * `available_skills`, …), and {@link DOCUMENT_TAGS}. Lower-cased.
 */
export function reservedElementNames(
  templates: readonly SectionTemplate[],
  codeSections: readonly { name: string }[] = [],
  own: Iterable<string> = [],
): Set<string> {
  // No start tag acting on the whole page either (DOCUMENT_TAGS: rev80c F4-F8).
  const names = new Set<string>([...HOST_ELEMENTS, USER_FILE_ELEMENT, ...own, DOCUMENT_TAGS]);
  for (const template of templates)
    for (let v: SectionTemplate | undefined = template; v !== undefined; v = v.lower) {
      if (v.source.layer === "project") continue;
      names.add(v.name.toLowerCase());
      if (v.meta.tag !== false) names.add(v.meta.tag.toLowerCase());
    }
  for (const section of codeSections) names.add(section.name.toLowerCase());
  return names;
}

/**
 * Whether a section's `tag` is near a reserved name (review rev101c F1): one
 * of the keys ({@link nameKeys}) of `reserved` with or without a final `s`
 * (`user_instruction`, `system-reminders`) or `es` after `s`, `x`, `z`, `ch`,
 * `sh` (`model_switches`: review rev102b F4); or holding a reserved name of
 * two or more parts as a run of its parts, read at every separator a name's
 * key leaves out (`SEPARATORS` in src/_prompt-text.ts: `my_user_instructions`,
 * `user_instructions.local`, `my.system-reminder`: rev102b F2); or a reserved
 * name of any parts as one of its pieces at a `.` (a qualifier:
 * `my.permissions`, rev102b F2). A reserved name of one word as one part
 * joined by `_`/`-` (`build_tool_notes`, `tool`) is a word of the project's,
 * not the element. For a section's tag only, the element the prompt itself
 * prints: a text's tags are read as before. A run is read while its letters
 * are at most twice the longest reserved key's and two (a name split into
 * more parts, `team_code_review_policy_for_this_machine`: rev102b F5), so a
 * tag is read in time linear in its length, and a tag longer than
 * {@link MAX_TAG_LENGTH} is held unread (review rev103a F2).
 */
function nearReserved(tag: string, reserved: ReadonlySet<string>): boolean {
  // An element's name is never kilobytes: a longer tag is held unread (review rev103a F2: a
  // 30 KB `tag:` of one-letter parts took some 6 s of runs, each run's key read anew).
  if (tag.length > MAX_TAG_LENGTH) return true;
  // A name of a host's family (`ide_…`: review rev104c F1), as a text's tag of it is held.
  if (ofNameFamily(tag, reserved)) return true;
  const keys = nameKeys(reserved);
  const held = (name: string) => {
    if (keys.has(nameKey(name))) return true;
    if (/s$/i.test(name) && keys.has(nameKey(name.slice(0, -1)))) return true;
    if (/(?:[sxz]|[cs]h)es$/i.test(name) && keys.has(nameKey(name.slice(0, -2)))) return true;
    if (/(?:[sxz]|[cs]h)$/i.test(name) && keys.has(nameKey(`${name}es`))) return true;
    return keys.has(nameKey(`${name}s`));
  };
  if (held(tag)) return true;
  const pieces = tag.split(QUALIFIER).filter((p) => p !== "");
  if (pieces.length > 1 && pieces.some(held)) return true;
  const parts = tag.split(SEPARATOR_RUNS).filter((p) => p !== "");
  const bound = 2 * longestKey(keys) + 2;
  for (let from = 0; from < parts.length; from++) {
    let letters = parts[from]?.length ?? 0;
    for (let to = from + 2; to <= parts.length; to++) {
      letters += parts[to - 1]?.length ?? 0;
      if (letters > bound) break;
      if (held(parts.slice(from, to).join("_"))) return true;
    }
  }
  return false;
}

/** The longest section tag read as a name ({@link nearReserved}); a longer one is given another. */
export const MAX_TAG_LENGTH = 128;

/** What parts a section's tag into pieces each read whole ({@link nearReserved}): a `.` qualifies a name. */
const QUALIFIER = /[.:]+/;

/** The length of the longest of `keys`, per set. */
function longestKey(keys: ReadonlySet<string>): number {
  let longest = LONGEST.get(keys);
  if (longest === undefined) {
    longest = 0;
    for (const key of keys) longest = Math.max(longest, key.length);
    LONGEST.set(keys, longest);
  }
  return longest;
}
const LONGEST = new WeakMap<ReadonlySet<string>, number>();

/** The highest version of a section that is not the project's, if any. */
function ownVersion(template: SectionTemplate): SectionTemplate | undefined {
  let v = template.lower;
  while (v?.source.layer === "project") v = v.lower;
  return v;
}

/**
 * `project_<name>`, or, when that is near a reserved name ({@link nearReserved}:
 * `project_user_instructions` holds `user_instructions`, review rev72c F3 and
 * rev102b F2), `project_section_<hash of the name>`, with a number after it
 * while that is near one too: the tag given never holds a reserved name.
 */
function projectTag(name: string, reserved: ReadonlySet<string>): string {
  const tag = `project_${name}`;
  if (!nearReserved(tag, reserved)) return tag;
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  const plain = `project_section_${(hash >>> 0).toString(16).padStart(8, "0")}`;
  let given = plain;
  for (let n = 2; nearReserved(given, reserved); n++) given = `${plain}_${n}`;
  return given;
}

/**
 * `templates` with each trusted project's version of a section of yours (a
 * version in your agent dir or options below it) given your tag whatever its
 * own (`tag: del` over your `{{> base}}`, `tag: false`: review rev92c F6),
 * and each other project version whose tag (its `tag:` key, or its file name
 * when it sets none) is a {@link reservedElementNames} name given another:
 * the builtin version's tag, or `project_<name>` for a section only the
 * project has; a version of a builtin section whose tag is an element HTML knows
 * (`tag: del` on `project_context`: review rev92c F6) is given the builtin's tag
 * too. A `section-tag-reserved` warning names the file. Before,
 * `.pi/sections/user_instructions.md`, or `tag: usec` on a project section,
 * printed a second `<user_instructions>` or
 * `<usec>` element of the project's words beside yours (review rev52b F14).
 * `own` are the render's own names, as for the section's text: the tag and
 * the text are held to one set (before review rev56c F4, `.pi/sections/team_policy.md`
 * took the element your AGENTS.md opens, and `tag: available_skills` the builtin's).
 */
export function heldProjectTags(
  templates: readonly SectionTemplate[],
  codeSections: readonly { name: string }[] = [],
  own: Iterable<string> = [],
): { templates: SectionTemplate[]; diagnostics: Diagnostic[] } {
  const reserved = reservedElementNames(templates, codeSections, own);
  const diagnostics: Diagnostic[] = [];
  const warned = new Set<string>();
  const warnOnce = (template: SectionTemplate, message: string) => {
    const path = template.source.path;
    if (warned.has(path ?? template.name)) return;
    warned.add(path ?? template.name);
    diagnostics.push({
      level: "warning",
      code: "section-tag-reserved",
      message,
      ...(path !== undefined ? { path } : {}),
    });
  };
  const hold = (template: SectionTemplate): SectionTemplate => {
    if (template.source.layer !== "project") return template;
    const lower = template.lower && hold(template.lower);
    const withLower = lower === template.lower ? template : { ...template, lower };
    const { tag } = template.meta;
    const own = ownVersion(template);
    if (own !== undefined && own.source.layer !== "builtin") {
      // A version of your section keeps your tag (or none, as yours): before review rev92c F6,
      // `tag: del` (`s`, `code`, `pre`, …) over `{{> base}}` printed your section struck out or
      // as code with no word; only a reserved tag was given back yours.
      if (own.meta.tag === tag) return withLower;
      warnOnce(template, yourTagKept(template.name, tag, own.meta.tag));
      return { ...withLower, meta: { ...template.meta, tag: own.meta.tag } };
    }
    if (tag === false || own?.meta.tag === tag) return withLower;
    // A version of a builtin section may take a name of its own (`environment` as `<machine>`),
    // never one of an element a reader draws with a meaning of its own: before the builtin part
    // of review rev92c F6, `tag: del` on `project_context.md` struck your AGENTS.md through in a
    // view, `code`/`pre` printed it as code, with no word. Every HTML, SVG and MathML name
    // ({@link HTML_ELEMENTS}), compared as tags are (`DEL`, `De_l`, `c0de`).
    if (own !== undefined && nameKeys(HTML_ELEMENTS).has(nameKey(tag))) {
      warnOnce(template, builtinTagKept(template.name, tag, own.meta.tag));
      return { ...withLower, meta: { ...template.meta, tag: own.meta.tag } };
    }
    // Compared as tags are (`team-policy` is your `team_policy`, review rev53c F7).
    // Nor an element acting on the whole page (`style.md` as `<style>`: rev80c F5), nor one no
    // reader shows or whose text is raw (`tag: template` around your `{{> base}}`: rev82f F2).
    // Nor, since rev89c F2, one HTML knows that does not draw its content in place (an allowlist:
    // `tag: geolocation`, `option`, `fencedframe` printed your section in a button, nothing or an
    // empty frame); `wrapperHides` stays as defence in depth. Nor one near a reserved name
    // (`user_instruction`, `my_user_instructions`: rev101c F1).
    if (
      !nearReserved(tag, reserved) &&
      !isPageElement(tag) &&
      !wrapperHides(tag) &&
      drawsInPlaceName(tag)
    )
      return withLower;
    // A builtin's version keeps the builtin's tag.
    const given = own !== undefined ? own.meta.tag : projectTag(template.name, reserved);
    warnOnce(
      template,
      `the project's section "${template.name}" may not be the prompt's <${tag}> element (a host's, your AGENTS.md's, your own section's, one your texts or the prompt write, or one that acts on the whole page, that no reader shows or whose text a reader reads as raw text, or one HTML knows that does not draw its text in place, or one longer than ${MAX_TAG_LENGTH} characters); it is printed as ${given === false ? "no element" : `<${given}>`} instead`,
    );
    return { ...withLower, meta: { ...template.meta, tag: given } };
  };
  return { templates: templates.map(hold), diagnostics };
}

/** The `section-tag-reserved` message for a project's version of your section that asked for `asked`, given `yours`. */
function yourTagKept(name: string, asked: string | false, yours: string | false): string {
  const wanted = asked === false ? "printed in no element (tag: false)" : `the <${asked}> element`;
  const given = yours === false ? "in no element" : `as <${yours}>`;
  return `the project's version of your section "${name}" asks to be ${wanted}; a project's version of your section keeps your tag: it is printed ${given}, as yours is`;
}

/** The `section-tag-reserved` message for a project's version of a builtin section that asked for the HTML element `asked`, given `builtin`. */
function builtinTagKept(name: string, asked: string, builtin: string | false): string {
  const given = builtin === false ? "in no element" : `as <${builtin}>`;
  return `the project's version of the builtin section "${name}" asks to be the <${asked}> element, one HTML knows and a reader draws with a meaning of its own; a project's version of a builtin section may take a name of its own, not an HTML element's: it is printed ${given}, as the builtin is`;
}

/** What a trusted project's section may not write in its own text ({@link namesHeldFrom}). */
export interface HeldNames {
  /** Element names whose tags are made literal. */
  names: ReadonlySet<string>;
  /** Whether the owner mark (`owner="user"`) is made literal too ({@link withoutOwnerMark}). */
  ownerMark: boolean;
  /**
   * The labels of yours the versions below write around your texts, left as
   * written only there ({@link heldProjectText}'s `around`):
   * `user_instructions` (around your AGENTS.md) and `rule` (the owner mark
   * on a `<rule>` around your always rule).
   */
  aroundYours?: ReadonlySet<string>;
  /** The lines of the versions below that write the owner mark and print nothing (the builtin's sentence on `owner="user"`): a copy prints them as they are. */
  markedLines?: readonly string[];
}

/** An element the builtins write around a text of yours, and the texts it may be around ({@link heldProjectText}). */
export type YourLabels = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * What a trusted project's version of a section may not write in its own
 * text: the {@link reservedElementNames} but those the versions below it
 * (yours, the builtins') write themselves (a project's copy of
 * `project_context` writes `<user_instructions>` as the builtin does), and
 * the owner mark, unless they write it (the builtin `project_rules` marks
 * your rules `owner="user"`). Before, a project's new section wrote a raw
 * `<rule … owner="user">` and an on-demand line ending `(owner="user")`,
 * which its AGENTS.md may not (review rev54a F5).
 */
export function namesHeldFrom(template: SectionTemplate, reserved: ReadonlySet<string>): HeldNames {
  const bodies: string[] = [];
  for (let v = template.lower; v !== undefined; v = v.lower)
    if (v.source.layer !== "project") bodies.push(v.body);
  const written = withElementNames(new Set(), bodies);
  // Gemini CLI's `${AgentSkills}`, which your version may print.
  if (bodies.some((body) => body.includes(AGENT_VARIABLES))) written.add(AGENT_VARIABLES);
  // Your AGENTS.md's element and the owner mark label a text as yours: held in the copy's
  // own words, left as written only around a text of yours (rev58c F2).
  const aroundYours = new Set<string>();
  if (written.has(USER_FILE_ELEMENT)) aroundYours.add(USER_FILE_ELEMENT);
  if (bodies.some((body) => withoutOwnerMark(body) !== body)) aroundYours.add(RULE_ELEMENT);
  return {
    names: new Set(
      [...reserved].filter((name) => !written.has(name) || name === USER_FILE_ELEMENT),
    ),
    ownerMark: true,
    aroundYours,
    markedLines: bodies.flatMap((body) =>
      body.split("\n").filter((l) => !l.includes("{{") && withoutOwnerMark(l) !== l),
    ),
  };
}

/** The element the builtin `project_rules` section prints a rule in, marked `owner="user"` when it is yours. */
const RULE_ELEMENT = "rule";

/** How much of your text after a piece of the project's is read with it (UTF-16 units): a tag's longest name. */
const JOIN_LOOKAHEAD = MAX_TAG_NAME;

/**
 * A trusted project's rendered section with the tags of `held.names` made
 * literal (`&lt;usec>`), and the owner mark (`owner&#61;"user"`), as a
 * repository's text has them, outside your texts it printed (`yours`: what
 * its `{{> base}}` printed of yours, and your own texts printed from the data,
 * your `AGENTS.md` through `{{content}}`; each found as printed: a call
 * indented in a list item is not found, and your text there is held with
 * the rest; before, a project's ejected `project_context` printed your
 * `<team_policy>` as `&lt;team_policy>`, review rev57b F7). Each piece of
 * the project's is read with the start of your text after it: its `<` before
 * `{{> base}}` and your `user prefers …` are a `<user …>` tag (review rev54a
 * F9), and after the end of your text before it (your `… <` and its
 * `team_policy>`). When either is held differently with the piece than alone,
 * your text is held with the rest. Where two of yours start at one place, the
 * longer is taken. Linear in the text for each text of yours. `onPageTag` is
 * told the line and tag of the first start tag acting on the whole page it
 * wrote `&lt;` (`DOCUMENT_TAGS` is among the reserved names: rev80c F4-F8).
 */
export function heldProjectText(
  text: string,
  held: HeldNames,
  yours: readonly string[],
  labels: YourLabels = new Map(),
  onPageTag?: PageTagTold,
): string {
  if (onPageTag === undefined) return heldPieces(text, held, yours, labels);
  // Its pieces are read apart (and some twice): the first such tag written `&lt;` in the project's
  // own words is told, by where it is in the whole text; never one in your text it printed as
  // written (your `<style>` through its `{{> base}}`: review rev82f F5).
  let first: { at: number; tag: string } | undefined;
  const out = heldPieces(text, held, yours, labels, (at, tag) => {
    if (first === undefined || at < first.at) first = { at, tag };
  });
  const told = first as { at: number; tag: string } | undefined;
  if (told !== undefined) onPageTag(text.slice(0, told.at).split("\n").length, told.tag, told.at);
  return out;
}

/** Told where (in the whole text) a piece's first start tag acting on the whole page is, and the tag. */
type PieceTagTold = (at: number, tag: string) => void;

/**
 * {@link heldProjectText}, each piece's first start tag acting on the whole page that it wrote
 * `&lt;` in the project's words told to `onPageTag` (in your text around a piece, which is printed
 * as written, none is told); when the whole text is held as one, its first.
 */
function heldPieces(
  text: string,
  held: HeldNames,
  yours: readonly string[],
  labels: YourLabels,
  onPageTag?: PieceTagTold,
): string {
  const { names, ownerMark } = held;
  const around = held.aroundYours ?? new Set<string>();
  if (names.size === 0 && !ownerMark) return text;
  /** `part` held; `tell`: told the place (in `part`) and tag of its first page tag written `&lt;`. */
  const hold = (part: string, tell?: (at: number, tag: string) => void) => {
    const told = tell && ((_line: number, tag: string, at: number) => tell(at, tag));
    const escaped = names.size === 0 ? part : escapeWrapperTags(part, names, false, told);
    return ownerMark ? withoutOwnerMark(escaped) : escaped;
  };
  /** The whole text held as one: its first page tag told. */
  const holdAll = () => hold(text, onPageTag);
  // Each of yours the text holds, with where it is next found at or after `at` (-1: no more).
  const found = yours
    .filter((y) => y.trim() !== "")
    .map((y) => ({ text: y, next: text.indexOf(y) }))
    .filter((y) => y.next !== -1)
    .map((y) => ({
      ...y,
      head: y.text.slice(0, JOIN_LOOKAHEAD),
      headHeld: "",
      tail: y.text.slice(-JOIN_LOOKAHEAD),
      tailHeld: "",
    }));
  if (found.length === 0) return holdAll();
  for (const y of found) {
    y.headHeld = hold(y.head);
    y.tailHeld = hold(y.tail);
  }
  let out = "";
  let at = 0;
  // The end of the text of yours before the piece read now: the piece is read after it too.
  let before = { tail: "", tailHeld: "" };
  // The label of yours left as written before the last text of yours: its end tag after it is too.
  let closing: string | undefined;
  /** The piece read between `before`'s end and `head`; undefined when either is held differently with it. */
  // The first page tag told of the pieces, kept until the text is known to be held in pieces.
  let pieceTag: { at: number; tag: string } | undefined;
  /** Keeps `tag` at `at` in `piece` (at `pieceAt` in the text): the first kept is the first. */
  const keepTag = (pieceAt: number, piece: string, at: number, tag: string) => {
    if (at >= 0 && at < piece.length && pieceTag === undefined)
      pieceTag = { at: pieceAt + at, tag };
  };
  const heldBetween = (
    piece: string,
    pieceAt: number,
    head: string,
    headHeld: string,
  ): string | undefined => {
    const tail = before.tail.length;
    // Told the first in the joined reading: one in your tail before the piece is yours, printed as
    // written; then the piece with your head after it is asked alone.
    let inTail = false;
    const joined = hold(
      before.tail + piece + head,
      onPageTag &&
        ((at, tag) => {
          if (at < tail) inTail = true;
          else keepTag(pieceAt, piece, at - tail, tag);
        }),
    );
    if (joined.length < before.tailHeld.length + headHeld.length) return undefined;
    if (!joined.startsWith(before.tailHeld) || !joined.endsWith(headHeld)) return undefined;
    if (inTail && onPageTag) hold(piece + head, (at, tag) => keepTag(pieceAt, piece, at, tag));
    return joined.slice(before.tailHeld.length, joined.length - headHeld.length);
  };
  for (;;) {
    let first: (typeof found)[number] | undefined;
    for (const y of found) {
      if (y.next !== -1 && y.next < at) y.next = text.indexOf(y.text, at);
      if (y.next === -1) continue;
      if (
        first === undefined ||
        y.next < first.next ||
        (y.next === first.next && y.text.length > first.text.length)
      )
        first = y;
    }
    const piece = text.slice(at, first === undefined ? text.length : first.next);
    let held = heldBetween(piece, at, first?.head ?? "", first?.headHeld ?? "");
    if (held === undefined) return holdAll();
    if (closing !== undefined)
      held = asWritten(held, piece.match(endTag(closing, "^"))?.[0], "start");
    closing = undefined;
    if (first !== undefined) {
      // The label's start tag just before a text of yours it may be around, its end tag just after.
      const tag = piece.slice(piece.lastIndexOf("<"));
      const name = /^<([a-z_]+)(?:\s[^<>]*)?>\s*$/.exec(tag)?.[1];
      const end = name === undefined ? undefined : endTag(name, "y");
      if (end !== undefined) end.lastIndex = first.next + first.text.length;
      if (
        name !== undefined &&
        around.has(name) &&
        labels.get(name)?.has(first.text) === true &&
        end?.test(text) === true &&
        (name === RULE_ELEMENT || withoutOwnerMark(tag) === tag)
      ) {
        held = asWritten(held, tag, "end");
        closing = name;
      }
    }
    out += held;
    if (first === undefined) {
      if (pieceTag !== undefined) onPageTag?.(pieceTag.at, pieceTag.tag);
      return out;
    }
    out += first.text;
    at = first.next + first.text.length;
    before = first;
  }

  /** `held` with `part` as written where its held form is at its start or end (a label of yours around your text). */
  function asWritten(held: string, part: string | undefined, where: "start" | "end"): string {
    if (part === undefined) return held;
    const partHeld = hold(part);
    if (where === "start")
      return held.startsWith(partHeld) ? part + held.slice(partHeld.length) : held;
    return held.endsWith(partHeld) ? held.slice(0, held.length - partHeld.length) + part : held;
  }
}

/** The end tag of `name` (one of the labels: letters and `_`) after blanks, read at a piece's start (`^`) or at `lastIndex` (`y`). */
function endTag(name: string, at: "^" | "y"): RegExp {
  return at === "^" ? new RegExp(`^\\s*</${name}\\s*>`) : new RegExp(`\\s*</${name}\\s*>`, "y");
}
