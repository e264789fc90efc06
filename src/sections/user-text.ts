import { eachLine, freshReading, type Leaf, readLine } from "../_blocks.js";
import type { PromptData } from "../data.js";
import type { AppendPart } from "../options.js";
import type { Diagnostic } from "../types.js";
import { shownParts } from "./html-reading.js";
import { CALLS_PARTIAL, inheritsBody } from "./layer.js";
import type { SectionTemplate } from "./types.js";

/** Names a warning quotes; the rest are counted. */
const MAX_NAMED = 5;

/** The builtin sections that show the user's own texts, and how to find each text in the prompt. */
const SHOWN: readonly {
  section: string;
  what: string;
  /** How the builtin labels each text as yours: the element just around it, and whether that carries the owner mark (rev58c F3). */
  label?: { element: string; mark: boolean; as: string };
  texts: (
    data: PromptData,
    appended: readonly AppendPart[],
  ) => { name: string; found: readonly string[] }[];
}[] = [
  {
    section: "project_context",
    what: "instruction file",
    label: {
      element: "user_instructions",
      mark: false,
      as: "outside its own <user_instructions> element",
    },
    texts: (d) =>
      d.contextFiles
        .filter((f) => f.origin === "user")
        .map((f) => ({ name: f.path, found: [f.content] })),
  },
  {
    section: "project_rules",
    what: "rule",
    label: { element: "rule", mark: true, as: 'without its owner="user" mark' },
    texts: (d) =>
      d.alwaysRules
        .filter((r) => r.origin === "user")
        .map((r) => ({ name: r.path, found: [r.content] })),
  },
  {
    section: "skills",
    what: "skill",
    texts: (d) =>
      d.skills
        .filter((k) => k.origin === "user")
        .map((k) => ({ name: k.name, found: [k.location] })),
  },
  {
    section: "addendum",
    what: "appended text",
    texts: (_, appended) =>
      appended
        .filter((p) => !p.repository)
        .map((p) => ({ name: `"${firstWords(p.text)}"`, found: [p.text] })),
  },
];

/** The start of a text, for naming it in a warning. */
function firstWords(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}

/**
 * The text without what an HTML reader of the rendered prompt never shows
 * ({@link shownParts}, an HTML tree builder reading the Markdown as a
 * renderer passes it on): comments, `<?…?>`, declarations, CDATA, the
 * content of elements that hide (`<script>`, `<template>`, `<details>`, an
 * element with `hidden` or a hiding style …, to where the reader ends them),
 * a start tag's attributes, and what a tag left open swallows. Element names
 * and end tags are kept, for the code blocks read after (`<pre>`).
 * `whenTooMuch`: what a text longer than one reading takes
 * ({@link tooMuchHtml}) is read as: "none" shown (a project's text, where
 * your texts are looked for: the check then says they are missing) or "all"
 * (a text of yours, whose lines are looked for).
 */
export function withoutHidden(text: string, whenTooMuch: "none" | "all" = "none"): string {
  if (!text.includes("<")) return text;
  const parts = shownParts(text);
  if (parts === undefined) return whenTooMuch === "all" ? text : "";
  let out = "";
  for (let i = 0; i < parts.length; i += 2) out += text.slice(parts[i], parts[i + 1]);
  return out;
}

/** A fenced code block ({@link codeBlocks}' other reading). */
export function isFence(leaf: Leaf | undefined): boolean {
  return leaf !== undefined && leaf.kind === "fence";
}

/** A fenced code block or an HTML block of CommonMark's kinds 1-5 (`<pre>`, `<textarea>`, `<script>`, a comment …). */
function isCode(leaf: Leaf | undefined): boolean {
  return leaf !== undefined && (leaf.kind === "fence" || (leaf.kind === "html" && leaf.type <= 5));
}

/**
 * Where `text`'s code is ({@link isCode}), as CommonMark reads it: each
 * block's first and last offsets, its opener's line to its closer's, in
 * order (flat pairs). Linear.
 */
export function codeBlocks(
  text: string,
  code: (leaf: Leaf | undefined) => boolean = isCode,
): number[] {
  const blocks: number[] = [];
  const reading = freshReading();
  let open: Leaf | undefined;
  eachLine(text, (from, to) => {
    const before = reading.leaf;
    const closer = readLine(reading, text, from, to);
    const after = reading.leaf;
    if (open !== undefined && before === open) {
      // Its line, the closer's too; a line that ends it another way (the end of its
      // block quote or list item: rev57b F6) is not in it and starts its own block.
      if (after === open || closer) blocks[blocks.length - 1] = to;
      if (after === open) return;
      open = undefined;
    }
    if (code(after) && after !== before) {
      open = after;
      blocks.push(from, to);
    }
  });
  return blocks;
}

