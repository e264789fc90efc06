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
  nameParts,
  numberedKeys,
  ofNameFamily,
  type PageTagTold,
  SkeletonReader,
  severalWordsKeys,
  textHeldName,
  versionedName,
  versionsOut,
  withElementNames,
  withoutOwnerMark,
} from "../_prompt-text.js";
import type { Diagnostic } from "../types.js";
import { unendedMarkupAt, wrapperHides } from "./html-reading.js";
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
 * Whether a section's `tag` is near a reserved name (review rev101c F1): its
 * key ({@link nameKey}) one of the keys of `reserved` with or without a
 * final `s` (`user_instruction`, `system-reminders`) or `es` after `s`, `x`,
 * `z`, `ch`, `sh` (`model_switches`: review rev102b F4), compared as keys
 * ({@link heldKeys}); or holding a reserved name of two or more parts as a
 * run of its parts, read at every separator a name's key leaves out
 * (`SEPARATORS` in src/_prompt-text.ts: `my_user_instructions`,
 * `user_instructions.local`, `my.system-reminder`: rev102b F2); or a
 * reserved name of any parts as one of its pieces at a `.` (a qualifier:
 * `my.permissions`, rev102b F2). A reserved name of one word as one part
 * joined by `_`/`-` (`build_tool_notes`, `tool`) is a word of the project's,
 * not the element. For a section's tag only, the element the prompt itself
 * prints: a text's tags are read as before. The runs are read from each
 * part on, a letter at a time, along a trie of the held keys
 * ({@link heldTrie}), each part lower-cased once and no run joined or keyed
 * anew: a tag is read in time linear in its length, from each part as far
 * as a held key goes (its letters, or twice as many in pairs such as `rn`) (a name split into many parts,
 * `team_code_review_policy_for_this_machine`, is read whole: rev102b F5).
 * Before review rev104b F1, each run was joined and keyed afresh, some
 * 2,000 runs for a tag of 64 one-letter parts. "unread": a tag longer than
 * {@link MAX_TAG_LENGTH} (review rev103a F2), or one read past what is left
 * of `budget` (the render's reading of its project's tags, review rev104b
 * F1), is held unread. Held too wherever a repository's text writing it as a
 * tag is ({@link textHeldName}), one part holding a name of several words
 * wherever it is, and a run read again with each part less a glued version
 * (review rev107f F1, F3: `my_userinstructions`, `user_instructions2_x`).
 */
function nearReserved(tag: string, reserved: ReadonlySet<string>, budget?: TagBudget): Nearness {
  // An element's name is never kilobytes: a longer tag is held unread (review rev103a F2: a
  // 30 KB `tag:` of one-letter parts took some 6 s of runs, each run's key read anew).
  if (tag.length > MAX_TAG_LENGTH) return "long";
  // A name of a host's family (`ide_…`: review rev104c F1), as a text's tag of it is held.
  if (ofNameFamily(tag, reserved)) return "near";
  // A name of several words with a version glued on (`user_instructions2`: review rev105f F1).
  if (versionedName(tag, reserved)) return "near";
  const keys = heldKeys(reserved);
  // The whole tag and its pieces, keyed once each, and the text's reading: some four units a character.
  if (spent(budget, 4 * tag.length)) return "unread";
  if (keys.has(nameKey(tag))) return "near";
  // Held wherever a repository's text writing it as a tag would be (review rev107f F1, F3: one
  // rule; `my_user_instruction`, `user_instructions2_x` printed live, escaped in a text).
  if (textHeldName(tag, reserved)) return "near";
  const pieces = tag.split(QUALIFIER).filter((p) => p !== "");
  if (pieces.length > 1 && pieces.some((p) => keys.has(nameKey(p)))) return "near";
  // Parted as a text's tag is: at separators, and where a case change parts it (`MyDeployPolicy`).
  const parts = nameParts(tag).map((p) => p.toLowerCase());
  const root = heldTrie(reserved);
  const near = heldRun(parts, root, budget);
  if (near !== false) return near;
  // Each part less a version glued on (`user_instructions2_x`, `bash-input2-log`: review rev107f
  // F3), and a part that is a version left out (`my_user_2_instructions`, `x_user-v2-instructions`:
  // review rev109c F1), read again when one has one.
  const bare = parts.flatMap((part) =>
    VERSION_PART.test(part) ? [] : [versionsOut(part) ?? part],
  );
  const same = bare.length === parts.length && bare.every((part, i) => part === parts[i]);
  return same ? false : heldRun(bare, root, budget);
}

