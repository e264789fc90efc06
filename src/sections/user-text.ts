import { eachLine, freshReading, type Leaf, readLine } from "../_blocks.js";
import type { PromptData } from "../data.js";
import type { AppendPart } from "../options.js";
import type { Diagnostic } from "../types.js";
import { CALLS_PARTIAL, inheritsBody } from "./layer.js";
import { readStartTag, startTagEnds, TagState, tagNameEnd, tagStep } from "./start-tag.js";
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
 * The text without what an HTML reader of the rendered prompt never shows,
 * anywhere in a line: comments (`<!--` to `-->`), processing instructions
 * (`<?` to `?>`), CDATA (`<![CDATA[` to `]]>`), declarations (`<!` and a
 * letter to `>`), and the content of `<script>`, `<style>`, `<template>`,
 * `<title>`, `<noembed>`, `<noframes>` and `<iframe>` elements and of any
 * element with a `hidden` attribute (to their first end tag, any type; rev54a F1),
 * and the others {@link DATA_ELEMENTS} and {@link hides} name (rev56c F5); a comment not closed hides the rest,
 * the others not closed are text (`<?php` in a code sample): CommonMark's
 * HTML blocks of kinds 2-5 and the kind-1 ones whose text is
 * data (rev52b F12: `{{> base}}` inside `<?ignore … ?>` counted as shown).
 * Tag names in any case. Linear.
 */
export function withoutHidden(text: string): string {
  if (!text.includes("<")) return text;
  // ASCII letters lowered, the same length: the names match in any case; an end tag in code
  // ends nothing, as at a repository text's end (`closeHiddenRuns`).
  const lower = endTagsInCodeMuted(text).replace(/[A-Z]+/g, (s) => s.toLowerCase());
  const ends = startTagEnds(lower);
  const tagEnd = (lt: number) => ends.get(lt) ?? -1;
  const { tokens, byName } = readTokens(lower, tagEnd);
  // Names whose element was found never closed: a later one is not either.
  const unclosed = new Set<string>();
  let out = "";
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.at < from || token.kind === "end") continue;
    if (token.kind === "run") {
      out += text.slice(from, token.at);
      from = token.end;
      continue;
    }
    // A name found never closed is text from there on, without reading its attributes again.
    const hidden = !unclosed.has(token.name) && hiddenAt(lower, token.at, tagEnd) !== undefined;
    const close = hidden ? matchingEnd(tokens, byName, token) : -1;
    if (close !== -1) {
      out += text.slice(from, token.at);
      from = (tokens[close] as Token).end;
      i = close;
      continue;
    }
    // Never closed, it is text (`<details>` named in prose); a repository's element left
    // open is closed before this is asked (closeHiddenRuns).
    if (hidden) unclosed.add(token.name);
    // A start tag's attributes are never shown (rev57b F5: your text in `<span title="…">`);
    // its name is kept, for the code blocks read after (`<pre>`).
    out += `${text.slice(from, tagNameEnd(lower, token.at))}>`;
    from = token.end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * Elements whose text an HTML reader reads raw, to their first end tag of
 * the name: nothing inside them is a tag, nothing nests.
 */
export const RAW_TEXT: ReadonlySet<string> = new Set([
  "script",
  "style",
  "title",
  "textarea",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
]);

/** Whether `code` ends a tag's name (`>`, `/` or a space), as the start-tag reader reads it. */
export function endsTagName(code: number): boolean {
  return tagStep(TagState.Name, code) !== TagState.Name;
}

/**
 * A start tag, an end tag, or a run no reader shows (a comment, `<?…?>`,
 * CDATA, a declaration): from its `<` at `at` to `end`, just past it. `index`:
 * a tag's place among its name's tags.
 */
type Token = {
  at: number;
  end: number;
  kind: "start" | "end" | "run";
  name: string;
  index: number;
};

/**
 * The tags and runs of `lower` as an HTML reader meets them from its start:
 * a comment's or a raw-text element's inside holds none (rev58: `</div>` in a
 * comment does not close the element), a tag's attributes none. `byName`:
 * each name's tags, by their place in `tokens`. A comment never closed hides
 * the rest; the other runs never closed are text (`<?php` in a code sample).
 * Linear: each raw-text name is looked for to the end at most once.
 */