/** The block of `blocks` ({@link codeBlocks}) `at` is in: its start, or -1. */
function codeBlockAt(blocks: readonly number[], at: number): number {
  let low = 0;
  let high = blocks.length / 2;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((blocks[2 * mid + 1] as number) < at) low = mid + 1;
    else high = mid;
  }
  const start = blocks[2 * low];
  return start !== undefined && start <= at ? start : -1;
}

/**
 * Whether a text of yours at `at` of the prompt is prompt text: not in a code
 * block, a `<pre>` or a `<textarea>` opened before it (the project's doing; one
 * your text opens itself is yours, as your file has it). rev56c F10: a
 * project's override printing your AGENTS.md in a fence counted as showing it.
 */
export function outsideCodeOpenedBefore(blocks: readonly number[], at: number): boolean {
  const start = codeBlockAt(blocks, at);
  return start === -1 || start >= at;
}

/**
 * Where `text`'s code spans are, as CommonMark reads them (rev58f F3): in a
 * paragraph (its lines outside `blocks`, {@link codeBlocks}, to a blank
 * line), a run of backticks (its first one escaped by a `\` is text) opens a
 * span that the next run of the same length closes; one with none closes
 * nothing. Each span's first and last offsets (flat pairs), in order. Linear.
 */
export function codeSpans(text: string, blocks: readonly number[]): number[] {
  const spans: number[] = [];
  let runs: number[] = [];
  const close = () => {
    // Each run's next of its length, found from the end: linear.
    const next = new Array<number>(runs.length / 2).fill(-1);
    const last = new Map<number, number>();
    for (let i = runs.length / 2 - 1; i >= 0; i--) {
      const length = (runs[2 * i + 1] as number) - (runs[2 * i] as number);
      next[i] = last.get(length) ?? -1;
      last.set(length, i);
    }
    for (let i = 0; i < next.length; ) {
      const j = next[i] as number;
      if (j === -1) {
        i++;
        continue;
      }
      spans.push(runs[2 * i] as number, (runs[2 * j + 1] as number) - 1);
      i = j + 1;
    }
    runs = [];
  };
  // The next backtick from the line read: looked for again only once passed (rev59b F5: one
  // look per line ran to the next backtick of the whole text, quadratic in blank lines).
  let tick = text.indexOf("`");
  eachLine(text, (from, to) => {
    if (codeBlockAt(blocks, from) !== -1 || text.slice(from, to).trim() === "") {
      close();
      return;
    }
    if (tick !== -1 && tick < from) tick = text.indexOf("`", from);
    if (tick === -1 || tick >= to) return;
    for (let at = tick; at !== -1 && at < to; at = text.indexOf("`", at)) {
      let end = at;
      while (text[end] === "`") end++;
      const start = text[at - 1] === "\\" ? at + 1 : at;
      if (end > start) runs.push(start, end);
      at = end;
      tick = text.indexOf("`", end);
    }
  });
  close();
  return spans;
}

/** Whether `at` is inside a span of `spans` ({@link codeSpans}) that opened before it. */
function inSpanOpenedBefore(spans: readonly number[], at: number): boolean {
  const start = codeBlockAt(spans, at);
  return start !== -1 && start < at;
}

/**
 * Whether `found` is in the prompt outside what is never shown (`shown`: the
 * prompt without it, {@link withoutHidden}; `blocks`: its code) and outside
 * code opened before it ({@link outsideCodeOpenedBefore}).
 */
function shownIn(
  shown: { text: string; blocks: readonly number[]; spans: readonly number[] },
  found: string,
): boolean {
  if (found === "") return false;
  const visible = withoutHidden(found, "all");
  const sought = visible.trim() === "" ? found : visible;
  const { text, blocks, spans } = shown;
  for (let at = text.indexOf(sought); at !== -1; at = text.indexOf(sought, at + sought.length))
    if (outsideCodeOpenedBefore(blocks, at) && !inSpanOpenedBefore(spans, at)) return true;
  return false;
}

/** The longest start tag {@link labelledIn} reads back for. */
const MAX_LABEL = 8192;