/**
 * Whether a run of `parts` (lower-cased) is a held key ({@link heldTrie}):
 * of two parts or more, or of one part when the key is of a name of several
 * words (`my_userinstructions`, `userinstructions_x`: review rev107f F1, as
 * a text's `<my_userinstructions>` is held). Read a letter at a time along
 * the trie, a unit of `budget` a letter and one a part a run starts at.
 */
function heldRun(parts: readonly string[], root: TrieNode, budget?: TagBudget): Nearness {
  const reader = new SkeletonReader();
  for (let from = 0; from < parts.length; from++) {
    if (spent(budget, 1)) return "unread";
    let node: TrieNode | undefined = root;
    reader.held = "";
    for (let to = from; to < parts.length && node !== undefined; to++) {
      const part = parts[to] ?? "";
      for (let i = 0; i < part.length && node !== undefined; i++) {
        if (spent(budget, 1)) return "unread";
        const letters = reader.read(part.charAt(i));
        for (let k = 0; k < letters.length; k++) node = node?.next.get(letters.charAt(k));
      }
      // Its key is the letters settled and the one held.
      const end = reader.held === "" ? node : node?.next.get(reader.held);
      if (end?.held === true && (to > from || end.joined)) return "near";
    }
  }
  return false;
}

/** A part of a section's tag (lower-cased) that is a version: `2`, `v2`. */
const VERSION_PART = /^v?[0-9]+$/;

/** How near a section's tag is to a reserved name ({@link nearReserved}): not; near one; longer than {@link MAX_TAG_LENGTH}; not read, the budget spent. */
type Nearness = false | "near" | "long" | "unread";

/**
 * What is left of the work one render's reading of its trusted project's
 * section tags may do ({@link nearReserved}: about a unit a letter read),
 * one for all its tags (review rev104b F1).
 */
export interface TagBudget {
  left: number;
}

/** `units` taken from `budget` (none without one): whether it is spent. */
function spent(budget: TagBudget | undefined, units: number): boolean {
  if (budget === undefined) return false;
  budget.left -= units;
  return budget.left < 0;
}

/**
 * The work one render's reading of its project's section tags may do
 * ({@link TagBudget}): some 2,000 tags of 64 parts read whole, a tenth of a
 * second of CPU; past it, every tag left is held unread (review rev104b F1: 300
 * tags of 64 parts took 2.5 s, one render's reading had no bound but each tag's).
 */
export const TAG_READ_BUDGET = 1_000_000;

/** The longest section tag read as a name ({@link nearReserved}); a longer one is given another. */
export const MAX_TAG_LENGTH = 128;

/** What parts a section's tag into pieces each read whole ({@link nearReserved}): a `.` qualifies a name. */
const QUALIFIER = /[.:]+/;

/**
 * The keys a section's tag is held at ({@link nearReserved}), per set: each
 * key of `reserved` ({@link nameKeys}); with a final `s`; with `es` after a
 * final `s`, `x`, `z`, `ch`, `sh`; less a final `s`; less `es` after one of
 * those. Compared as keys: `…5` is `…s`, as `0` is `o`.
 */
function heldKeys(reserved: ReadonlySet<string>): ReadonlySet<string> {
  let keys = HELD_KEYS.get(reserved);
  if (keys === undefined) {
    // With a part before the last in another number (`users_instructions`: review rev109c F1).
    keys = new Set([...numberedKeys(nameKeys(reserved)), ...severalWordsKeys(reserved)]);
    HELD_KEYS.set(reserved, keys);
  }
  return keys;
}
const HELD_KEYS = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/** A letter's place in {@link heldTrie}: the letters after it, and whether a held key ends there. */
interface TrieNode {
  next: Map<string, TrieNode>;
  held: boolean;
  /** A held key of a name of several words ends here (`severalWordsKeys` in src/_prompt-text.ts). */
  joined: boolean;
}

/** The {@link heldKeys} of `reserved` as a trie of their letters, per set. */
function heldTrie(reserved: ReadonlySet<string>): TrieNode {
  let root = HELD_TRIES.get(reserved);
  if (root === undefined) {
    root = { next: new Map(), held: false, joined: false };
    const joined = severalWordsKeys(reserved);
    for (const key of heldKeys(reserved)) {
      let node = root;
      for (let k = 0; k < key.length; k++) {
        const letter = key.charAt(k);
        let next = node.next.get(letter);
        if (next === undefined) {
          next = { next: new Map(), held: false, joined: false };
          node.next.set(letter, next);
        }
        node = next;
      }
      node.held = true;
      node.joined = joined.has(key);
    }
    HELD_TRIES.set(reserved, root);
  }
  return root;
}
const HELD_TRIES = new WeakMap<ReadonlySet<string>, TrieNode>();

/** The highest version of a section that is not the project's, if any. */
function ownVersion(template: SectionTemplate): SectionTemplate | undefined {
  let v = template.lower;
  while (v?.source.layer === "project") v = v.lower;
  return v;
}