function readTokens(
  lower: string,
  tagEnd: (at: number) => number,
): { tokens: Token[]; byName: Map<string, number[]> } {
  const tokens: Token[] = [];
  const byName = new Map<string, number[]>();
  const push = (at: number, end: number, kind: Token["kind"], name: string) => {
    let list = byName.get(name);
    if (list === undefined) {
      list = [];
      byName.set(name, list);
    }
    tokens.push({ at, end, kind, name, index: list.length });
    list.push(tokens.length - 1);
  };
  // Raw-text names and run closers not found past some point, so past any later one.
  const missing = new Set<string>();
  let nextGt = lower.indexOf(">");
  let at = lower.indexOf("<");
  while (at !== -1) {
    const next = lower.charCodeAt(at + 1);
    if (next === 0x2f) {
      const nameEnd = tagNameEnd(lower, at + 1);
      const first = lower.charCodeAt(at + 2);
      // The next `>`, looked for again only once passed (`</a ` repeated with no `>`: linear).
      if (nextGt !== -1 && nextGt < nameEnd) nextGt = lower.indexOf(">", nameEnd);
      const gt = first >= 0x61 && first <= 0x7a ? nextGt : -1;
      if (gt !== -1) {
        push(at, gt + 1, "end", lower.slice(at + 2, nameEnd));
        at = lower.indexOf("<", gt + 1);
      } else at = lower.indexOf("<", at + 1);
      continue;
    }
    if (next === 0x21 || next === 0x3f) {
      const run = hiddenAt(lower, at, () => -1);
      // A closer not found past some point is not past any later one (rev59b F6: each `<?`
      // looked for `?>` to the end, quadratic).
      const close =
        run === undefined || missing.has(run.close) ? -1 : lower.indexOf(run.close, at + run.open);
      if (run !== undefined && close === -1) missing.add(run.close);
      if (run !== undefined && close === -1 && run.close === "-->") {
        tokens.push({ at, end: lower.length, kind: "run", name: "", index: 0 });
        break;
      }
      if (run === undefined || close === -1) {
        at = lower.indexOf("<", at + 1);
        continue;
      }
      const end = close + run.close.length;
      tokens.push({ at, end, kind: "run", name: "", index: 0 });
      at = lower.indexOf("<", end);
      continue;
    }
    const gt = tagEnd(at);
    if (gt === -1) {
      at = lower.indexOf("<", at + 1);
      continue;
    }
    const name = lower.slice(at + 1, tagNameEnd(lower, at));
    push(at, gt + 1, "start", name);
    at = lower.indexOf("<", gt + 1);
    if (!RAW_TEXT.has(name) || missing.has(name)) continue;
    const close = rawTextEnd(lower, name, gt + 1);
    if (close === -1) {
      missing.add(name);
      continue;
    }
    const end = lower.indexOf(">", close);
    push(close, end + 1, "end", name);
    at = lower.indexOf("<", end + 1);
  }
  return { tokens, byName };
}

/** The `<` of the first end tag of raw-text element `name` from `from` that is followed by its `>`, or -1. */
function rawTextEnd(lower: string, name: string, from: number): number {
  const closer = `</${name}`;
  for (let at = lower.indexOf(closer, from); at !== -1; at = lower.indexOf(closer, at + 1)) {
    if (!endsTagName(lower.charCodeAt(at + closer.length))) continue;
    return lower.indexOf(">", at) === -1 ? -1 : at;
  }
  return -1;
}

/**
 * The place in `tokens` of the end tag that ends `start`'s element, the
 * same-name elements inside it counted as an HTML reader nests them (rev58:
 * `<div hidden>` then `<div>` is not ended by one `</div>`), or -1. A raw-text
 * element ends at its first end tag. Reads only `start`'s name's tags.
 */