/**
 * Whether `found` (a text of yours) is in the prompt `text` as written just
 * after a start tag of `element` (blanks between) that, with `mark`, carries
 * the owner mark: labelled as yours, as the builtin prints it. The project's
 * own such labels elsewhere are held (rev58c F2), so one found raw is around
 * your text.
 */
function labelledIn(
  text: string,
  found: string,
  label: { element: string; mark: boolean },
): boolean {
  if (found === "") return false;
  for (let at = text.indexOf(found); at !== -1; at = text.indexOf(found, at + 1)) {
    let end = at;
    while (end > 0 && /\s/.test(text[end - 1] as string)) end--;
    if (text[end - 1] !== ">") continue;
    // A start tag's length is bounded here (a path and a few names): each look back is short.
    const before = text.slice(Math.max(0, end - MAX_LABEL), end);
    const tag = before.slice(before.lastIndexOf("<"));
    const name = /^<([A-Za-z_]+)[\s>]/.exec(tag)?.[1];
    if (name === label.element && (!label.mark || tag.includes('owner="user"'))) return true;
  }
  return false;
}

/** `text`'s lines outside its code ({@link codeBlocks}), trimmed, the blank ones left out. */
export function proseLines(text: string): string[] {
  const blocks = codeBlocks(text);
  const lines: string[] = [];
  eachLine(text, (from, to) => {
    const line = text.slice(from, to).trim();
    if (line !== "" && codeBlockAt(blocks, from) === -1) lines.push(line);
  });
  return lines;
}

/**
 * How many of `lines` (your text's {@link proseLines}) are in `text` in order,
 * each outside its code: one of yours the project's text prints only in a
 * fence, a `<pre>` or a `<textarea>` is not shown as prompt text (rev56c F10).
 * Each search starts at the end of the last: linear in `text`.
 */
export function linesShownInOrder(text: string, lines: readonly string[]): number {
  const blocks = codeBlocks(text);
  // A code span the project's text opens before your first line holds your lines as code
  // too (rev58f F3); one your lines open is yours.
  const spans = codeSpans(text, blocks);
  const inSpan = (found: number, first: number) => {
    const start = codeBlockAt(spans, found);
    return start !== -1 && start < found && start < first;
  };
  let at = 0;
  let kept = 0;
  let first = -1;
  for (const line of lines) {
    let found = text.indexOf(line, at);
    while (
      found !== -1 &&
      (codeBlockAt(blocks, found) !== -1 || inSpan(found, first === -1 ? found : first))
    )
      found = text.indexOf(line, found + line.length);
    if (found === -1) break;
    if (first === -1) first = found;
    at = found + line.length;
    kept++;
  }
  return kept;
}

/**
 * The builtin sections that hold some of the user's own texts in this data:
 * those fitting keeps room for. With `templates`, not one a project's
 * version is on top of: what that prints is the repository's text.
 */
export function userTextSections(
  data: PromptData,
  appended: readonly AppendPart[] = [],
  templates?: readonly SectionTemplate[],
): Set<string> {
  const project = new Set(
    (templates ?? []).filter((t) => t.source.layer === "project").map((t) => t.name),
  );
  return new Set(
    SHOWN.filter((s) => !project.has(s.section) && s.texts(data, appended).length > 0).map(
      (s) => s.section,
    ),
  );
}

/**
 * A warning for each section a project's override (a trusted project's
 * `.pi/sections/<name>.md`, switched off or rewritten) that leaves the user's
 * own texts out of the prompt: the user's `AGENTS.md`, always rules, skills or
 * appended text (`--append-system-prompt`, APPEND_SYSTEM.md) are then gone
 * without a word (issue 24). A text counts as kept when its content (a skill:
 * its location) is in the prompt outside an HTML comment; a file's path alone
 * is not its text (a section printing the paths in a comment kept the
 * warning away), nor is its text printed only inside `<!-- -->`.
 */