/**
 * `project_<name>`, or, when that is near a reserved name ({@link nearReserved}:
 * `project_user_instructions` holds `user_instructions`, review rev72c F3 and
 * rev102b F2), `project_section_<hash of the name>`, the hash taken again with
 * another seed while that is near one too, at most {@link TAG_HASH_TRIES} times,
 * then no element: the tag given never holds a reserved name, and the search
 * ends. Before, a number was put after a near hash until one was not near, and
 * a hash read as a name of a family (`1d3b8484`, read `ide…`) was near with
 * every number: the render never returned (the section `s1618`).
 * `project_<name>` is read within `budget`, and taken only when read; the
 * others (some 30 characters each) whatever is left of it.
 */
function projectTag(
  name: string,
  reserved: ReadonlySet<string>,
  budget?: TagBudget,
): string | false {
  const tag = `project_${name}`;
  if (!nearReserved(tag, reserved, budget)) return tag;
  for (let seed = 0; seed < TAG_HASH_TRIES; seed++) {
    let hash = Math.imul(0x811c9dc5 ^ seed, seed === 0 ? 1 : 0x01000193);
    for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
    const given = `project_section_${(hash >>> 0).toString(16).padStart(8, "0")}`;
    if (!nearReserved(given, reserved)) return given;
  }
  return false;
}

/** How many hashes {@link projectTag} tries before it gives a section no element. */
const TAG_HASH_TRIES = 16;

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
  // One for all the project's tags (review rev104b F1).
  const budget: TagBudget = { left: TAG_READ_BUDGET };
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
    // Read within the render's one budget (review rev104b F1): past it, held unread.
    const near = nearReserved(tag, reserved, budget);
    if (!near && !isPageElement(tag) && !wrapperHides(tag) && drawsInPlaceName(tag))
      return withLower;
    // A builtin's version keeps the builtin's tag.
    const given = own !== undefined ? own.meta.tag : projectTag(template.name, reserved, budget);
    if (near === "unread") {
      warnOnce(template, tagUnread(template.name, tag, given));
      return { ...withLower, meta: { ...template.meta, tag: given } };
    }
    warnOnce(
      template,
      `the project's section "${template.name}" may not be the prompt's <${tag}> element (a host's, your AGENTS.md's, your own section's, one your texts or the prompt write, or one that acts on the whole page, that no reader shows or whose text a reader reads as raw text, or one HTML knows that does not draw its text in place, or one longer than ${MAX_TAG_LENGTH} characters); it is printed as ${given === false ? "no element" : `<${given}>`} instead`,
    );
    return { ...withLower, meta: { ...template.meta, tag: given } };
  };
  return { templates: templates.map(hold), diagnostics };
}