function matchingEnd(
  tokens: readonly Token[],
  byName: ReadonlyMap<string, readonly number[]>,
  start: Token,
): number {
  const list = byName.get(start.name) as readonly number[];
  let depth = 0;
  for (let k = start.index; k < list.length; k++) {
    const place = list[k] as number;
    const token = tokens[place] as Token;
    depth += token.kind === "start" ? 1 : -1;
    if (depth === 0 || (token.kind === "end" && RAW_TEXT.has(start.name))) return place;
  }
  return -1;
}

/**
 * Elements whose content no HTML reader shows by default: data (`<datalist>`
 * too), a closed `<details>` past its summary (the whole element counts),
 * `<svg>` drawing, media, `<canvas>` and `<object>` fallback (rev56c F5,
 * rev58c F5). `<noscript>` is shown where scripts are off, as in most
 * Markdown viewers, so it is not among them. A hand list: an element left
 * off it is read as shown.
 */
const DATA_ELEMENTS = [
  "script",
  "style",
  "template",
  "title",
  "noembed",
  "noframes",
  "iframe",
  "details",
  "svg",
  "video",
  "audio",
  "object",
  "canvas",
  "datalist",
];

/** Matched on a style as CSS reads it ({@link cssText}). */
// A value through a custom property (`display:var(--x)`) is read as hiding: the safe side
// (rev59b F8: `--x:none;display:var(--x)` hid with no word).
const HIDING_STYLE =
  /display\s*:\s*(?:none|[^;]*var\s*\()|visibility\s*:\s*(?:hidden|collapse|[^;]*var\s*\()/;

/**
 * Whether a start tag's attributes ({@link readStartTag}: names, decoded
 * values) hide element `name`: `hidden`, `popover` (shown only when a script
 * opens it), a hiding style, a `<dialog>` not `open`.
 */
function hides(name: string, attributes: ReadonlyMap<string, string>): boolean {
  if (attributes.has("hidden") || attributes.has("popover")) return true;
  if (name === "dialog" && !attributes.has("open")) return true;
  const style = attributes.get("style");
  return style !== undefined && HIDING_STYLE.test(cssText(style));
}

/**
 * A style attribute's value as CSS reads it (rev58f F5): comments dropped
 * (one between `display:` and `none`), escapes decoded (`display:n\one`,
 * `display:\6e one`), ASCII lowered. Linear: an unclosed comment runs to the end once.
 */
function cssText(style: string): string {
  return style
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(
      /\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|([^\n\r\f]))/gi,
      (_, hex?: string, char?: string) => {
        if (hex === undefined) return char ?? "";
        const code = Number.parseInt(hex, 16);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
          ? String.fromCodePoint(code)
          : "\ufffd";
      },
    )
    .replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** The start tag at `at` ending at `end` ({@link startTagEnds}) when it hides its element ({@link hides}): its length and name. */
function hiddenTag(
  lower: string,
  at: number,
  end: number,
): { length: number; name: string } | undefined {
  if (end === -1) return undefined;
  const tag = readStartTag(lower, at, end);
  if (!hides(tag.name, tag.attributes)) return undefined;
  return { length: end + 1 - at, name: tag.name };
}

/** The hidden run that starts at `at` (a `<`) of ASCII-lowered text: its opener's length and its closer. Also the slash-template argument guard's notion of "never shown" (src/prompt-templates/_hidden-runs.ts). */
export function hiddenAt(
  lower: string,
  at: number,
  tagEnd: (at: number) => number,
): { open: number; close: string; tag?: true } | undefined {
  if (lower.startsWith("<!--", at)) return { open: 4, close: "-->" };
  if (lower.startsWith("<![cdata[", at)) return { open: 9, close: "]]>" };
  if (lower.startsWith("<?", at)) return { open: 2, close: "?>" };
  const next = lower.charCodeAt(at + 2);
  if (lower[at + 1] === "!" && next >= 0x61 && next <= 0x7a) return { open: 2, close: ">" };
  for (const name of DATA_ELEMENTS) {
    if (!lower.startsWith(name, at + 1)) continue;
    const after = lower[at + 1 + name.length];
    if (after === undefined || after === ">" || after === "/" || /\s/.test(after))
      return { open: 1 + name.length, close: `</${name}`, tag: true };
  }
  // Any element with a `hidden` attribute, to its first end tag (rev54a F1).
  const tag = hiddenTag(lower, at, tagEnd(at));
  if (tag !== undefined) return { open: tag.length, close: `</${tag.name}`, tag: true };
  return undefined;
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

/** A fence or an HTML block of any kind: where CommonMark reads no code span. */
function isFenceOrHtml(leaf: Leaf | undefined): boolean {
  return leaf !== undefined && (leaf.kind === "fence" || leaf.kind === "html");
}

/**
 * `text` with the `/` of each `</` in code (a fence, a code span, a line
 * indented four columns or more) written as a space, the same length: an end
 * tag there ends nothing for a reader of the Markdown (rev58f F1: a `</div>`
 * in a fence or a code span was taken as the end of a repository's
 * `<div hidden>`). Start tags are left alone: a line read as code by mistake
 * then costs one closer too many, never one too few. Code spans are looked
 * for outside fences and HTML blocks (rev59b F11: backticks in a `<script>`
 * line muted its real end tag). Read by both `closeHiddenRuns` and
 * {@link withoutHidden} (rev59b F12: the two disagreed). Linear.
 */
export function endTagsInCodeMuted(text: string): string {
  if (!text.includes("</")) return text;
  // Every `</`, in order; each range below takes its own by a binary search.
  const ends: number[] = [];
  for (let at = text.indexOf("</"); at !== -1; at = text.indexOf("</", at + 2)) ends.push(at);
  const muted = new Set<number>();
  const mute = (from: number, to: number) => {
    let low = 0;
    let high = ends.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((ends[mid] as number) < from) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < ends.length && (ends[i] as number) <= to; i++)
      muted.add(ends[i] as number);
  };
  const fences = codeBlocks(text, isFence);
  for (let i = 0; i < fences.length; i += 2) mute(fences[i] as number, fences[i + 1] as number);
  const spans = codeSpans(text, codeBlocks(text, isFenceOrHtml));
  for (let i = 0; i < spans.length; i += 2) mute(spans[i] as number, spans[i + 1] as number);
  // Lines indented four columns or more that hold a `</`.
  let line = 0;
  let lineEnd = text.indexOf("\n");
  for (const at of ends) {
    while (lineEnd !== -1 && lineEnd < at) {
      line = lineEnd + 1;
      lineEnd = text.indexOf("\n", line);
    }
    if (indentOf(text, line) >= 4 || notRawEndTag(text, at, line)) muted.add(at);
  }
  if (muted.size === 0) return text;
  const chars = text.split("");
  for (const at of muted) chars[at + 1] = " ";
  return chars.join("");
}

/** An end tag's form CommonMark passes through as raw HTML within a line: `</name`, blanks, `>`. */
const RAW_END_TAG = /<\/[A-Za-z][A-Za-z0-9-]*[ \t]*(?:\r?\n[ \t]*)?>/y;

/**
 * Whether the `</` at `at` (on the line from `line`) is one a Markdown reader
 * prints as text, not as an end tag (rev59b F2): escaped (`\</div>`), a link's
 * destination in angle brackets (`[a](</div>)`), or, past a line's start
 * (where an HTML block would take it as it is), not in the form
 * {@link RAW_END_TAG} (`</div x>`, `</div/>`).
 */
function notRawEndTag(text: string, at: number, line: number): boolean {
  const before = text.charCodeAt(at - 1);
  if (before === 0x5c) return true;
  if (before === 0x28 && text.charCodeAt(at - 2) === 0x5d) return true;
  if (at - line <= 3 && text.slice(line, at).trim() === "") return false;
  RAW_END_TAG.lastIndex = at;
  return !RAW_END_TAG.test(text);
}

/** The columns of spaces and tabs the line at `from` starts with (a tab to the next multiple of four), at most 4. */
function indentOf(text: string, from: number): number {
  let column = 0;
  for (let at = from; column < 4 && at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x20) column++;
    else if (code === 0x09) column += 4 - (column % 4);
    else break;
  }
  return column;
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
  const visible = withoutHidden(found);
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
  const left = own.filter((n) => gone.has(n) && missing(n));
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