export function userTextLeftOut(
  templates: readonly SectionTemplate[],
  data: PromptData,
  text: string,
  appended: readonly AppendPart[] = [],
  placed?: readonly string[],
  fitStopped = false,
  forWantOfRoom?: ReadonlySet<string>,
): Diagnostic[] {
  let shown: { text: string; blocks: readonly number[]; spans: readonly number[] } | undefined;
  return SHOWN.flatMap(({ section, what, label, texts }) => {
    const template = templates.find((t) => t.name === section);
    if (template === undefined) return [];
    // A section of yours or the builtin one, enabled but not in the prompt: left out for want
    // of room (the prompt's 8 MiB or its own render's), after the repository's text was cut first.
    const forRoom =
      template.source.layer !== "project" &&
      template.meta.enabled !== false &&
      placed !== undefined &&
      !placed.includes(section);
    if (template.source.layer !== "project" && !forRoom) return [];
    const own = texts(data, appended);
    // Read without what is never shown only when there is a text of yours to look for: a
    // section of yours that rendered empty (no always rules) costs nothing on every render.
    if (own.length === 0) return [];
    if (shown === undefined) {
      const visible = withoutHidden(text);
      const blocks = codeBlocks(visible);
      shown = { text: visible, blocks, spans: codeSpans(visible, blocks) };
    }
    const visible = shown;
    const left = own.filter((t) => !t.found.some((f) => shownIn(visible, f)));
    if (left.length === 0) {
      // Shown, but as the repository's: a project's copy printing your file outside its
      // element, or your rule without its mark (rev58c F3).
      if (forRoom || label === undefined) return [];
      const relabelled = own.filter((t) => !t.found.some((f) => labelledIn(text, f, label)));
      if (relabelled.length === 0) return [];
      const names = relabelled.slice(0, MAX_NAMED).map((t) => t.name);
      const others =
        relabelled.length > MAX_NAMED ? ` and ${relabelled.length - MAX_NAMED} more` : "";
      const one = relabelled.length === 1;
      return [
        {
          level: "warning" as const,
          code: "user-text-left-out",
          message: `the project's override of section "${section}" prints your own ${what}${one ? "" : "s"} ${names.join(", ")}${others} ${label.as}: the prompt reads ${one ? "it" : "them"} as the repository's text; run with --untrusted, or remove the project's file, to have ${one ? "it" : "them"} back as yours`,
          ...(template.source.path ? { path: template.source.path } : {}),
        },
      ];
    }
    const named = left.slice(0, MAX_NAMED).map((t) => t.name);
    const more = left.length > MAX_NAMED ? ` and ${left.length - MAX_NAMED} more` : "";
    if (forRoom && forWantOfRoom !== undefined && !forWantOfRoom.has(section)) {
      // Not rendered at all (the sections before it spent the prompt's work), or its render
      // failed: no room was made for it, and no text of the repository's was cut for it.
      return [
        {
          level: "warning" as const,
          code: "user-text-left-out",
          message: `section "${section}" is not in the prompt, and not for want of room (see prompt-render-work or the template error): your own ${what}${left.length === 1 ? "" : "s"} ${named.join(", ")}${more} ${left.length === 1 ? "is" : "are"} not in the prompt, and no text of the repository's was cut to make room for ${left.length === 1 ? "it" : "them"}`,
          ...(template.source.path ? { path: template.source.path } : {}),
        },
      ];
    }
    if (forRoom) {
      return [
        {
          level: "warning" as const,
          code: "user-text-left-out",
          message: `section "${section}" was left out for want of room (see prompt-too-large, a template error or budget-left-out): your own ${what}${left.length === 1 ? "" : "s"} ${named.join(", ")}${more} ${left.length === 1 ? "is" : "are"} not in the prompt, ${fitStopped ? "and making room stopped at fitting's work limit (budget-fit-cut) before every step that cuts the repository's text was tried" : "even with the repository's text in it and in the other sections cut first"}`,
          ...(template.source.path ? { path: template.source.path } : {}),
        },
      ];
    }
    const how = template.meta.enabled === false ? "switches it off" : "does not show them";
    return [
      {
        level: "warning" as const,
        code: "user-text-left-out",
        message: `the project's override of section "${section}" ${how}: your own ${what}${left.length === 1 ? "" : "s"} ${named.join(", ")}${more} ${left.length === 1 ? "is" : "are"} not in the prompt; run with --untrusted, or remove the project's file, to have ${left.length === 1 ? "it" : "them"} back`,
        ...(template.source.path ? { path: template.source.path } : {}),
      },
    ];
  });
}

/**
 * A warning for each section of the user's own (`ownSections`: theirs, the
 * caller's, the rules section with their guidelines) that the prompt left out
 * for want of room (`leftOut`, `stopped`), even after fitting cut the
 * repository's text first, or when fitting stopped at its work limit; one for
 * those not rendered because the renders before them spent the prompt's work
 * (`unworked`); and one naming your file under each project's version that
 * keeps your body (calls `{{> base}}`, or is blank) and was left out for either
 * reason, your text with it (rev54a F8: those went with no word).
 */