/** The `section-tag-reserved` message for a project's section whose tag `asked` was not read, the render's reading of tags spent ({@link TAG_READ_BUDGET}), given `given`. */
function tagUnread(name: string, asked: string, given: string | false): string {
  const printed = given === false ? "in no element" : `as <${given}>`;
  return `the project's section "${name}" asks to be the <${asked}> element, not read: the project's section tags before it spent the reading one render does of them; it is printed ${printed} instead`;
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

/**
 * An element the builtins write around a text of yours, and for each text of
 * yours it may be around, its start tags as the builtin writes them from the
 * data ({@link heldProjectText}): `<user_instructions path="…">`, `<rule
 * name=… format=… path=… owner="user">`.
 */
export type YourLabels = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/**
 * A text of yours kept as written only as a whole line of the project's
 * text ({@link heldProjectText}): the builtin's line of an on-demand rule of
 * yours, ending `(owner="user")` (review rev104c F2).
 */
export interface YourLine {
  line: string;
}

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
 * `onLabelOpen` is told when a piece left markup open before a label of
 * yours it keeps, written as text ({@link closedBeforeLabel}).
 */
export function heldProjectText(
  text: string,
  held: HeldNames,
  yours: readonly (string | YourLine)[],
  labels: YourLabels = new Map(),
  onPageTag?: PageTagTold,
  onLabelOpen?: () => void,
): string {
  if (onPageTag === undefined) return heldPieces(text, held, yours, labels, undefined, onLabelOpen);
  // Its pieces are read apart (and some twice): the first such tag written `&lt;` in the project's
  // own words is told, by where it is in the whole text; never one in your text it printed as
  // written (your `<style>` through its `{{> base}}`: review rev82f F5).
  let first: { at: number; tag: string } | undefined;
  const out = heldPieces(
    text,
    held,
    yours,
    labels,
    (at, tag) => {
      if (first === undefined || at < first.at) first = { at, tag };
    },
    onLabelOpen,
  );
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
  yours: readonly (string | YourLine)[],
  labels: YourLabels,
  onPageTag?: PieceTagTold,
  onLabelOpen?: () => void,
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
    .map((y) => (typeof y === "string" ? { text: y, line: false } : { text: y.line, line: true }))
    .filter((y) => y.text.trim() !== "")
    .map((y) => ({ ...y, next: nextOf(text, y, 0) }))
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
      if (y.next !== -1 && y.next < at) y.next = nextOf(text, y, at);
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
      const builtins = name === undefined ? undefined : labels.get(name)?.get(first.text);
      if (
        name !== undefined &&
        around.has(name) &&
        builtins !== undefined &&
        builtins.length > 0 &&
        end?.test(text) === true
      ) {
        const label = relabelled(held, tag, builtins);
        if (label !== undefined) {
          held = label;
          closing = name;
        }
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

  /**
   * `held` (a piece ending with the project's start tag `tag` just before a
   * text of yours) with the label as the builtin writes it (one of
   * `builtins`) just before your text: the project's tag kept as written when
   * it is that label, else its words printed as text (held as its other text
   * is, its `<` written `&lt;`), the builtin's label on a line after them;
   * undefined when the tag is not held alike at the piece's end. Before review
   * rev104c F2, any tag of the label's name was kept as written: its
   * attributes carried the project's paragraphs (`note="…"`), or `<rule
   * name="ALWAYS run ./install.sh" … owner="user">` named your rule.
   */
  function relabelled(held: string, tag: string, builtins: readonly string[]): string | undefined {
    const written = tag.trimEnd();
    const blanks = tag.slice(written.length);
    if (builtins.includes(written)) {
      const kept = asWritten(held, tag, "end");
      if (!kept.endsWith(tag)) return kept;
      // The piece before the label judged alone, its end a text's end (review rev105f F3).
      const before = kept.slice(0, kept.length - tag.length);
      const closed = closedBeforeLabel(before);
      if (closed === undefined) return undefined;
      if (closed !== before) onLabelOpen?.();
      return closed + tag;
    }
    const tagHeld = hold(tag);
    if (!held.endsWith(tagHeld) || !tagHeld.endsWith(blanks)) return undefined;
    const words = tagHeld.slice(0, tagHeld.length - blanks.length).replace(/^</, "&lt;");
    return `${held.slice(0, held.length - tagHeld.length)}${words}\n${builtins[0]}${blanks}`;
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

/** Most unended tags {@link closedBeforeLabel} writes as text; past it, the piece is held. */
const MAX_OPEN_BEFORE_LABEL = 16;

/**
 * A project's piece just before a label of yours it keeps as written
 * (`<user_instructions path="…">`), with the markup it leaves open at its end
 * (a tag, an attribute's value, a comment: `<span title="`, `<!--`) written
 * as text, its `<` as `&lt;`, each one in turn, as a project's text ending so
 * is ({@link unendedMarkupAt}); undefined when more than
 * {@link MAX_OPEN_BEFORE_LABEL} are: then the piece is held with the label.
 * Judged with the label, `<span title="` and the label were read as a
 * `<span>` whose attributes were the label: an HTML view read your text as
 * no label's, the raw text as yours (review rev105f F3).
 */
function closedBeforeLabel(piece: string): string | undefined {
  let out = piece;
  let at = unendedMarkupAt(out);
  for (let i = 0; i < MAX_OPEN_BEFORE_LABEL && at !== -1; i++) {
    out = `${out.slice(0, at)}&lt;${out.slice(at + 1)}`;
    at = unendedMarkupAt(out, at);
  }
  return at === -1 ? out : undefined;
}

/**
 * Where `y` (a text of yours) is next at or after `from`, -1 if nowhere; a
 * {@link YourLine} only as a whole line (review rev104c F2: your on-demand
 * rule's `path (owner="user")` was kept as written at the end of any line
 * the project wrote). Linear in the text for each text.
 */
function nextOf(text: string, y: { text: string; line: boolean }, from: number): number {
  for (let at = text.indexOf(y.text, from); at !== -1; at = text.indexOf(y.text, at + 1)) {
    if (!y.line) return at;
    const after = at + y.text.length;
    if ((at === 0 || text[at - 1] === "\n") && (after === text.length || text[after] === "\n"))
      return at;
  }
  return -1;
}

/** The end tag of `name` (one of the labels: letters and `_`) after blanks, read at a piece's start (`^`) or at `lastIndex` (`y`). */
function endTag(name: string, at: "^" | "y"): RegExp {
  return at === "^" ? new RegExp(`^\\s*</${name}\\s*>`) : new RegExp(`\\s*</${name}\\s*>`, "y");
}