export function ownSectionsLeftOut(
  own: readonly string[],
  out: {
    sections: readonly { name: string }[];
    leftOut?: readonly string[];
    stopped?: readonly string[];
    unworked?: readonly string[];
  },
  fitStopped = false,
  templates: readonly SectionTemplate[] = [],
): Diagnostic[] {
  const missing = (n: string) => !out.sections.some((s) => s.name === n);
  const gone = new Set([...(out.leftOut ?? []), ...(out.stopped ?? [])]);
  const unworked = new Set(out.unworked);
  const byName = new Map(templates.map((t) => [t.name, t]));
  const diagnostics: Diagnostic[] = [];
  // Stopped at its render's limits (a template error), not left out for room: said as such (rev89g F1).
  const room = new Set(out.leftOut);
  const halted = own.filter((n) => gone.has(n) && !room.has(n) && missing(n));
  if (halted.length > 0) {
    diagnostics.push({
      level: "warning",
      code: "user-text-left-out",
      message: `your own section${halted.length === 1 ? "" : "s"} ${namedSections(halted, byName)} ${halted.length === 1 ? "is" : "are"} not in the prompt, and not for want of room: ${halted.length === 1 ? "its render" : "their renders"} stopped at a limit of the prompt's renders (see the template error)`,
    });
  }
  const left = own.filter((n) => room.has(n) && missing(n));
  if (left.length > 0) {
    diagnostics.push({
      level: "warning",
      code: "user-text-left-out",
      message: `your own section${left.length === 1 ? "" : "s"} ${namedSections(left, byName)} ${left.length === 1 ? "was" : "were"} left out for want of room (see prompt-too-large, a template error or budget-left-out), ${fitStopped ? "and making room stopped at fitting's work limit (budget-fit-cut) before every step that cuts the repository's text was tried" : "even with the repository's text cut first"}`,
    });
  }
  const notRendered = own.filter((n) => unworked.has(n) && !gone.has(n) && missing(n));
  if (notRendered.length > 0) {
    diagnostics.push({
      level: "warning",
      code: "user-text-left-out",
      message: `your own section${notRendered.length === 1 ? "" : "s"} ${namedSections(notRendered, byName)} ${notRendered.length === 1 ? "is" : "are"} not in the prompt, and not for want of room: the renders before ${notRendered.length === 1 ? "it" : "them"} spent the work one prompt's renders may do together (see prompt-render-work and the template error)`,
    });
  }
  for (const template of templates) {
    if (template.source.layer !== "project" || !template.meta.enabled) continue;
    if (!missing(template.name) || !(gone.has(template.name) || unworked.has(template.name)))
      continue;
    const yours = yoursBelow(template);
    if (yours === undefined) continue;
    const why = unworked.has(template.name)
      ? "not rendered: the renders before it spent the work one prompt's renders may do together (see prompt-render-work)"
      : "left out for want of room or at its render's limits (see prompt-too-large or the template error)";
    diagnostics.push({
      level: "warning",
      code: "user-text-left-out",
      message: `your section "${template.name}" (${yours.source.path ?? "yours"}) is not in the prompt: the project's ${template.source.path ?? "section"} over it, which prints your text, was ${why}; run with --untrusted, or remove the project's file, to have yours back`,
      ...(template.source.path ? { path: template.source.path } : {}),
    });
  }
  return diagnostics;
}

/** `"usec" (~/.pi/agent/sections/usec.md)`, `"rules" (with your --guideline texts)`: at most five, the rest counted. */
function namedSections(
  names: readonly string[],
  byName: ReadonlyMap<string, SectionTemplate>,
): string {
  const named = names.slice(0, MAX_NAMED).map((n) => {
    const t = byName.get(n);
    if (t?.source.layer === "user" && t.source.path) return `"${n}" (${t.source.path})`;
    return n === "rules" ? `"rules" (with your --guideline texts)` : `"${n}"`;
  });
  const more = names.length > MAX_NAMED ? ` and ${names.length - MAX_NAMED} more` : "";
  return `${named.join(", ")}${more}`;
}

/**
 * Your enabled version below a project's that keeps it (blank, or calling a
 * partial such as `{{> base}}`): left out with the project's, your text goes too.
 * One that calls none was said before rendering (`replacedByProject`).
 */
function yoursBelow(template: SectionTemplate): SectionTemplate | undefined {
  if (!inheritsBody(template) && !CALLS_PARTIAL.test(template.body)) return undefined;
  let lower = template.lower;
  while (lower?.source.layer === "project") lower = lower.lower;
  return lower?.source.layer === "user" && lower.meta.enabled ? lower : undefined;
}
