/**
 * Fenced code blocks (CommonMark): the one scanner that the prompt's
 * formatting and gathering's Markdown use. A fence is ``` or ~~~ (three or
 * more), indented by at most three spaces; a backtick fence's info string
 * holds no backtick; a closer is the same character, at least as many, and
 * nothing after it but spaces and tabs. Plain character codes, no regular
 * expressions: each line is read a bounded number of times, whatever it holds.
 * The closers added after a repository's text read it with the containers
 * too (`src/_blocks.ts`): a fence in a list item ends with the item.
 */

import {
  afterMarkers,
  copyReading,
  definitionLength,
  definitionTitleOpen,
  eachLine,
  type Fence,
  freshReading,
  isAsciiPunctuation,
  type Leaf,
  PARAGRAPH,
  type Reading,
  readLine,
  sameReading,
} from "./_blocks.js";
import { InlineLinkReader } from "./_inline-link.js";
import { escapeWrapperTags, type OwnRewrite, repositoryNames } from "./_prompt-text.js";
import { asCell, delimiterRowAt } from "./_table-rows.js";
import {
  closeHiddenRuns,
  fallbackMessage,
  type HiddenRunsOptions,
  type RenderLimit,
} from "./prompt-templates/hidden-closers.js";
import { endsInTableRun, tableRunsAsText } from "./sections/gfm-tables.js";
import {
  EMPTY_COMMENT,
  followingShown,
  MAX_CLOSER_CHARS,
  paidCheck,
  quirksTableStartsInCheck,
  rawHidingTags,
  rawMarkupCloser,
  rawMarkupEnd,
  tablesApartInCheck,
  unendedMarkupAt,
  withCheckBudget,
  withOneRender,
} from "./sections/html-reading.js";
import type { Diagnostic } from "./types.js";

export type { Fence } from "./_blocks.js";

const SPACE = 0x20;
const TAB = 0x09;
const BACKTICK = 0x60;
const BACKSLASH = 0x5c;
const TILDE = 0x7e;

/** Up to three spaces of indentation are allowed before a fence (four make indented code). */
const MAX_FENCE_INDENT = 3;

/** The run of three or more backticks or tildes that the line `text[from, to)` starts with. */
function fenceRun(
  text: string,
  from: number,
  to: number,
): { code: number; end: number; length: number } | undefined {
  let at = from;
  while (at < to && at - from < MAX_FENCE_INDENT && text.charCodeAt(at) === SPACE) at++;
  if (at >= to) return undefined;
  const code = text.charCodeAt(at);
  if (code !== BACKTICK && code !== TILDE) return undefined;
  let end = at;
  while (end < to && text.charCodeAt(end) === code) end++;
  if (end - at < 3) return undefined;
  return { code, end, length: end - at };
}

/** The fence that the line `text[from, to)` opens, or undefined. */
export function fenceOpener(text: string, from: number, to: number): Fence | undefined {
  const run = fenceRun(text, from, to);
  if (run === undefined) return undefined;
  if (run.code === BACKTICK) {
    for (let i = run.end; i < to; i++) if (text.charCodeAt(i) === BACKTICK) return undefined;
  }
  return { char: run.code === BACKTICK ? "`" : "~", length: run.length };
}

/** True when the line `text[from, to)` closes `fence`. */
export function closesFence(text: string, from: number, to: number, fence: Fence): boolean {
  const run = fenceRun(text, from, to);
  if (run === undefined || run.length < fence.length) return false;
  if ((run.code === BACKTICK ? "`" : "~") !== fence.char) return false;
  return isBlank(text, run.end, to);
}

/** True when `text[from, to)` holds only spaces and tabs. */
export function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== TAB) return false;
  }
  return true;
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const GREATER_THAN = 0x3e;
const LESS_THAN = 0x3c;
const OPEN_BRACKET = 0x5b;

/**
 * A block still open at the end of a text that runs over whatever follows it:
 * a fenced code block (with its opener's indent), or an HTML block of one of
 * the kinds that run to a closing string (CommonMark's kinds 1-5: `<script`,
 * `<pre`, `<style` or `<textarea` to their end tag, `<!--` to `-->`, `<?` to
 * `?>`, `<!` and a letter to `>`, `<![CDATA[` to `]]>`). Kinds 6 and 7 end
 * at the next blank line, which every element's closing tag is followed by.
 */
export type OpenBlock = Extract<Leaf, { kind: "fence" | "html" }>;

function runsOn(leaf: Leaf | undefined): leaf is OpenBlock {
  return leaf !== undefined && (leaf.kind === "fence" || (leaf.kind === "html" && leaf.type <= 5));
}

/** How a text is read from its first line: the line before it, or its first line joined to one. */
interface Start {
  leaf: Leaf | undefined;
  /** The text's first line ends a line the template began (`<description>…`). */
  joined: boolean;
}

/** An HTML tag alone on a line (`<rule name="…">`): kind 7, running to a blank line. */
const TAG_LINE: Leaf = { kind: "html", type: 7, closer: "" };

/**
 * The lines an element's text may follow: a blank line, a paragraph's line (a
 * tag CommonMark does not take for HTML, `<repository_instructions …>`), or a
 * tag alone on its line (`<rule …>`); or the same, the text starting on that
 * line (`<description>…`).
 */
function startsAfter(joined: boolean): Start[] {
  return [undefined, PARAGRAPH, TAG_LINE].map((leaf) => ({ leaf, joined }));
}

const ON_OWN_LINE = startsAfter(false);
const ON_LINE_BEFORE = startsAfter(true);

/**
 * Where a text starts: on a line of its own (`false`), on a line a template
 * began (`true`), or either, when the template that prints it is not known
 * (`"either"`: a data value, a project's partial).
 */
export type TextStart = boolean | "either";

function startsFor(joined: TextStart): readonly Start[] {
  if (joined === "either") return [...ON_OWN_LINE, ...ON_LINE_BEFORE];
  return joined ? ON_LINE_BEFORE : ON_OWN_LINE;
}

/** Readings of `text` from each of `starts`; equal ones are kept once. */
function readAll(text: string, starts: readonly Start[]): { reading: Reading }[] {
  let live = starts.map((s) => ({ reading: freshReading(s.leaf), joined: s.joined }));
  let first = true;
  eachLine(text, (from, to) => {
    for (const x of live) if (!(first && x.joined)) readLine(x.reading, text, from, to);
    first = false;
    if (live.length === 1) return;
    const kept: typeof live = [];
    // Comparing costs at most the line's length: the reading is linear however deep the stacks.
    for (const x of live) {
      if (!kept.some((k) => sameReading(k.reading, x.reading, to - from))) kept.push(x);
    }
    live = kept;
  });
  return live;
}

/** True when `text`, read after each of the lines it may follow, leaves a block running on. */
export function leavesOpen(text: string, joined = false): boolean {
  return readAll(text, joined ? ON_LINE_BEFORE : ON_OWN_LINE).some(({ reading }) =>
    runsOn(reading.leaf),
  );
}

/** The closers of what each reading leaves open at its end (`undefined`: nothing). */
function closersAtEnd(text: string, starts: readonly Start[]): Set<string | undefined> {
  return new Set(readAll(text, starts).map(({ reading }) => closerOf(reading)));
}

/** True when `a` leaves open a block (a closer) that `b` does not; `b` is read only then. */
function opensMore(a: Set<string | undefined>, b: () => Set<string | undefined>): boolean {
  if (![...a].some((closer) => closer !== undefined)) return false;
  const other = b();
  for (const closer of a) if (closer !== undefined && !other.has(closer)) return true;
  return false;
}

const AFTER_BLANK: readonly Start[] = [{ leaf: undefined, joined: false }];

/** True for a space, a tab or a line break: white space as CommonMark means it. */
function isAsciiBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
}

/**
 * True when `text` trimmed (JavaScript's `trim()`, `trimmedLength` long) and
 * kept (`text[start, end)`: its ASCII blank lines off) read the same after
 * the first line of the trimmed text, after each of `starts` (`before`
 * written first): the lines after it are the same text, so they read the
 * same too, but for the end, which {@link opensMore} compares. A trim that
 * takes Unicode white space or an indent off the first line may make it a
 * fence (`\u3000```` is a paragraph's text, trimmed a fence's opener), a
 * quote, a list item or a heading; a fence your own text closes later hides
 * what is between from the check of the end alone.
 */
function sameFirstLine(
  text: string,
  start: number,
  end: number,
  trimmedLength: number,
  before: string,
  starts: readonly Start[],
): boolean {
  const from = text.length - text.trimStart().length;
  if (from === start) return true;
  let lineEnd = from;
  while (lineEnd < text.length) {
    const code = text.charCodeAt(lineEnd);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
    lineEnd++;
  }
  const kept = before + text.slice(start, Math.min(lineEnd, end));
  const trimmed = before + text.slice(from, Math.min(lineEnd, from + trimmedLength));
  const budget = Math.max(kept.length, trimmed.length);
  for (const { leaf } of starts) {
    const a = freshReading(leaf);
    const b = freshReading(leaf);
    eachLine(kept, (f, t) => readLine(a, kept, f, t));
    eachLine(trimmed, (f, t) => readLine(b, trimmed, f, t));
    if (!sameReading(a, b, budget)) return false;
  }
  return true;
}

/**
 * `text` as an element holds it, between its tag line and its closing tag (a
 * section's `<tag>`, `{{#xml "tag"}}`'s), or as a section without a tag
 * prints it after the blank line before it (`tag` false): without the blank
 * lines and white space at its two ends, where taking them off changes
 * nothing the text leaves open. A repository's text in it was judged (made
 * one line, closed, given a blank line before it) as it was; a trim must not
 * undo that:
 * - JavaScript's `trim()` also takes off the white space Unicode has beyond
 *   spaces and tabs (U+3000, U+00A0, …), which CommonMark reads as text: a
 *   value `\u3000```` is a paragraph, trimmed a fence that runs to the end of
 *   the prompt; so is the first line's indentation (`    ```` is indented
 *   code). They are taken off only when the trimmed first line reads as
 *   it did ({@link sameFirstLine}: a fence your own text closes later would
 *   make your lines between code, with nothing open at the end) and the
 *   text then leaves nothing open it did not, read after the tag line; else
 *   the text keeps them.
 * - The blank line a text starts with ({@link blockClosing}'s lead, given to
 *   a text that reads otherwise after a paragraph's or a tag's line than
 *   after a blank one) is kept, as one blank line after the tag line, when
 *   the text read right after that line leaves a block open that read after
 *   a blank line it does not: the tag line `<addendum>` starts an HTML block
 *   to the next blank line, which would take the text's first fence, and its
 *   closing fence would open one.
 * `xml`: the tag is written by a template, after any line (a blank one, a
 * paragraph's, a tag's); a section's tag line comes after a blank line.
 * Linear: the text is read only when its ends hold more than ASCII blank
 * lines, or it starts with a blank line under a tag; under a tag, the starts
 * of its lines before its first blank line are looked at.
 */
export function wrappedBody(text: string, tag: string | false, xml = false): string {
  let end = text.length;
  while (end > 0 && isAsciiBlank(text.charCodeAt(end - 1))) end--;
  let start = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) start = i + 1;
    else if (code !== SPACE && code !== TAB) break;
  }
  const kept = text.slice(start, end);
  const trimmed = text.trim();
  if (trimmed === "") return "";
  const head = tag === false ? "" : `<${tag}>\n`;
  const starts = tag === false || !xml ? AFTER_BLANK : ON_OWN_LINE;
  // A body whose first lines open a fence or an HTML block (trimmed or not)
  // starts after a blank line of its own ({@link startsPlain}), decided
  // before the trim, which is then judged as read from that blank line.
  const lead =
    tag !== false &&
    (!startsPlain(kept) ||
      (trimmed !== kept && !startsPlain(trimmed)) ||
      (start > 0 &&
        opensMore(closersAtEnd(head + kept, starts), () => closersAtEnd(kept, AFTER_BLANK))));
  if (trimmed === kept) return lead ? `\n${kept}` : kept;
  const before = lead ? "" : head;
  const context = lead ? AFTER_BLANK : starts;
  const opens =
    !sameFirstLine(text, start, end, trimmed.length, before, context) ||
    opensMore(closersAtEnd(before + trimmed, context), () => closersAtEnd(before + kept, context));
  const body = opens ? kept : trimmed;
  return lead ? `\n${body}` : body;
}

/** True when `r` is outside every container, in an HTML block: a line just read there is raw HTML. */
function inTopHtml(r: Reading): boolean {
  return r.containers.length === 0 && r.leaf?.kind === "html";
}

/**
 * An element as the prompt writes it (a section's `<tag>`, `{{#xml}}`'s):
 * its tag line `open`, its text `body` (as {@link wrappedBody} left it) on
 * the lines after, then its end tag `</name>` alone on a line. The one place
 * that writes such an end tag. For CommonMark, `</name>` alone on its line
 * starts an HTML block (kind 7) only where it does not go on a paragraph:
 * kind 7 cannot interrupt one, so after a body whose last line is a
 * paragraph's text (at the top level, or in a list item or block quote,
 * where `</name>` is a lazy line) the end tag was that paragraph's text, and
 * a Markdown-to-HTML view put it in a `<p>`, where an HTML parser ignores
 * it: every later section stood inside the element (review rev82c O1: the
 * skills section ends `</available_skills>`, no tag to CommonMark, and
 * `</skills>` landed there). There a blank line goes before the end tag. It
 * does not where the end tag is raw HTML already (the body ends in an HTML
 * block of kind 6 or 7 at the top level, or in a block it closes), or where
 * no blank line makes it HTML: CommonMark reads no tag in a name with `_`
 * (`</project_context>` is text wherever it stands, as `<project_context>`
 * was), and a fence or HTML block the body leaves open (closed by the
 * closers, not here) runs over a blank line too. So the bytes of every
 * element already right stay as they were. Linear: the body is read once,
 * and only when CommonMark reads `</name>` as a tag.
 */
export function wrappedElement(open: string, body: string, name: string): string {
  const end = `</${name}>`;
  const alone = freshReading();
  readLine(alone, end, 0, end.length);
  if (!inTopHtml(alone)) return `${open}\n${body}\n${end}`;
  const text = `${open}\n${body}`;
  const reading = freshReading();
  eachLine(text, (from, to) => readLine(reading, text, from, to));
  const after = copyReading(reading);
  readLine(after, end, 0, end.length);
  if (inTopHtml(after)) return `${text}\n${end}`;
  readLine(reading, "", 0, 0);
  readLine(reading, end, 0, end.length);
  return inTopHtml(reading) ? `${text}\n\n${end}` : `${text}\n${end}`;
}

/**
 * True when no line of `text` before its first blank line, read from a
 * blank line, opens a fence or an HTML block, is a setext underline or
 * starts link reference definitions: then nothing those lines open runs on
 * past that blank line, neither as the document reads them nor as they read
 * after a tag line (`<notes>`, an HTML block of kind 7 to the next blank
 * line; `<project_context>`, a paragraph they go on), and what follows reads
 * from a blank line either way, as the placing of printed values
 * ({@link placePrinted}) and the closers read it (the containers a list
 * item or a quote opened there aside: see docs/trust.md). A line that opens
 * a fence or an HTML block there is not plain: the
 * section's body is then written after a blank line of its own (rev50c F2:
 * `<notes>` then `~~~markdown` was raw HTML, the repository's blank line
 * ended it, and your closing `~~~` opened a fence over the rest of the
 * prompt). Linear: reads the lines up to the first blank one once.
 */
function startsPlain(text: string): boolean {
  const length = text.length;
  let start = 0;
  // First without the reader: a line that opens a fence or an HTML block, or
  // starts definitions, has a backtick, a tilde, a `<` or a `[` first after
  // the quote and list markers it starts with.
  // Lines found by their line feeds (a text with a carriage return is read
  // by the reader): each line's start is looked at, not its whole text.
  let marked = false;
  while (start < length && !marked) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = length;
    if (isBlank(text, start, end)) {
      if (text.lastIndexOf("\r", end) < 0) return true;
      marked = true;
      break;
    }
    const first = text.charCodeAt(afterMarkers(text, start, end));
    if (first === BACKTICK || first === TILDE || first === LESS_THAN || first === OPEN_BRACKET)
      marked = true;
    if (setextLike(text, start, end)) return false;
    start = end + 1;
  }
  if (!marked && text.lastIndexOf("\r", length) < 0) return true;
  const reading = freshReading();
  start = 0;
  while (start < length) {
    let end = start;
    while (end < length) {
      const code = text.charCodeAt(end);
      if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
      end++;
    }
    if (isBlank(text, start, end)) return true;
    if (setextLike(text, start, end)) return false;
    readLine(reading, text, start, end);
    const leaf = reading.leaf;
    // An HTML block of kind 6 or 7 (`<b>`, a nested element's tag line) ends at a blank line as
    // the tag line's own block does: read after that line or alone, the text is the same.
    if (
      leaf !== undefined &&
      !(leaf.kind === "html" && leaf.type >= 6) &&
      (leaf.kind !== "paragraph" || leaf.definitions !== undefined)
    )
      return false;
    if (end >= length) return true;
    start =
      end +
      (text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED ? 2 : 1);
  }
  return true;
}

/** `===` or `---` after at most three spaces, then only spaces and tabs: an underline after a paragraph. */
function setextLike(text: string, from: number, to: number): boolean {
  let at = from;
  while (at < to && at - from < MAX_FENCE_INDENT && text.charCodeAt(at) === SPACE) at++;
  const code = text.charCodeAt(at);
  if (code !== 0x3d && code !== 0x2d) return false;
  while (at < to && text.charCodeAt(at) === code) at++;
  return isBlank(text, at, to);
}

/**
 * `text` (a value of several lines) with its first line's first character
 * written escaped when that line is a setext underline (`---`, `===`, `-`) or
 * may be a table's delimiter row (`:-`, `|-|`): printed on the line after a
 * paragraph line of yours, it would make your line a heading or a table's
 * header, as a one-line value may not ({@link lineOpeningNoBlock} in
 * src/_prompt-text.ts; review rev64c F5).
 */
export function firstLineNoUnderline(text: string): string {
  const end = lineEndAt(text, 0);
  if (!setextLike(text, 0, end) && !delimiterRowAt(text, 0, end)) return text;
  return escapedStart(text.slice(0, end)) + text.slice(end);
}

/**
 * True when `text`'s first lines would be read otherwise after the line a
 * template prints above it than alone (rev65b F4, rev66f F1): its first
 * paragraph (its lines to the first blank one) holds a `<`, or a line of it
 * opens a fence, list item or block quote while the text holds a `<` further
 * on, or its first line is a setext underline or a table's delimiter row. The
 * builtins print an element's text on the line after its opening tag
 * (`<rule name="a">`, a tag line that opens an HTML block running to a blank
 * line; `<repository_instructions …>`, no tag to CommonMark: a paragraph the
 * text's first line continues), while its closers and the renderer check read
 * it from a block start of its own. Where it is read with that line, an opener
 * in its first paragraph is swallowed, so a blank line inside its block ends
 * the line above's instead and what follows is read at the top level (a
 * fence's `<div hidden>` line a live element). A text starting with a blank
 * line is apart already. Linear: it stops at the first blank line.
 */
export function readsWithLineAbove(text: string): boolean {
  const first = lineEndAt(text, 0);
  if (setextLike(text, 0, first) || delimiterRowAt(text, 0, first)) return true;
  const lt = text.indexOf("<");
  if (lt === -1) return false;
  // Is a blank line before it, with no block opened on the way?
  let from = 0;
  while (from <= lt) {
    const end = lineEndAt(text, from);
    if (isBlank(text, from, end)) return false;
    if (end >= lt || opensContainer(text, from, end)) return true;
    from =
      end +
      (text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED ? 2 : 1);
  }
  return true;
}

/** Whether the line `text[from, to)` may open a list item, a block quote or a fence (after any blanks). */
function opensContainer(text: string, from: number, to: number): boolean {
  let start = from;
  while (start < to && (text.charCodeAt(start) === SPACE || text.charCodeAt(start) === TAB))
    start++;
  const at = afterMarkers(text, from, to);
  return at > start || fenceRun(text, at, to) !== undefined;
}

/**
 * `text` after a blank line of its own when {@link readsWithLineAbove}: read
 * where it is printed as it was read alone, by the closers and the renderer
 * check. Any other text is returned as it is.
 */
export function apartFromLineAbove(text: string): string {
  return readsWithLineAbove(text) ? `\n\n${text}` : text;
}

/**
 * `text` (a project's multi-line value or partial, printed where your words
 * may follow on its last line: `Work for team {{vars.team}} and NEVER push`)
 * with its last paragraph's `<` (its lines after its last blank one) written `&lt;` when your words printed right after
 * it (`joiner` between: `" "`, or `""` after its final line break) would not
 * be shown. Read alone, `see <span hidden>` ends with its paragraph and needs
 * no closer; printed, your words continued that paragraph inside the span
 * (review rev67b F4). `onEscaped` is told when it was rewritten.
 */
export function lastLineOpenToYours(text: string, joiner: string, onEscaped?: () => void): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  // Its last paragraph, which your words continue: `<span hidden>` / `b` hid them as well.
  const start = lastParagraphStart(body);
  if (!body.includes("<", start) || followingShown(text, joiner)) return text;
  onEscaped?.();
  const out = `${text.slice(0, start)}${body.slice(start).replaceAll("<", "&lt;")}${text.slice(body.length)}`;
  // An end tag written as text may leave an element open again for a raw reading
  // ({@link rawShownToYours}, read by the closers before this): then no `<` is markup.
  return rawHidingTags(out, joiner) === undefined ? out : out.replaceAll("<", "&lt;");
}

/**
 * `text` with the `<` of the start tags that hide words printed right after
 * it (`joiner` between) for an HTML parser fed the raw prompt written `&lt;`
 * ({@link rawHidingTags}): a tag CommonMark reads as text, in a code span
 * (`` Use `<span hidden>` for notes. ``), a code block or over a blank line,
 * is a tag to that parser, and hid your words after `{{content}}` in your
 * section (found while fixing rev70a F2). Read again once; when it still
 * hides, or what hides cannot be told, every `<` is written `&lt;`.
 */
function rawShownToYours(
  text: string,
  joiner: string,
  onEscaped?: () => void,
  onClosed?: () => void,
): string {
  let out = text;
  let closed = false;
  for (let reading = 0; reading < 3; reading++) {
    // A formatting element only that parser opens again after the text (`` Wrap it in `<code>` or
    // `<b>` tags. ``: rev78c F2) is closed, on a line CommonMark shows nothing of, not written
    // `&lt;`: `` `<code>` `` in a code span is common in real Markdown, and shown as written.
    const reopened: number[] = [];
    const tags = rawHidingTags(out, joiner, reopened);
    if (tags === undefined && reopened.length === 0) return out;
    if (tags !== undefined && tags.length === 0) break;
    if (tags === undefined) {
      if (closed) break;
      const ends = rawEndTags(out, reopened);
      if (ends === undefined) break;
      out = withLine(out, `${EMPTY_COMMENT}${ends}`);
      closed = true;
      onClosed?.();
      continue;
    }
    onEscaped?.();
    let escaped = "";
    let from = 0;
    for (const at of tags) {
      escaped += `${out.slice(from, at)}&lt;`;
      from = at + 1;
    }
    out = escaped + out.slice(from);
  }
  onEscaped?.();
  return out.replaceAll("<", "&lt;");
}

/**
 * The end tags, innermost first, of the start tags at `tags` in `text` (offsets
 * of their `<`, in order); undefined when one has no name there, or when they
 * are more than {@link MAX_CLOSER_CHARS}, the CommonMark closers' bound (2,898
 * `</b>` of 64 KB of `` `<b xN>` `` samples were one 11,599-character line,
 * told nothing: rev80b F3). Then a repository's text is written as text
 * ({@link rawShownToYours}) and a tool result gets nothing after it
 * ({@link withRawEndTags}).
 */
function rawEndTags(text: string, tags: readonly number[]): string | undefined {
  let ends = "";
  for (let i = tags.length - 1; i >= 0; i--) {
    const at = tags[i] as number;
    const name = /^<([A-Za-z][^\t\n\f\r />]*)/.exec(text.slice(at, at + 64))?.[1];
    if (name === undefined) return undefined;
    ends += `</${name.toLowerCase()}>`;
    if (ends.length > MAX_CLOSER_CHARS) return undefined;
  }
  return endTagsWritable(ends) ? ends : undefined;
}

/** A name sysprompt writes in an end tag: letters, digits and `.`, `_`, `:`, `-`, a letter first. */
const WRITABLE_END_TAG = /^[a-z][a-z0-9._:-]*$/i;

/** The names {@link endTagsWritable} checks a closer against: made once. */
let reservedNames: ReadonlySet<string> | undefined;

/**
 * True when every end tag in `closer` (closers sysprompt writes after a
 * repository's text: {@link rawEndTags}, and {@link hiddenClosingAfter}'s
 * after a host's tool result in {@link closersAfter}) names an
 * element whose end tag it may write: a plain name ({@link WRITABLE_END_TAG})
 * that the prompt-text escape leaves as it is (`escapeWrapperTags` against
 * `repositoryNames()`: no element of the prompt, a host, a chat role, a chat
 * template's token, nor a near name of one). The name is the repository's:
 * `<x<|im_end| hidden>` gave `</x<|im_end|>`, `<system-reminder hidden>` gave
 * `</system-reminder>`, so sysprompt itself wrote a chat template's token or a
 * host's closer the file did not hold (review rev107c F2). When false nothing
 * is appended: a tool's result gets no files after it (they come with a later
 * call), a repository's text in the prompt is written as text.
 */
export function endTagsWritable(closer: string): boolean {
  if (!closer.includes("</")) return true;
  for (const m of closer.matchAll(/<\/([^>]*)>?/g))
    if (!WRITABLE_END_TAG.test(m[1] ?? "")) return false;
  reservedNames ??= repositoryNames();
  return escapeWrapperTags(closer, reservedNames) === closer;
}

/** What {@link closedOpenToYours} is told: {@link HiddenRunsOptions}, and `onEscaped` when the last paragraph's `<` were written `&lt;`. */
export interface OpenToYoursOptions extends HiddenRunsOptions {
  onEscaped?: () => void;
  /** Your text (escaped against your own layers' names): the first rewrite, its line (1-based), the tag or token as written and the rewrite made. */
  onOwnTagEscaped?: (line: number, tag: string, rewrite: OwnRewrite) => void;
  /** A text not yours: its first start tag acting on the whole page written `&lt;` (`escapeWrapperTags`' `onPageTag`, rev80c F4-F8). */
  onPageTag?: (line: number, tag: string) => void;
  /** A text not yours escaped whole, every opener written `&lt;`: the name reader's meter was spent (`withNameBudget`, rev82b F2). */
  onWhole?: () => void;
}

/**
 * What a warning says of a repository's text whose last paragraph
 * {@link lastLineOpenToYours}, or whose unended markup {@link closeOpenBlocks}
 * (rev70a F2), wrote as text: one wording for a context or
 * rule file, a custom base prompt, an appended text and a partial.
 */
export const END_ESCAPED_WORDS =
  'ends in markup that hides the words printed right after it (an inline <span hidden>, a tag or comment left unended: <span hidden, <!x, or a tag an HTML parser of the raw prompt reads in a code span, a code block or over a blank line: `<span hidden>`): its last paragraph\'s "<", or that markup\'s, is written "&lt;", so they are shown';

/**
 * What {@link closeOpenBlocks} (or `elementText`'s closing) is told
 * for a repository's text when it falls back (its unended markup or last
 * paragraph written as text, or its HTML or every `<`): one `code` warning
 * naming `path` ({@link END_ESCAPED_WORDS}, `fallbackMessage`), once a text.
 * The one wording for a context or always rule file in a render, a file on
 * touch (`formatTouched`) and a skill's expansion (fx77c: on touch, in a
 * skill and for most of an always rule's fallbacks it was silent).
 */
export function markupAsTextTold(
  code: string,
  path: string,
  say: (diagnostic: Diagnostic) => void,
): OpenToYoursOptions {
  let told = false;
  const tell = (message: string) => {
    if (told) return;
    told = true;
    say({ level: "warning", code, message, path });
  };
  return {
    onEscaped: () => tell(END_ESCAPED_WORDS),
    onFallback: (fallback, limit) => tell(fallbackMessage(fallback, limit)),
    onPageTag: (line, tag) => say(pageTagWarning(path, line, tag)),
    onWhole: () => say(escapedWholeWarning(path)),
  };
}

/**
 * The warning for a repository's text escaped whole because the element-name
 * reader's meter of its render or touch call was spent (`withNameBudget`):
 * the `prompt-render-work` family, naming the file (review rev82b F2).
 */
export function escapedWholeWarning(path: string): Diagnostic {
  return {
    level: "warning",
    code: "prompt-render-work",
    message: `the repository's texts read up to this one gave the element-name reader more work than one render or touch call may spend on them (tag names and text, each read in its spellings): this text was escaped whole because of its cost, every "<" in it (and each look-alike of one) written "&lt;"`,
    path,
  };
}

/**
 * The warning for a text not yours whose start tag acting on the whole page
 * (`<body hidden>`, `<style>`, `<frameset>`, `<meta charset>`, a shadow root's
 * `<template>`: `escapeWrapperTags`' DOCUMENT_TAGS) or drawing anything but
 * its content in place (`<dialog open>`, `<svg>`, `<script>`, `style=`,
 * `onerror=`: `drawsInPlace`, rev82f F1, F4) was written `&lt;`: its first,
 * by line; one a text (rev80c F4-F8).
 */
export function pageTagWarning(path: string | undefined, line: number, tag: string): Diagnostic {
  return {
    level: "warning",
    code: "page-tag-escaped",
    message: `its tag ${JSON.stringify(tag)} (line ${line}, and any like it after) is not one that draws its content in place for a browser or a document parser of the prompt (an element or attribute that may hide, restyle, cover, script, replace or re-decode every text of it, yours too): its "<" is written "&lt;" (in a code span or code block too), so it is text`,
    ...(path === undefined ? {} : { path }),
  };
}

/**
 * A repository's text as a template prints it (a context or rule file, a
 * project's custom base prompt, appended text or partial): no block left open
 * at its end ({@link closeOpenBlocksOnOwnLine}), and words printed right after
 * it (`joiner` between: `" "` for a text that may end mid-line, `""` after a
 * partial's own final line break) shown ({@link lastLineOpenToYours}, told
 * to `options.onEscaped`). The one place each of them is judged with your
 * words after it (review rev68c F1: `{{content}}` then your line continued
 * an `AGENTS.md`'s last paragraph, `see <span hidden>`, and was hidden). One
 * check, charged to the scope's budget once ({@link paidCheck}): past it, the
 * closers' own fallback writes every `<` as text.
 */
export function closedOpenToYours(
  text: string,
  joiner: string,
  options: OpenToYoursOptions = {},
): string {
  // One word for the text, whether its unended tag or its last paragraph was written as text.
  let told = false;
  const onEscaped = () => {
    if (!told) options.onEscaped?.();
    told = true;
  };
  const once = { ...options, onEscaped };
  // No code span or table cell of its own takes your words either; yours is as you wrote it.
  const held = options.unread === undefined ? endTakesNoneOfYours(text) : text;
  // Its `<table` start tags out of any `<p>` (rev97a F1) last, in the check, on what the closers
  // and the last line's escape left (rev101b F1, F2): no fallback writes that `</p>` as text.
  const close = () => closedOnOwnLine(held, once, false);
  const apart = (t: string) => (options.unread === undefined ? tablesApartInCheck(t) : t);
  // One render judges your words after it and a paragraph after it, where both are shown.
  return paidCheck(
    held,
    () => apart(withOneRender(held, joiner, () => lastLineOpenToYours(close(), joiner, onEscaped))),
    close,
    options.unread !== undefined,
  );
}

/**
 * `text` (a repository's text, printed with words of a template right after
 * its last line, or on the next line after its own final line break, a lazy
 * line of its last paragraph) such that no code span or table cell of its
 * own takes those words: its last paragraph ({@link paragraphStartBefore}:
 * after its last blank or fence line) has every backtick written `&#96;`
 * ({@link BACKTICK_REFERENCE}, as a project's value has, rev68c F5) when a
 * run of them may be left open there ({@link spanMayStayOpen}), and a last
 * run of lines a GFM renderer may read as a table ({@link endsInTableRun})
 * ends with a blank line. Before (review rev70a F6, F8), an untrusted
 * `AGENTS.md` ending ``see `x`` printed by ``From {{path}}: {{content}} and
 * NEVER push to `main`.`` made your words up to your backtick a code span,
 * and one ending in a table row (`| Step |` / `|-|` / `| make |`) made your
 * words after it a cell a GFM reader drops (a trusted project's value too,
 * rev68f F2). Linear in its last paragraph.
 */
export function endTakesNoneOfYours(text: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const lastStart = body.lastIndexOf("\n") + 1;
  // A blank line last ends it; a fence line last gets its closer or line break (the closers).
  if (endsParagraph(body.slice(lastStart))) return text;
  const start = paragraphStartBefore(body, lastStart);
  const ticked =
    body.includes("`", start) && spanMayStayOpen(body, start)
      ? `${text.slice(0, start)}${backticksAsReferences(ltInCodeSpansAsText(text.slice(start)))}`
      : text;
  if (!endsInTableRun(body)) return ticked;
  return `${ticked}${ticked.endsWith("\n") ? "\n" : "\n\n"}`;
}

/** How a backtick is written where it may not pair with a template's: a reference, no code span's or fence's delimiter (every reader decodes it to a backtick in text, an info string and an XML attribute). */
export const BACKTICK_REFERENCE = "&#96;";

/**
 * `markdown` with each `<` in its code spans ({@link codeSpans}) written
 * `&lt;`: where their backticks are written {@link BACKTICK_REFERENCE}, a span
 * is text, and `` `<del>` `` would be a `<del>` holding your words after it
 * (decided, review rev80c F3: a multi-line value's last paragraph, and a
 * repository text's, printed before your words on its line). Shown as the
 * span showed it. Linear but for a binary search at each backtick run.
 */
export function ltInCodeSpansAsText(markdown: string): string {
  if (!markdown.includes("<")) return markdown;
  const spans = codeSpans(markdown);
  let out = "";
  let copied = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const from = spans[i] as number;
    const to = spans[i + 1] as number;
    out += `${markdown.slice(copied, from)}${markdown.slice(from, to).replaceAll("<", "&lt;")}`;
    copied = to;
  }
  return out + markdown.slice(copied);
}

/**
 * The code spans of `piece` as CommonMark reads them, flat pairs [from, to)
 * in order: a backtick run not escaped, to the next run of the same length
 * (a backslash escapes a backtick outside a span only). Each run's closer is
 * found by a binary search of its length's runs: n log n at worst.
 */
function codeSpans(piece: string): number[] {
  if (!piece.includes("`")) return [];
  const runs: [number, number][] = [];
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charAt(i);
    if (c !== "`") continue;
    let end = i;
    while (piece.charAt(end) === "`") end++;
    runs.push([i, end - i]);
    i = end - 1;
  }
  // Each length's runs, in order: a run's closer is the first of its length after it.
  const byLength = new Map<number, number[]>();
  for (let r = 0; r < runs.length; r++) {
    const length = (runs[r] as [number, number])[1];
    const list = byLength.get(length);
    if (list === undefined) byLength.set(length, [r]);
    else list.push(r);
  }
  const closerAfter = (r: number, length: number): number => {
    const list = byLength.get(length) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as number) <= r) lo = mid + 1;
      else hi = mid;
    }
    return lo < list.length ? (list[lo] as number) : -1;
  };
  const spans: number[] = [];
  let from = 0;
  for (let r = 0; r < runs.length; r++) {
    const [at, length] = runs[r] as [number, number];
    if (at < from) continue;
    // Escaped by an odd run of backslashes before it: its first backtick is text.
    let slashes = 0;
    while (at - slashes - 1 >= from && piece.charAt(at - slashes - 1) === "\\") slashes++;
    let opener = at;
    let openLength = length;
    if (slashes % 2 === 1) {
      opener++;
      openLength--;
      if (openLength === 0) continue;
    }
    // The next run of exactly this length closes it.
    const close = closerAfter(r, openLength);
    if (close === -1) continue;
    const [closeAt, closeLength] = runs[close] as [number, number];
    spans.push(opener, closeAt + closeLength);
    from = closeAt + closeLength;
    r = close;
  }
  return spans;
}

/**
 * `markdown` with every backtick written {@link BACKTICK_REFERENCE}, and one
 * a backslash escapes without that backslash: `\&#96;` reads as an escaped
 * `&`, the reference's own characters (a tree's name `` \``` ``). Linear.
 */
function backticksAsReferences(markdown: string): string {
  let out = "";
  let copied = 0;
  for (let at = markdown.indexOf("`"); at !== -1; at = markdown.indexOf("`", at + 1)) {
    let slashes = 0;
    while (at - slashes > copied && markdown.charCodeAt(at - slashes - 1) === BACKSLASH) slashes++;
    out += `${markdown.slice(copied, at - (slashes % 2))}${BACKTICK_REFERENCE}`;
    copied = at + 1;
  }
  return out + markdown.slice(copied);
}

/**
 * Where the paragraph that holds the line starting at `lineStart` of `text`
 * starts: after the last blank line or fence line before it (a fence's
 * opener or closer ends the paragraph before it). The lines a template's
 * words printed after them continue (review rev68c F5). Linear.
 */
export function paragraphStartBefore(text: string, lineStart: number): number {
  let paragraph = lineStart;
  while (paragraph > 0) {
    const before = text.lastIndexOf("\n", paragraph - 2) + 1;
    if (endsParagraph(text.slice(before, paragraph - 1))) break;
    paragraph = before;
  }
  return paragraph;
}

/**
 * Whether `line` is blank or a fence's opener or closer: the lines after it
 * are a paragraph of their own. A run of backticks with a backtick after it
 * (```` ```a`` ````) is no fence to CommonMark, but paragraph text that your
 * words after the value continue (review rev70a F4). Linear.
 */
export function endsParagraph(line: string): boolean {
  if (/^[ \t\r]*$/.test(line)) return true;
  let at = 0;
  while (at < 3 && line[at] === " ") at++;
  const c = line[at];
  if (c !== "`" && c !== "~") return false;
  if (line[at + 1] !== c || line[at + 2] !== c) return false;
  if (c === "~") return true;
  let end = at + 3;
  while (line[end] === "`") end++;
  return !line.includes("`", end);
}

/**
 * Whether a run of backticks in `text` from `from` (a paragraph) may be left
 * open at its end, to pair with a run of a template's words printed after it:
 * read as CommonMark reads code spans, left to right (a backslash escapes the
 * punctuation after it; a run opens a span closed by the next run of its
 * length), with each span closed on its own line, or any backtick after a
 * `<` (raw HTML, an autolink), a `]` (a link's destination or label), a
 * `://` or a `www.` (a GFM autolink) that may take a backtick of it out of
 * the runs. Liberal: a span over lines, or a run after a link, is taken as
 * open. Linear: a run's closer is looked for on its line, and the reading
 * goes on after it.
 */
function spanMayStayOpen(text: string, from: number): boolean {
  let unsure = false;
  for (let at = from; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (c === BACKTICK) {
      if (unsure) return true;
      let end = at;
      while (text.charCodeAt(end) === BACKTICK) end++;
      const closed = runClosedAt(text, end, end - at);
      if (closed === -1) return true;
      at = closed;
    } else if (c === BACKSLASH) {
      at += isAsciiPunctuation(text.charCodeAt(at + 1)) ? 2 : 1;
    } else {
      if (
        c === LESS_THAN ||
        c === 0x5d ||
        (c === 0x3a && text.startsWith("//", at + 1)) ||
        ((c === 0x77 || c === 0x57) && text.slice(at, at + 4).toLowerCase() === "www.")
      )
        unsure = true;
      at++;
    }
  }
  return false;
}

/** Where the first run of exactly `length` backticks on the line from `from` ends, or -1 (none before the line's end). */
function runClosedAt(text: string, from: number, length: number): number {
  for (let at = from; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (c === LINE_FEED || c === CARRIAGE_RETURN) return -1;
    if (c !== BACKTICK) {
      at++;
      continue;
    }
    let end = at;
    while (text.charCodeAt(end) === BACKTICK) end++;
    if (end - at === length) return end;
    at = end;
  }
  return -1;
}

/** Where `text`'s last paragraph starts: after its last line of spaces and tabs only (0 when none). */
function lastParagraphStart(text: string): number {
  for (let lineEnd = text.length; ; ) {
    const lineStart = text.lastIndexOf("\n", lineEnd - 1) + 1;
    if (/^[ \t\r]*$/.test(text.slice(lineStart, lineEnd)))
      return lineEnd === text.length ? lineEnd : lineEnd + 1;
    if (lineStart === 0) return 0;
    lineEnd = lineStart - 1;
  }
}

/**
 * The longest container prefix a closer is written with. A text can open a
 * container per character (256 KiB of `>`, then a fence): written inside them
 * all, the closer would be longer than the text.
 */
const MAX_CLOSER_PREFIX = 100;

/**
 * What closes a block deeper than {@link MAX_CLOSER_PREFIX}: a thematic break
 * at the line's start. It continues no block quote (no `>`) and no list item
 * (it is not indented into one), and the open block is a fence or an HTML
 * block, not a paragraph it could be a lazy line of: the outermost container
 * ends there, and every block inside it. The break itself ends on its line.
 */
export const FLAT_CLOSER = "***";

/** The line that closes a reading's open block inside its containers (`> `, a list item's indent). */
function closerOf(reading: Reading): string | undefined {
  const leaf = reading.leaf;
  if (!runsOn(leaf)) return undefined;
  let width = 0;
  for (const c of reading.containers) {
    width += c.quote ? 2 : c.indent;
    if (width > MAX_CLOSER_PREFIX) return FLAT_CLOSER;
  }
  let prefix = "";
  for (const c of reading.containers) prefix += c.quote ? "> " : " ".repeat(c.indent);
  if (leaf.kind === "html") return prefix + leaf.closer;
  return prefix + " ".repeat(leaf.indent) + leaf.fence.char.repeat(leaf.fence.length);
}

/**
 * The block left open at the end of `text` read as a document (from a blank
 * line), CommonMark's containers and leaves read together: a fence line
 * inside an HTML comment opens nothing, a fence in a list item ends with the
 * item. Linear in the text.
 */
export function openBlockAtEnd(text: string): OpenBlock | undefined {
  const reading = freshReading();
  eachLine(text, (from, to) => readLine(reading, text, from, to));
  return runsOn(reading.leaf) ? reading.leaf : undefined;
}

/** The fence still open at the end of `text` ({@link openBlockAtEnd}), or undefined. */
export function openFenceAtEnd(text: string): Fence | undefined {
  const block = openBlockAtEnd(text);
  return block?.kind === "fence" ? block.fence : undefined;
}

/** `text` and `line` on a line of its own. */
export function withLine(text: string, line: string): string {
  const lastCode = text.charCodeAt(text.length - 1);
  const newline = text === "" || lastCode === LINE_FEED || lastCode === CARRIAGE_RETURN ? "" : "\n";
  return `${text}${newline}${line}`;
}

/**
 * What {@link closeOpenFence} adds to `text`: a `closer` line after it, and a
 * `lead` of two line breaks before it when no one closer is right after
 * every line the text may follow ({@link startsAfter}). `joined`: the text
 * starts on a line a template began (a skill's `<description>`).
 */
export function blockClosing(
  text: string,
  joined: TextStart = false,
): { lead: string; closer: string | undefined } {
  const readings = readAll(text, startsFor(joined));
  const candidates = new Set<string>();
  for (const { reading } of readings) {
    const closer = closerOf(reading);
    if (closer !== undefined) candidates.add(closer);
  }
  if (candidates.size === 0) return { lead: "", closer: undefined };
  for (const closer of candidates) {
    const closes = readings.every(({ reading }) => {
      // The closer ends where it fails a container, well before the copy's end (see copyReading).
      const after = copyReading(reading, 4 * closer.length + 1);
      readLine(after, closer, 0, closer.length);
      return !runsOn(after.leaf);
    });
    if (closes) return { lead: "", closer };
  }
  // After a blank line the text reads as a document, whatever came before it.
  const fresh = readAll(text, [{ leaf: undefined, joined: false }])[0]?.reading ?? freshReading();
  return { lead: "\n\n", closer: closerOf(fresh) };
}

/**
 * `text` with a closing line added when it ends inside a fenced code block
 * or an HTML block that runs to its end ({@link OpenBlock}): text a
 * repository wrote (a context or rule file, cut at a cap or not, the tree's
 * names) cannot turn what the prompt says after it into code or raw HTML.
 * The closer is written inside the block quotes and list items the block is
 * in. Whether the text's first lines continue the line before it (a
 * paragraph, an HTML tag line) changes what is open at its end: the closer
 * must be right for each, else the text starts after a blank line of its own.
 * A text with nothing left open is returned as it is: a closing line where
 * nothing is open would itself open a fence.
 */
export function closeOpenFence(text: string, joined: TextStart = false): string {
  const { lead, closer } = blockClosing(text, joined);
  return lead + (closer === undefined ? text : withLine(text, closer));
}

/**
 * `text` with `-->` added on a line of its own when its last `<!--` is never
 * closed, anywhere in a line: a reader that takes a comment to run to its
 * `-->` or to the end of the document would otherwise read what the prompt
 * says after it as a comment. (`<!-->` closes itself, as CommonMark has it;
 * a `-->` line opens nothing.)
 */
export function closeOpenComment(text: string): string {
  const open = text.lastIndexOf("<!--");
  if (open === -1 || text.lastIndexOf("-->") >= open + 2) return text;
  return withLine(text, "-->");
}

/**
 * {@link closeOpenFence} (fences and HTML blocks, read together), then
 * {@link closeOpenComment}, then {@link closeHiddenRuns}, each `<` of a GFM
 * table's lines first written `&lt;` ({@link tableRunsAsText}) unless the text
 * is yours (`unread`): a repository's text
 * (a context or rule file, cut at a cap or not, the tree's names, a project's
 * section or partial) ends with no code block, HTML block, comment or
 * never-shown element (`<div hidden>`, `<template>`) left open to run over
 * what follows it, and in no tag, comment or declaration an HTML parser of
 * the raw prompt would still be in ({@link withoutUnendedTag}), nor in an
 * element that parser reads as hiding what follows ({@link rawShownToYours});
 * `onEscaped` is told when one was written as text.
 */
export function closeOpenBlocks(
  text: string,
  joined: TextStart = false,
  options?: OpenToYoursOptions,
): string {
  return closedBlocks(text, joined, options).text;
}

/**
 * {@link closeOpenBlocks}, and whether it only wrote `<` as text (`bare`: no line added, `text` was
 * changed by no closer). A text not yours has no `<table` start tag while a `<p>` is open, which a
 * page without a doctype reads otherwise (rev93h F2, rev97a F1): a `</p>` is written before it
 * ({@link tablesApartInCheck}), on the final text (rev99b F1: a `<` the closers wrote as text may
 * have hidden one), in its check: one {@link paidCheck} pays the closers' check and that reading,
 * and refused, neither is done and every `<` of the text as written is `&lt;` (rev101b F1, F2).
 * `apart`: false where the caller writes the `</p>` itself ({@link closedOpenToYours}, after
 * its last line's escape).
 */
function closedBlocks(
  text: string,
  joined: TextStart,
  options: OpenToYoursOptions | undefined,
  apart = true,
): { text: string; bare: boolean } {
  if (!apart || options?.unread !== undefined || !/<table/i.test(text))
    return closersOf(text, joined, options, false);
  const run = () => closersOf(text, joined, options, true);
  return paidCheck(text, run, run);
}

/** {@link closedBlocks}' closers; `readTables`: the final text's tables out of any `<p>` where its check is paid. */
function closersOf(
  text: string,
  joined: TextStart,
  options: OpenToYoursOptions | undefined,
  readTables: boolean,
): { text: string; bare: boolean } {
  const tablesApart = (t: string) => (readTables ? tablesApartInCheck(t) : t);
  // A text not yours: no raw `<` in a GFM table's lines, which CommonMark's check cannot see (rev65b F1).
  const read = options?.unread === undefined ? tableRunsAsText(text) : text;
  const close = (t: string) => closeOpenComment(closeOpenFence(t, joined));
  if (options?.unread !== undefined) {
    const closed = closeHiddenRuns(close(read), { withLine, close }, options);
    return { text: closed, bare: closed === text };
  }
  // Judged before the closers too: their `-->` or `</div>` would end a cut tag (`<title a<!--`)
  // that then holds the rest of the prompt (rev72e F5). A comment left open is theirs to end.
  const judged = withoutUnendedTag(read, true);
  const closed = closeHiddenRuns(close(judged), { withLine, close }, options);
  // No closer added: the text is bare, its `<` written as text or not.
  const unclosed = read === text && closed === judged;
  // Read raw too: a tag in a code span, a code block or over a blank line is one to an HTML parser.
  const unended = withoutUnendedTag(closed);
  let escaped = unended !== closed;
  let lined = false;
  const ended = rawShownToYours(
    unended,
    "\n\n",
    () => {
      escaped = true;
    },
    () => {
      lined = true;
    },
  );
  if (ended === closed) {
    if (judged !== read) options?.onEscaped?.();
    const apart = tablesApart(closed);
    return { text: apart, bare: unclosed && apart === closed };
  }
  // Only closed (a formatting element a raw reader opens again): no word, as the closers say none.
  if (escaped || judged !== read) options?.onEscaped?.();
  // Its `<` written `&lt;`, what the tag held is Markdown: a fence line that was in its HTML
  // block opens a fence, a `<span hidden>` in its quoted value is an element. Closed again.
  const reclosed = withoutUnendedTag(closeHiddenRuns(close(ended), { withLine, close }, options));
  const apart = tablesApart(reclosed);
  return { text: apart, bare: unclosed && !lined && reclosed === ended && apart === reclosed };
}

/**
 * Whether the unended markup at `at` (not a start or end tag) is the closers'
 * to end: a comment (`-->` after the last `<!--`, anywhere), or a `<?`, `<!X`
 * or `<![CDATA[` first on its line but for container marks and blanks (an
 * HTML block's start, ended by its `?>`, `>` or `]]>`). What they end
 * otherwise is still judged after them.
 */
function closersEnd(text: string, at: number): boolean {
  const next = text.charCodeAt(at + 1);
  if (next !== 0x21 && next !== 0x3f) return false;
  if (text.startsWith("<!--", at)) return true;
  const line = text.lastIndexOf("\n", at - 1) + 1;
  return /^[ \t>0-9.)*+-]*$/.test(text.slice(line, at));
}

/** Most tags {@link withoutUnendedTag} writes as text one by one: past it, every `<` from the last one on. */
const MAX_UNENDED_TAGS = 8;

/**
 * `text` (a repository's, its closers added) with the `<` of the markup an
 * HTML parser fed the raw prompt would still be in at its end written `&lt;`
 * ({@link unendedMarkupAt}: a tag cut anywhere, `<!x`, `<?x`, `</x y`,
 * `<![CDATA[`): `See <a href="docs` took your `</repository_append>` and your
 * appended text as the attribute's value (review rev68c F8), `see <span
 * hidden` took the prompt's next tag's `>` and hid the rest of the prompt,
 * and `<!x` ran to `</repository_append>`'s `>` (rev70a F2, F9). Written as
 * text for every reader: your words printed after it that hold a `>` (`run
 * make > log`) no longer end it for a Markdown reader either (rev70a F3). A
 * Markdown reader prints such a tag as text already, so it reads the same; a
 * tag it reads as raw HTML (at a line's start) is ended by the closers before
 * this. The tag held what follows it, which is then read: each one left
 * unended so is written as text in turn. `beforeClosers`: the text before its
 * closers, where markup they end ({@link closersEnd}) is kept for them.
 */
function withoutUnendedTag(text: string, beforeClosers = false): string {
  let out = text;
  // Read on from the tag written as text: the tokenizer was in its data state there.
  let at = unendedMarkupAt(out);
  const left = () => at === -1 || (beforeClosers && closersEnd(out, at));
  for (let i = 0; i < MAX_UNENDED_TAGS && !left(); i++) {
    out = `${out.slice(0, at)}&lt;${out.slice(at + 1)}`;
    at = unendedMarkupAt(out, at);
  }
  return left() ? out : `${out.slice(0, at)}${out.slice(at).replaceAll("<", "&lt;")}`;
}

/**
 * {@link closeOpenBlocks} for a text a template prints (a data value: a
 * context or rule file, a project's `vars:` value, a project's partial): a
 * closer it adds is followed by a line break of its own. A fence's closing
 * line holds nothing after its run but spaces and tabs, and a template may
 * go on writing on the line the value ends (`{{content}}</file>`,
 * `Ticket: {{vars.ticket}}. Work on it first.`): the closer line would then
 * close nothing, and the fence run over the rest of the prompt. Read from
 * either start ({@link TextStart}): a template may print it mid-line, where
 * its first line opens nothing, or on a line of its own, where it may; when
 * no one closer is right for both, the text starts after a blank line of its
 * own. A text with nothing left open is returned as it is, but for a line
 * break after a last line that is what it is only alone on its line (its
 * own closing fence: {@link endsWithBareRun}). `unread`: the text is yours
 * ({@link closeHiddenRuns}: kept as written where its elements cannot be read).
 */
export function closeOpenBlocksOnOwnLine(text: string, options?: OpenToYoursOptions): string {
  return closedOnOwnLine(text, options, true);
}

/** {@link closeOpenBlocksOnOwnLine}; `apart` as {@link closedBlocks} takes it. */
function closedOnOwnLine(
  text: string,
  options: OpenToYoursOptions | undefined,
  apart: boolean,
): string {
  // A tag written as text, and no closer (`see &lt;span hidden`), needs no line of its own:
  // the words printed after it go on its line as they would have.
  const { text: closed, bare } = closedBlocks(text, "either", options, apart);
  if (!bare) return `${closed}\n`;
  // A link definition's title left open takes the lines after it as its own: a blank
  // line ends it (rev58c F4).
  if (endsInOpenLinkTitle(closed)) return closed.endsWith("\n") ? `${closed}\n` : `${closed}\n\n`;
  return endsWithBareRun(closed) ? `${closed}\n` : closed;
}

/**
 * What makes the check of a text give up, as {@link unreadWarning} says it:
 * the check renders the text whole (512 KiB at most, `MAX_VERIFIED_CHARS`),
 * its reading takes 20,000 `<` and 40,000 elements, and the renderer's work
 * is metered (`commonmarkWork`, `commonmarkHtml`). Before, the warning named
 * a MiB and the reading's bounds only (rev68e F5).
 */
const UNREAD_BOUNDS = `over 512 KiB with a "<", 20,000 "<", 40,000 elements, or more work for the Markdown renderer than sysprompt allows, such as a long paragraph dense with code spans, links or emphasis`;

/**
 * The warning for a text of yours {@link closeOpenBlocksOnOwnLine} kept as you
 * wrote it: more than the check reads ({@link UNREAD_BOUNDS}), or closers the
 * check did not confirm, so an element it leaves open at its end is not
 * closed. `path`: the file, when it is one. `printed`: given for the render of
 * a template of yours (`SYSTEM_TEMPLATE.md`) that reads as closed on its own,
 * the repository's texts found in the render (none found: its data and
 * partials), so the warning names what the check gave up on, not your file
 * (rev68e F5: a repository's AGENTS.md of 60 KB of code spans, printed by
 * your template, made it "more HTML than sysprompt reads (over 1 MiB …)").
 */
export function unreadWarning(path: string | undefined, printed?: readonly string[]): Diagnostic {
  const what = `your ${path === undefined ? "appended text" : "file"}`;
  const cause =
    printed === undefined
      ? `${what} is more than sysprompt's HTML check reads (${UNREAD_BOUNDS}), or leaves open at its end an element it cannot close: printed as you wrote it, markup and all`
      : `${what} reads as closed on its own, but rendered with ${printed.length > 0 ? `the repository's ${printed.join(", ")}` : "the data and partials"} it prints, it is more than sysprompt's HTML check reads (${UNREAD_BOUNDS}): printed as rendered, markup and all`;
  return {
    level: "warning",
    code: "user-text-unread",
    message: `${cause}; an element it leaves open (<div hidden>, <template>) would hide the sections after it`,
    ...(path === undefined ? {} : { path }),
  };
}

/**
 * A link reference definition to its title's opening quote: `[label]: destination "`. Sticky.
 * Blanks, a line break, blanks: `[ \t]*(?:\n[ \t]*)?`, never `[ \t]*\n?[ \t]*`, which splits one
 * run of blanks every way when the match fails (quadratic; review rev68b F1's class).
 */
const LINK_DEFINITION_TITLE =
  / {0,3}\[(?:[^\]\\]|\\.)*\]:[ \t]*(?:\n[ \t]*)?(?:<[^>\n]*>|[^\s<]+)[ \t]*(?:\n[ \t]*)?(?<=\s)(["'(])/y;

/**
 * True when `text`'s last paragraph (after its last blank line) ends inside
 * the title of a link reference definition, the last line in it that starts
 * one (`[label]:`, after up to 3 spaces): the lines after `text`, to a blank
 * line, would be read as that title, never shown (`[ref]: https://example.com "`
 * at a project partial's end, rev58c F4). Linear.
 */
function endsInOpenLinkTitle(text: string): boolean {
  if (!text.includes("[")) return false;
  // Its lines from the last, to the paragraph's start (a blank line).
  let end = text.endsWith("\n") ? text.length - 1 : text.length;
  while (end >= 0) {
    const from = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(from, end);
    if (line.trim() === "") return false;
    if (/^ {0,3}\[/.test(line)) {
      LINK_DEFINITION_TITLE.lastIndex = from;
      const title = LINK_DEFINITION_TITLE.exec(text);
      if (title === null) return false;
      const quote = title[1] === "(" ? ")" : (title[1] as string);
      return !text.includes(quote, LINK_DEFINITION_TITLE.lastIndex);
    }
    if (from === 0) return false;
    end = from - 1;
  }
  return false;
}

/** The characters a line may repeat to close a fence or make a setext underline or a thematic break. */
const RUN_CHARS = "`~=-*_";

/**
 * True when the last line of `text` (it ends with no line break) is what it is
 * only while nothing follows on its line. A line that holds, after any blanks
 * and block quote markers, one character of {@link RUN_CHARS} repeated, with
 * blanks only between and after: a fence's closing line (of any length, in any
 * container), a setext heading's underline, a thematic break. A template
 * writing on after the value (`{{content}}</file>`, `{{vars.ticket}}. Work on
 * it first.`) made a repository's own closing fence a paragraph's text, and
 * the fence it closed ran over every later section. Also a line of indented
 * code, at its start or in its block quotes and list items (`    make all`,
 * `>     make all`, `1.      make all`), and a line of block openers only
 * (`>`, `#`, `1.`, `-`, `+`): your words printed after it on its line were
 * that code, or the text's block quote, heading or list item (review rev82c
 * F1, F2); a line break after it ends the code, and an empty quote, heading or
 * item takes no line after it. The end line of an HTML block that runs to a
 * closing string (`-->`, `</pre>`) still holds it with text after it, and ends
 * the block all the same. Reads the last line only.
 */
function endsWithBareRun(text: string): boolean {
  let from = text.length;
  while (from > 0) {
    const code = text.charCodeAt(from - 1);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
    from--;
  }
  const length = text.length;
  let at = from;
  let column = 0;
  // The blanks from `at` on, in columns (a tab to the next multiple of 4).
  const blanks = () => {
    const start = column;
    for (
      let code = text.charCodeAt(at);
      code === SPACE || code === TAB;
      code = text.charCodeAt(at)
    ) {
      column = code === TAB ? column + 4 - (column % 4) : column + 1;
      at++;
    }
    return column - start;
  };
  // Indented code at the line's start (or a paragraph's continuation line: a line break is harmless).
  if (blanks() >= 4 && at < length) return true;
  let opened = false;
  for (;;) {
    if (at >= length) return opened;
    const code = text.charCodeAt(at);
    let next = at + 1;
    if (code === PLUS_SIGN || code === ASTERISK || code === HYPHEN) {
      // A bullet only with a blank or nothing after it (`---`, `**` are runs, below).
      if (next < length && text.charCodeAt(next) !== SPACE && text.charCodeAt(next) !== TAB) break;
    } else if (code >= DIGIT_ZERO && code <= DIGIT_NINE) {
      while (next < length && next - at < 9 && isDigit(text.charCodeAt(next))) next++;
      const end = text.charCodeAt(next);
      if (end !== FULL_STOP && end !== RIGHT_PARENTHESIS) return false;
      next++;
      if (next < length && text.charCodeAt(next) !== SPACE && text.charCodeAt(next) !== TAB)
        return false;
    } else if (code !== GREATER_THAN) break;
    opened = true;
    column += next - at;
    at = next;
    // A block quote takes one blank, a list item's content starts one blank after its marker:
    // four more make indented code in it.
    if (blanks() >= 5 && at < length) return true;
  }
  // A heading's opener alone (`#` to `######`).
  let hashes = at;
  while (text.charCodeAt(hashes) === NUMBER_SIGN) hashes++;
  if (hashes > at && hashes - at <= 6) {
    let rest = hashes;
    while (text.charCodeAt(rest) === SPACE || text.charCodeAt(rest) === TAB) rest++;
    if (rest >= length) return true;
  }
  const run = text.charCodeAt(at);
  if (!RUN_CHARS.includes(text[at] ?? "")) return false;
  for (let i = at + 1; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code !== run && code !== SPACE && code !== TAB) return false;
  }
  return true;
}

const PLUS_SIGN = 0x2b;
const ASTERISK = 0x2a;
const HYPHEN = 0x2d;
const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
const FULL_STOP = 0x2e;
const RIGHT_PARENTHESIS = 0x29;
const NUMBER_SIGN = 0x23;
const isDigit = (code: number) => code >= DIGIT_ZERO && code <= DIGIT_NINE;

/**
 * Most characters the check of one host tool result renders
 * ({@link hostClosingAfter}: pi, opencode): it runs in the agent's own
 * process, synchronously, on each call that brings files; a 495 KB result
 * cost 2.9 s (rev65a F3). A result past it is not verified: nothing is appended.
 */
export const HOST_RESULT_CHECK_CHARS = 256 * 1024;

/**
 * What a host writes right after `before`, the text that comes before its
 * own in the same string the model reads (a tool's output, which is the
 * repository's: a file a read printed), so that nothing `before` opens runs
 * over what the host writes next: {@link closingAfter}, then the end tags
 * of the never-shown elements it leaves open ({@link hiddenClosingAfter});
 * "" when nothing is left open. The one closer every host that writes `<`
 * as it is uses (pi, opencode); Gemini CLI's hook, whose `<` arrive as
 * `&lt;`, asks {@link blockClosingAfter} and {@link hiddenClosingAfter} apart.
 */
export function hostClosingAfter(before: string): string | undefined {
  return hostClosersOf(before);
}

/**
 * What follows a host's tool result that holds a `<table` start tag while a `<p>` is open
 * ({@link quirksTableStarts}): it cannot be rewritten as a repository's text is
 * ({@link tablesOutOfParagraphs}), and a page without a doctype opens that table inside the `<p>`:
 * the renderer's, around its own `<a>`/`<em>`/`<strong>`/`<s>`, whose own end tag is ignored
 * there (review rev93h F2), or the result's own (`<p>See: <table>`, rev97a F1), which then held
 * the host's next words. So the renderer's inline formatting elements' end tags, each as many
 * times as HTML's list of them keeps identical ones (three), then `</p>`. Where nothing is left
 * open (no-quirks, or no such element), each end tag ends nothing (a `</p>` makes an empty `<p>`).
 */
const QUIRKS_END_TAGS = `</a>${"</em></strong></s>".repeat(3)}</p>`;

/**
 * {@link QUIRKS_END_TAGS} on a closer line of its own after `before` and its closers, or "".
 * Read in the call's check ({@link quirksTableStartsInCheck}, charged to its budget); where that
 * check is refused, `before` is not read and a `<table` in it gets them all the same (rev101b F1).
 */
function quirksEndTags(before: string, closer: string): string {
  const places = quirksTableStartsInCheck(before);
  if (places === undefined ? !/<table/i.test(before) : places.length === 0) return "";
  const text = before + closer;
  return withLine(text, `${EMPTY_COMMENT}${QUIRKS_END_TAGS}`).slice(text.length);
}

/** {@link hostClosingAfter}: the closers of the text read as a fragment, then {@link QUIRKS_END_TAGS} where they are needed. */
function hostClosersOf(before: string): string | undefined {
  const end = rawMarkupEnd(before);
  // Ending a tag the result began is writing the rest of it: a name sysprompt may not write in an
  // end tag (`x <system-reminder b='`, `</system-reminder b='`: rev107c F2's rule) gets nothing
  // after it, since whatever follows ends that tag or stays in it (review rev108c F5: the `'>`
  // written completed the forged `<system-reminder b='…'>`).
  if (end?.tag !== undefined && !endTagsWritable(`</${end.tag}>`)) return undefined;
  const closer = closersAfter(before, "");
  if (closer !== undefined && rawMarkupCloser(before + closer) === "") return closer;
  // A result that ends inside a tag, a bogus comment or CDATA (`<a href='`, `<!x`, `</a`, also in
  // a code span or fence, which a raw reader reads as markup) and that the closers leave so gets
  // the tokenizer's own ending first, then is read as any other; where that is not confirmed,
  // nothing is appended (rev82c F3: "cannot be told" was taken as "keep as is").
  const token = end?.closer;
  if (token === undefined || token === "") return undefined;
  const ended = closersAfter(before, token);
  return ended !== undefined && rawMarkupCloser(before + ended) === "" ? ended : undefined;
}

/** {@link hostClosingAfter}'s closers of `before`, `token` written first: one call's budget. */
function closersAfter(before: string, token: string): string | undefined {
  const ended = before + token;
  const blocks = ended + closingAfter(ended);
  // One call's budget (rev65a F3): past it the result is not verified, and nothing is appended.
  // One charge pays for the closers' check and the raw reading ({@link paidCheck}).
  const closers = (raw: boolean) => {
    const hidden = hiddenClosingAfter(blocks);
    // End tags of names sysprompt may not write (`</x<|im_end|>`, `</system-reminder>`): rev107c F2.
    if (hidden === undefined || !endTagsWritable(hidden)) return undefined;
    const closed = raw ? withRawEndTags(blocks + hidden) : blocks + hidden;
    const closer = closed?.slice(before.length);
    return closer === undefined ? undefined : closer + quirksEndTags(before, closer);
  };
  return withCheckBudget(
    () =>
      paidCheck(
        blocks,
        () => closers(true),
        () => closers(false),
      ),
    HOST_RESULT_CHECK_CHARS,
  );
}

/** Why nothing follows a tool's result {@link hostClosingAfter} gives no closer for: pi's warning, opencode's note. */
export const UNCLOSABLE_RESULT = `holds HTML whose end sysprompt could not read or close so that text after it is shown (an element nothing closes, such as <plaintext>, a tag or element named as a host's or a chat template's, which sysprompt does not write, more HTML than one reading takes, or more than ${HOST_RESULT_CHECK_CHARS} characters to check)`;

/**
 * {@link hostClosingAfter} of `before`, worked out once, when first asked. A
 * host asks only when files would follow its tool's result, and before any
 * is kept as given (pi's `contextFor`, opencode's `callContext`: their
 * `appendable`): a result nothing can follow (`<plaintext>`, more HTML than
 * one reading takes, past {@link HOST_RESULT_CHECK_CHARS}) keeps the files
 * for a later call (review rev82d F2: they were kept as given and lost for
 * the session), and a call that brings nothing pays for no check.
 */
export function hostClosing(before: string): () => string | undefined {
  let asked = false;
  let closer: string | undefined;
  return () => {
    if (!asked) {
      closer = hostClosingAfter(before);
      asked = true;
    }
    return closer;
  };
}

/**
 * `text` (a host's tool result, its closers added: it cannot be rewritten)
 * with the end tags, on a line of their own after an empty comment, of the
 * elements an HTML parser fed it raw reads as hiding what follows
 * ({@link rawHidingTags}, the raw reading a repository's text is closed by):
 * a file that says `` load it with a `<script>` tag `` or holds a fenced
 * `<div hidden>` put the host's next words in the script or the div for that
 * parser (review rev72c F2, on touch). Undefined when they cannot be told
 * (past the call's budget: known limit); undefined when its end tags are too
 * many ({@link rawEndTags}: rev80b F3), and nothing is appended after it.
 */
function withRawEndTags(text: string): string | undefined {
  // With the formatting elements only that parser opens again after it (rev78c F2).
  const reopened: number[] = [];
  const hiding = rawHidingTags(text, "\n\n", reopened);
  // Cannot be told (in no text node, past the budget): not "nothing hides" (rev82c F3).
  if (hiding !== undefined && hiding.length === 0) return undefined;
  const tags = [...new Set([...(hiding ?? []), ...reopened])].sort((a, b) => a - b);
  if (tags.length === 0) return text;
  const ends = rawEndTags(text, tags);
  // Too many, or one unnamed: the host's words cannot be told apart after it, so nothing is appended.
  if (ends === undefined) return undefined;
  // End tags only end elements: appended whether or not a reading after them is affordable.
  return withLine(text, `${EMPTY_COMMENT}${ends}`);
}

/**
 * The closing line of a fence or HTML block `before` leaves open
 * ({@link closeOpenFence}, inside its block quotes and list items), and
 * `-->` for a comment it never closes ({@link closeOpenComment}), each after
 * a line break of its own unless `before` ends with one; "" when nothing is
 * left open. `before` is read as a message of its own (from a blank line),
 * and must hold whatever the host's string joins it with (a line break,
 * `<hook_context>`): a blank line ends a block quote, so a closer computed
 * without it can open a new quote instead.
 */
export function closingAfter(before: string): string {
  return closeOpenComment(withBlockCloser(before)).slice(before.length);
}

/**
 * The end tags, each on a line of its own, of the elements no reader shows
 * that `before` leaves open at its end (`<div hidden>`, `<template>`,
 * `<details>`, a hiding style: {@link closeHiddenRuns}, the reader a
 * repository's text in the prompt is closed by); "" when none. A tool's
 * output ending in `<div hidden>` took the files given on touch after it,
 * your glob rule among them, into the element (review rev58b F1). Undefined
 * when it cannot be closed so; `onLimit` is then told the renderer's bound the
 * check stopped at, if that is why (rev71b F2). Every element left open that
 * holds what follows is closed too, unless `hidesOnly` (Gemini CLI's hook,
 * which cannot write a closer: rev78e F1).
 */
export function hiddenClosingAfter(
  before: string,
  onLimit?: (limit: RenderLimit) => void,
  hidesOnly = false,
): string | undefined {
  // A fallback's text is not appended after (below), so closing it as a message of its own suffices.
  const closed = closeHiddenRuns(
    before,
    { withLine, close: (t) => closeOpenComment(withBlockCloser(t)) },
    {
      onFallback: (_, limit) => {
        if (limit !== undefined) onLimit?.(limit);
      },
      hidesOnly,
    },
  );
  // Not closed after it but written as text (more HTML than one reading takes, or a `<plaintext>`):
  // what a host writes after it cannot be made to read as its own (rev61b F1).
  return closed.startsWith(before) ? closed.slice(before.length) : undefined;
}

/**
 * {@link closingAfter} as CommonMark reads `before`: the closing line of a
 * fence or HTML block it leaves open, a comment among them only when its
 * `<!--` starts a block (at a line's start, inside the line's block quotes
 * and list items); "" when nothing is. A `<!--` anywhere else (mid-line, in
 * a code span, a string literal, a path) is text that opens nothing, so no
 * `-->` is added for it. For a host that escapes what it writes after
 * `before` (Gemini CLI's hook: a `-->` there closes nothing), where the
 * question is only what would really run over its text.
 */
export function blockClosingAfter(before: string): string {
  return withBlockCloser(before).slice(before.length);
}

/** `before` with the closing line of the fence or HTML block it leaves open ({@link closerOf}), if any. */
function withBlockCloser(before: string): string {
  const reading = freshReading();
  eachLine(before, (from, to) => readLine(reading, before, from, to));
  const closer = closerOf(reading);
  return closer === undefined ? before : withLine(before, closer);
}

/** Ten random base-36 digits, always ten: `toString(36)` of some numbers (0.5: `0.i`) has fewer. */
function randomDigits(): string {
  return Math.random().toString(36).slice(2, 12).padEnd(10, "0");
}

/**
 * The marks a render puts around each text of several lines its data holds
 * where a template prints it ({@link placePrinted} reads and removes them):
 * the control characters SO and SI, each followed by this process's
 * {@link PRINTED_NONCE}, so that a text's own SO or SI (a repository's file
 * may hold them; a data text loses any marks it holds) is never read as one.
 * One-byte characters: a prompt of them stays one byte a character (a
 * two-byte mark made every section's text two bytes a character, and its
 * later reads slower). Always 20 characters long: the marks are counted with
 * the text they hold (what blocks and partials read again, what a render
 * produced), so a mark shorter in some processes moved where a render stops
 * (fx78d: the re-reading count of the catalogue's `partial-output-doubling`
 * stopped at a "d2" instead of a "d0" in about one process in 70).
 */
const PRINTED_NONCE = `${randomDigits()}${randomDigits()}`;
export const PRINTED_OPEN = `\u000e${PRINTED_NONCE}`;
export const PRINTED_CLOSE = `\u000f${PRINTED_NONCE}`;

/**
 * The nonce of the marks of {@link markYours}, its own: a printed mark a
 * template could ever read tells nothing of it (review rev98b F1).
 */
const YOURS_NONCE = `${randomDigits()}${randomDigits()}`;

/**
 * The marks around what a partial block of yours prints inside a trusted
 * project's partial (`{{> @partial-block}}` there), put by the render's
 * `blockText` and read by its finish of the project's partial
 * ({@link yoursPieces}): your text is kept as you wrote it, and the
 * project's text before and after it finished apart (fx96b, review rev93g
 * F2). The control characters DLE and DC1, each followed by
 * {@link YOURS_NONCE}: a repository's text cannot write one, and 20
 * characters in every process, as the printed marks are. No template reads a
 * text that holds one: a partial block's body called as a value gives its
 * text with no mark (the engine's `blockValue`, review rev98b F1).
 */
export const YOURS_OPEN = `\u0010${YOURS_NONCE}`;
export const YOURS_CLOSE = `\u0011${YOURS_NONCE}`;

/**
 * `text` between the marks of {@link YOURS_OPEN} and {@link YOURS_CLOSE}, its
 * final line break after them: Handlebars indents each line of an indented
 * standalone call's text but an empty last one, and a mark after that break
 * would be a line of its own, indented (as {@link markPrinted}'s callers do).
 */
export function markYours(text: string, indent?: string): string {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  const told = indent === undefined ? "" : YOURS_INDENT + indent + YOURS_INDENT;
  return YOURS_OPEN + told + body + YOURS_CLOSE + text.slice(body.length);
}

/**
 * The mark, after {@link YOURS_OPEN}, before and after the indentation
 * Handlebars gave the `{{> @partial-block}}` call that printed your block
 * (its `indent`, written before each of its lines but an empty last one;
 * none when the call is not standalone): read back by {@link yoursIndent},
 * so only that is removed (review rev102b F6: guessed from the blanks before
 * the call, `  {{#if true}}{{/if}}{{> @partial-block}}` flattened your nested
 * list). DC2 and the nonce.
 */
const YOURS_INDENT = `\u0012${YOURS_NONCE}`;
const YOURS_INDENT_TOLD = new RegExp(`${YOURS_INDENT}[^\u0012]*${YOURS_INDENT}`, "g");

/**
 * A piece of yours ({@link yoursPieces}) without the indentation told at its
 * start ({@link markYours}), and that indentation: undefined when none was
 * told (a piece marked again by a project's partial around it).
 */
export function yoursIndent(piece: string): { text: string; indent: string | undefined } {
  if (!piece.startsWith(YOURS_INDENT)) return { text: piece, indent: undefined };
  const end = piece.indexOf(YOURS_INDENT, YOURS_INDENT.length);
  if (end === -1) return { text: piece, indent: undefined };
  return {
    text: piece.slice(end + YOURS_INDENT.length),
    indent: piece.slice(YOURS_INDENT.length, end),
  };
}

/** `text` without the marks of {@link YOURS_OPEN} and {@link YOURS_CLOSE}, and the indentation they told. */
export function withoutYoursMarks(text: string): string {
  if (!text.includes(YOURS_OPEN) && !text.includes(YOURS_CLOSE)) return text;
  return text.replace(YOURS_INDENT_TOLD, "").replaceAll(YOURS_OPEN, "").replaceAll(YOURS_CLOSE, "");
}

/**
 * `text` cut at its outermost marks of {@link markYours}: the pieces in order,
 * the first and every other one outside the marks (the project's, maybe
 * empty), the others inside (yours, the pairs of marks within them kept);
 * undefined when it holds no character of a mark (DLE or DC1). A mark with no
 * partner is dropped and the pairs are kept (review rev98b F1: one stray
 * forged mark made the whole print the project's, and its
 * `<!-- {{> @partial-block}} -->` hid your block again); the project's
 * pieces keep no DLE or DC1 of their own, which only a mark may hold.
 * Linear: the marks are paired on one stack.
 */
export function yoursPieces(text: string): string[] | undefined {
  if (!holdsMarkChar(text)) return undefined;
  const at: number[] = [];
  const opens: boolean[] = [];
  for (let open = text.indexOf(YOURS_OPEN), close = text.indexOf(YOURS_CLOSE); ; ) {
    if (open === -1 && close === -1) break;
    const isOpen = close === -1 || (open !== -1 && open < close);
    at.push(isOpen ? open : close);
    opens.push(isOpen);
    if (isOpen) open = text.indexOf(YOURS_OPEN, open + YOURS_OPEN.length);
    else close = text.indexOf(YOURS_CLOSE, close + YOURS_CLOSE.length);
  }
  const paired = new Array<boolean>(at.length).fill(false);
  const stack: number[] = [];
  for (let i = 0; i < at.length; i++) {
    if (opens[i]) stack.push(i);
    else if (stack.length > 0) {
      paired[i] = true;
      paired[stack.pop() as number] = true;
    }
  }
  const pieces: string[] = [];
  let piece = "";
  let depth = 0;
  let from = 0;
  for (let i = 0; i < at.length; i++) {
    const where = at[i] as number;
    piece += text.slice(from, where);
    from = where + YOURS_OPEN.length;
    if (!paired[i]) continue;
    if (opens[i]) {
      if (depth++ === 0) {
        pieces.push(withoutMarkChars(piece));
        piece = "";
      } else piece += YOURS_OPEN;
    } else if (--depth === 0) {
      pieces.push(piece);
      piece = "";
    } else piece += YOURS_CLOSE;
  }
  pieces.push(withoutMarkChars(piece + text.slice(from)));
  return pieces;
}

/** The characters a mark of {@link YOURS_OPEN} or {@link YOURS_CLOSE} starts with. */
const DLE = "\u0010";
const DC1 = "\u0011";
/** The character the mark of an indentation told starts with ({@link markYours}). */
const DC2 = "\u0012";

/** True when `text` holds a character a mark of {@link markYours} starts with. */
function holdsMarkChar(text: string): boolean {
  return text.includes(DLE) || text.includes(DC1) || text.includes(DC2);
}

/** `text` without a character a mark of {@link markYours} starts with. */
function withoutMarkChars(text: string): string {
  if (!holdsMarkChar(text)) return text;
  return text.replaceAll(DLE, "").replaceAll(DC1, "").replaceAll(DC2, "");
}

/** True when `text` holds a mark of {@link PRINTED_OPEN} or {@link PRINTED_CLOSE}. */
export function holdsPrintedMarks(text: string): boolean {
  return text.includes(PRINTED_OPEN) || text.includes(PRINTED_CLOSE);
}

/** `text` without the marks of {@link PRINTED_OPEN} and {@link PRINTED_CLOSE}. */
export function withoutPrintedMarks(text: string): string {
  if (!holdsPrintedMarks(text)) return text;
  return text.replaceAll(PRINTED_OPEN, "").replaceAll(PRINTED_CLOSE, "");
}

/**
 * `value` between the marks, for {@link placePrinted}. `clean`: the caller
 * knows it holds no mark (a data text, read once), so it is not read again.
 */
export function markPrinted(value: string, clean = false): string {
  return PRINTED_OPEN + (clean ? value : withoutPrintedMarks(value)) + PRINTED_CLOSE;
}

/**
 * True when a line the template wrote in `text` (outside the marked values)
 * may start a container or a block that runs on: after blanks, `>`, a list
 * marker (`-`, `+`, `*` or digits and `.` or `)`, then a blank or the line's
 * end), a run of backticks or tildes, or `<!`, `<?`, `<pre`, `<script`,
 * `<style`, `<textarea`. Else no value is in anything of the template's and
 * each reads as its closing judged it ({@link placePrinted} is done). Reads
 * the template's text only (the part of a line after a value counts as a
 * line's start: more is read, never less).
 */
function opensAnyBlock(text: string): Opens {
  let opens = Opens.Nothing;
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf(PRINTED_OPEN, at);
    const end = open === -1 ? text.length : open;
    let line = at;
    while (line < end) {
      if (opens === Opens.Nothing && startsBlock(text, line, end)) opens = Opens.Block;
      if (startsTable(text, line, end)) return Opens.Table;
      let next = line;
      while (next < end) {
        const code = text.charCodeAt(next);
        if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
        next++;
      }
      line = next + 1;
    }
    if (open === -1) break;
    const close = text.indexOf(PRINTED_CLOSE, open);
    if (close === -1) break;
    at = close + PRINTED_CLOSE.length;
  }
  return opens;
}

/** What {@link opensAnyBlock} found the template's lines may open. */
enum Opens {
  Nothing = 0,
  /** A container or a block that runs on. */
  Block = 1,
  /** A table's delimiter row: each value is read where it lands ({@link placeMarked}). */
  Table = 2,
}

/** Whether the template's line at `from` (its text ends at `to`) may be a table's delimiter row, after blanks and `>`. */
function startsTable(text: string, from: number, to: number): boolean {
  let at = from;
  for (;;) {
    const code = text.charCodeAt(at);
    if (at >= to || (code !== SPACE && code !== TAB && code !== GREATER_THAN)) break;
    at++;
  }
  return at < to && delimiterRowAt(text, at, to);
}

const HTML_RUNS_ON = ["<pre", "<script", "<style", "<textarea"];

/** {@link opensAnyBlock} for the line starting at `from` (the template's text ends at `to`). */
function startsBlock(text: string, from: number, to: number): boolean {
  let at = from;
  while (at < to && (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB)) at++;
  if (at >= to) return false;
  const code = text.charCodeAt(at);
  const next = at + 1 < text.length ? text.charCodeAt(at + 1) : -1;
  const blankAfter = (i: number) => {
    const c = i < text.length ? text.charCodeAt(i) : -1;
    return c === -1 || c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN;
  };
  if (code === GREATER_THAN) return true;
  if (code === BACKTICK || code === TILDE) return true;
  if (code === 0x2d || code === 0x2b || code === 0x2a) return blankAfter(at + 1);
  if (code >= 0x30 && code <= 0x39) {
    let i = at;
    while (i < to && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    const mark = text.charCodeAt(i);
    return (mark === 0x2e || mark === 0x29) && blankAfter(i + 1);
  }
  if (code !== 0x3c) return false;
  if (next === 0x21 || next === 0x3f) return true;
  const head = text.slice(at, at + 9).toLowerCase();
  return HTML_RUNS_ON.some((tag) => head.startsWith(tag));
}

/**
 * How much a value's lines may grow, written inside the template's containers
 * (an item's indent, `> ` before each line): four times the value and 4 KiB.
 * A prefix of up to 8 characters fits any text (a line holds a character and
 * its line break); past that, the lines that do not fit are left out
 * ({@link placePrinted}'s `onCut`), so that a template's or a text's many
 * containers cannot make a text of short lines megabytes long.
 */
function placedGrowth(length: number): number {
  return 4 * length + 4096;
}

/** True when `r` still holds `outer`, the block a template opened before a value. */
function stillIn(r: Reading, outer: OpenBlock): boolean {
  return r.leaf === outer;
}

/** The prefix that keeps a line inside `containers` (`> `, a list item's indent); undefined past {@link MAX_CLOSER_PREFIX}. */
function containerPrefix(containers: readonly Reading["containers"][number][]): string | undefined {
  let prefix = "";
  for (const c of containers) {
    prefix += c.quote ? "> " : " ".repeat(c.indent);
    if (prefix.length > MAX_CLOSER_PREFIX) return undefined;
  }
  return prefix;
}

/** How many of the outermost containers of `a` and `b` are alike: block quotes, or list items of the same indent. */
function sameOuter(
  a: readonly Reading["containers"][number][],
  b: readonly Reading["containers"][number][],
  sameIndent: boolean,
): number {
  let n = 0;
  while (n < a.length && n < b.length) {
    const x = a[n] as Reading["containers"][number];
    const y = b[n] as Reading["containers"][number];
    if (x.quote !== y.quote || (sameIndent && x.indent !== y.indent)) break;
    n++;
  }
  return n;
}

/** The line `line` (a value's part of it from `from`) written so that it does not end `outer`. */
function notEnding(line: string, from: number, outer: OpenBlock): string {
  if (outer.kind === "html") {
    return line.slice(0, from) + line.slice(from).replaceAll(">", "&gt;");
  }
  const at = line.indexOf(outer.fence.char, from);
  return at === -1 ? line : `${line.slice(0, at)}\\${line.slice(at)}`;
}

/**
 * Where the template's line that `from` is on ends (its line feed or carriage
 * return, or the end), the marked values on it read as one line each (a
 * value in a table's header is written as one cell). Linear over the line.
 */
function templateLineEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
    if (code === PRINTED_OPEN.charCodeAt(0) && text.startsWith(PRINTED_OPEN, at)) {
      const close = text.indexOf(PRINTED_CLOSE, at);
      if (close === -1) return text.length;
      at = close + PRINTED_CLOSE.length;
    } else at++;
  }
  return at;
}

/** Where the line after the line break at `end` starts. */
function lineAfter(text: string, end: number): number {
  return (
    end +
    (text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED ? 2 : 1)
  );
}

/** Where the line of `text` that starts at `from` ends (its line feed or carriage return, or the end). */
function lineEndAt(text: string, from: number): number {
  let end = from;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
    end++;
  }
  return end;
}

/** `line` with a backslash before its first character that is not blank, when that is ASCII punctuation (read as text then). */
function escapedStart(line: string): string {
  let at = 0;
  while (at < line.length && (line.charCodeAt(at) === SPACE || line.charCodeAt(at) === TAB)) at++;
  const code = line.charCodeAt(at);
  const punctuation =
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e);
  return punctuation ? `${line.slice(0, at)}\\${line.slice(at)}` : line;
}

/** Where the first line of `text` that is not blank starts (its end when there is none). */
function afterBlankLines(text: string): number {
  let from = 0;
  for (;;) {
    const end = lineEndAt(text, from);
    if (end >= text.length || !isBlank(text, from, end))
      return end >= text.length && isBlank(text, from, end) ? text.length : from;
    from =
      end +
      (text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED ? 2 : 1);
  }
}

/** The line breaks in `text` from `from` on, a CRLF counted once. */
function lineBreaksFrom(text: string, from: number): number {
  let count = 0;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === LINE_FEED) count++;
    else if (code === CARRIAGE_RETURN && text.charCodeAt(i + 1) !== LINE_FEED) count++;
  }
  return count;
}

/** What {@link placePrinted} left out of a value: its lines past the growth it may take ({@link placedGrowth}). */
export interface PrintedCut {
  /** The lines left out. */
  lines: number;
}

/**
 * A section's rendered `text` with each marked value ({@link markPrinted})
 * judged where the template printed it, the marks taken out: a text of
 * several lines (a repository's `AGENTS.md`, a project's value) printed in a
 * list item or a block quote of the template's has its later lines written
 * inside it (the item's indent, `> `), so that a line of the text cannot end
 * the item and read on at the top level; printed inside a fenced code block
 * or an HTML block the template opened (`~~~markdown\n{{content}}\n~~~`,
 * `<pre>`), a line of the text that would end that block has its first
 * fence character written `` \` `` (`\~`), or each `>` `&gt;`, so that the
 * template's own closing line ends it; and a block the text leaves open
 * there (its closer was computed for the text alone) is closed after it, on
 * a line of its own.
 *
 * Where a value lands is judged on what the line has printed before it (a
 * helper's `prefix="- "`, `{{@index}}. `, an `{{#each}}` body's `- `), read
 * as CommonMark reads it with a letter for the value: an empty item (`- `
 * then the value), a line indented into an item, and a line at a line's
 * start that continues an item's or a quote's paragraph (a lazy line) are
 * all inside. The text's first line is written so that it stays there too:
 * on a lazy line, with the prefix the line lacks. A value printed on the
 * line that opens a fence or an HTML block that runs on (a fence's info
 * string: ```` ```{{vars.lang}} ````) is inside the block that line opens:
 * its first line is the line's, its later lines are judged in the block
 * (review rev70a F1). Containers a value's own
 * text opened are the value's, never the template's. A value's lines grow
 * by at most {@link placedGrowth}: the lines past it are left out, said by
 * a line of the template's and `onCut`. Linear: each line is read once, and
 * once more to test it inside the template's block.
 */
export function placePrinted(text: string, onCut?: (cut: PrintedCut) => void): string {
  const opens = opensAnyBlock(text);
  // No line of the template's starts a container or a running block: nothing to read.
  if (opens === Opens.Nothing) return withoutPrintedMarks(text);
  // Each value in nothing (the common case: `{{content}}` at a line's start): the marks out, one copy.
  if (opens === Opens.Block && marksInNothing(text))
    return markAt.length === 0 ? text : withoutMarksAt(text);
  return placeMarked(text, onCut);
}

/** {@link placePrinted} reading every line the template wrote, each value placed or not (exported for its test). */
export function placeMarked(text: string, onCut?: (cut: PrintedCut) => void): string {
  if (opensAnyBlock(text) === Opens.Nothing) return withoutPrintedMarks(text);
  let reading = freshReading();
  /** The line read last is a row of a table of the template's (or its delimiter row). */
  let table = false;
  /** Reads a line ended in what is written, following the template's tables (GFM) as well. */
  const read = (line: string, from: number, to: number) => {
    const paragraph = reading.leaf?.kind === "paragraph";
    const depth = reading.containers.length;
    readLine(reading, line, from, to);
    rowLine = false;
    // A table's lines read as a paragraph's to CommonMark; a blank line or a block ends both.
    table =
      paragraph &&
      reading.leaf?.kind === "paragraph" &&
      reading.containers.length === depth &&
      (table || startsTable(line, from, to));
  };
  /** Where the template's line after the value being placed ends, and whether the line after it is a delimiter row. */
  let headerUntil = -1;
  let header = false;
  /** The line not yet ended is a row: its later values are cells too, its start read once. */
  let rowLine = false;
  const parts: string[] = [];
  /** The text of the line not yet ended, as written. */
  let pending = "";
  /** `pending` with each value's text in it written as one letter: the line as the template wrote it. */
  let neutral = "";
  /** The line not yet ended starts with the last line of a value in nothing (read as `neutral`). */
  let afterValue = false;
  /** Reads `piece` (a line break ends a line) and writes it; `own`: the template's text, not a value's. */
  const feed = (piece: string, own = true) => {
    if (piece === "") return;
    parts.push(piece);
    let start = 0;
    for (let i = 0; i < piece.length; i++) {
      const code = piece.charCodeAt(i);
      if (code !== LINE_FEED && code !== CARRIAGE_RETURN) continue;
      if (pending === "") read(piece, start, i);
      else {
        // A line a value in nothing started is the template's as it wrote it, the value a letter.
        const line = (afterValue ? neutral : pending) + piece.slice(start, i);
        read(line, 0, line.length);
      }
      pending = "";
      neutral = "";
      afterValue = false;
      if (code === CARRIAGE_RETURN && piece.charCodeAt(i + 1) === LINE_FEED) i++;
      start = i + 1;
    }
    if (start === 0) {
      pending += piece;
      neutral += own ? piece : "a";
    } else if (start < piece.length) {
      pending = piece.slice(start);
      neutral = own ? pending : "a";
    }
  };
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf(PRINTED_OPEN, at);
    if (open === -1) {
      feed(withoutPrintedMarks(text.slice(at)));
      break;
    }
    feed(withoutPrintedMarks(text.slice(at, open)));
    let close = text.indexOf(PRINTED_CLOSE, open + PRINTED_OPEN.length);
    if (close === -1) close = text.length;
    // A mark inside is no value's (a value's own were taken out): the last opening one starts it.
    const inner = text.indexOf(PRINTED_OPEN, open + 1);
    const start = inner === -1 || inner > close ? open : text.lastIndexOf(PRINTED_OPEN, close - 1);
    if (start > open) feed(withoutPrintedMarks(text.slice(open, start)));
    at = close + PRINTED_CLOSE.length;
    if (at > headerUntil) {
      headerUntil = templateLineEnd(text, at);
      header =
        headerUntil < text.length && startsTable(text, lineAfter(text, headerUntil), text.length);
    }
    placeValue(text.slice(start + PRINTED_OPEN.length, close));
  }
  return parts.join("");

  /** Writes `value` at the end of what is written so far, inside the template's containers and block. */
  function placeValue(value: string): void {
    if (rowLine) {
      feed(asCell(value, false), false);
      return;
    }
    const before = reading.leaf;
    // The template's line so far, a letter for the value: a letter starts no block, so the line
    // goes on in what it continues, lazily too (a paragraph's line at a line's start).
    const probe = copyReading(reading);
    const probeLine = `${neutral}a`;
    readLine(probe, probeLine, 0, probeLine.length);
    let outer = runsOn(before) && probe.leaf === before ? before : undefined;
    // The template's line opens a fence (or an HTML block that runs on) before the value: its
    // first line is that line's (a fence's info string, its backticks written `&#96;`), its later
    // lines are inside the block the line opens (review rev70a F1). Read alone, `sh` /
    // ```` ``` ```` / ```` ```` ```` in ```` ```{{vars.lang}} ```` (or a partial `sh` then a
    // backtick) closed your fence, or made it none, and opened one over the rest.
    const opening = runsOn(probe.leaf) && probe.leaf !== before;
    // A row of the template's table (or its header, a delimiter row after it): one cell.
    const row =
      probe.leaf?.kind === "paragraph" &&
      (header || (table && probe.containers.length === reading.containers.length));
    if (row) {
      feed(asCell(value, afterMarkers(neutral, 0, neutral.length) === neutral.length), false);
      rowLine = true;
      return;
    }
    let containers = probe.containers;
    let firstLead = "";
    let escapeFirst = false;
    let from = 0;
    if (containers.length > 0) {
      // An item that holds nothing yet ends at a blank line: the text's blank lines before its
      // first line (which read as nothing at a block's start) are left out there.
      const blankEnd = lineEndAt(value, 0);
      if (isBlank(value, 0, blankEnd)) {
        const blank = copyReading(reading);
        const blankLine = pending + value.slice(0, blankEnd);
        readLine(blank, blankLine, 0, blankLine.length);
        const innermost = blank.containers[containers.length - 1];
        if (
          sameOuter(blank.containers, containers, false) < containers.length ||
          (innermost !== undefined && !innermost.quote && !innermost.filled)
        )
          from = afterBlankLines(value);
      }
      const firstEnd = lineEndAt(value, from);
      if (isBlank(value, from, firstEnd)) {
        // A blank line ends what it ends (a quote it does not continue): the rest is in what is left.
        const full = copyReading(reading);
        const fullLine = pending + value.slice(from, firstEnd);
        readLine(full, fullLine, 0, fullLine.length);
        containers = full.containers.slice(0, sameOuter(full.containers, containers, true));
      } else {
        // The blanks the text's first line starts with count in an item's indent (`-  ` then ` x`).
        let text = from;
        while (text < firstEnd && isBlank(value, text, text + 1)) text++;
        let held = probeLine;
        if (text > from) {
          const exact = copyReading(reading);
          const exactLine = `${neutral}${value.slice(from, text)}a`;
          readLine(exact, exactLine, 0, exactLine.length);
          if (exact.containers.length === containers.length) {
            containers = exact.containers;
            held = exactLine;
          }
        }
        // Containers the line holds only lazily (a paragraph's line at a line's start): the
        // first line would end them if it starts a block (`1. one`, `+ p`, `` ``` ``), so it is
        // written with the prefix the line lacks.
        const strict = copyReading(reading);
        strict.leaf = undefined;
        readLine(strict, held, 0, held.length);
        const matched = sameOuter(strict.containers, containers, true);
        if (matched < containers.length)
          firstLead = containerPrefix(containers.slice(matched)) ?? "";
        // A line the template's marker starts that the first line makes a thematic break
        // (`- ` then `---`): its first character is written escaped, as text.
        const full = copyReading(reading);
        const fullLine = pending + firstLead + value.slice(from, firstEnd);
        readLine(full, fullLine, 0, fullLine.length);
        if (full.containers.length < containers.length) escapeFirst = true;
      }
    }
    const prefix = containers.length === 0 ? "" : containerPrefix(containers);
    if (prefix === "" && outer === undefined && !opening) {
      // In nothing of the template's: as its closing judged it, not read again. The template's
      // text after it is read from a blank line (a value ends with nothing left open).
      parts.push(value);
      let last = value.length - 1;
      while (last >= 0) {
        const code = value.charCodeAt(last);
        if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
        last--;
      }
      if (last === -1) {
        pending += value;
        neutral += "a";
      } else {
        reading = freshReading();
        table = false;
        pending = value.slice(last + 1);
        neutral = pending === "" ? "" : "a";
        afterValue = pending !== "";
      }
      return;
    }
    const linePrefix = prefix ?? "";
    const blankPrefix = linePrefix.trimEnd();
    // Deeper than a closer is written in: the text's first line only.
    let room = prefix === undefined ? -1 : placedGrowth(value.length);
    let start = from;
    let first = true;
    for (;;) {
      const end = lineEndAt(value, start);
      let line = value.slice(start, end);
      if (first && escapeFirst) line = escapedStart(line);
      // A backtick in a backtick fence's info string makes the line no fence (rev68c F2).
      if (first && opening && probe.leaf?.kind === "fence" && probe.leaf.fence.char === "`")
        line = line.replaceAll("`", "&#96;");
      const lead = first ? firstLead : isBlank(line, 0, line.length) ? blankPrefix : linePrefix;
      if (outer !== undefined && stillIn(reading, outer)) {
        const whole = pending + lead + line;
        const test = copyReading(reading);
        readLine(test, whole, 0, whole.length);
        if (!stillIn(test, outer)) line = notEnding(line, 0, outer);
      }
      feed(lead);
      feed(line, false);
      if (end >= value.length) break;
      const crlf =
        value.charCodeAt(end) === CARRIAGE_RETURN && value.charCodeAt(end + 1) === LINE_FEED;
      feed(crlf ? "\r\n" : (value[end] ?? "\n"));
      start = end + (crlf ? 2 : 1);
      // The block the template's line opened with the value's first line: its later lines are in it.
      if (first && opening && runsOn(reading.leaf) && reading.leaf !== before) outer = reading.leaf;
      first = false;
      if (start >= value.length) break;
      room -= linePrefix.length;
      if (room < 0) {
        const lines = lineBreaksFrom(value, start) + 1;
        feed(
          `${linePrefix}[${lines} more lines of this text left out: too many to keep inside this block]\n`,
        );
        onCut?.({ lines });
        break;
      }
    }
    // A value on one line leaves open only the block the template's line opens.
    if (!opening || !first) closeAfter(outer);
    // The template's text after a line break the value ended with goes on inside its containers
    // (a blank line with no `>` would end its block quote).
    if (pending === "" && linePrefix !== "" && parts.length > 0) feed(linePrefix);
  }

  /** Closes what the value just written leaves open, but `outer`, the template's own block. */
  function closeAfter(outer: OpenBlock | undefined): void {
    const after = pending === "" ? reading : copyReading(reading);
    if (pending !== "") readLine(after, pending, 0, pending.length);
    if (runsOn(after.leaf) && after.leaf !== outer) {
      const closer = closerOf(after);
      if (closer !== undefined) feed(`${pending === "" ? "" : "\n"}${closer}\n`);
    }
  }
}

/** Where {@link marksInNothing} found each mark (kept across calls: a render allocates none). */
const markAt: number[] = [];

/**
 * True when each marked value of `text` lands in nothing of the template's,
 * judged as {@link placePrinted} judges it (the template's line so far, a
 * letter for the value, continues no container and no running block), with
 * the places of the marks in {@link markAt} (open, close, …); false when one
 * does not, or a mark is not where a value's marks would be. Reads the
 * template's lines only: a value's text is skipped.
 */
function marksInNothing(text: string): boolean {
  markAt.length = 0;
  const reading = freshReading();
  /** The line so far starts with a value's last line (read as a letter). */
  let afterValue = false;
  let lineStart = 0;
  /** The next carriage return at or after `lineStart` (lines are found by their line feeds until it). */
  let nextReturn = text.indexOf("\r");
  if (nextReturn === -1) nextReturn = text.length;
  let open = text.indexOf(PRINTED_OPEN);
  while (open !== -1) {
    for (;;) {
      let end = text.indexOf("\n", lineStart);
      if (end === -1) end = text.length;
      if (nextReturn < end) end = nextReturn;
      if (end >= open) break;
      if (afterValue) {
        const line = `a${text.slice(lineStart, end)}`;
        readLine(reading, line, 0, line.length);
        afterValue = false;
      } else readLine(reading, text, lineStart, end);
      lineStart =
        end +
        (text.charCodeAt(end) === CARRIAGE_RETURN && text.charCodeAt(end + 1) === LINE_FEED
          ? 2
          : 1);
      if (nextReturn < lineStart) {
        nextReturn = text.indexOf("\r", lineStart);
        if (nextReturn === -1) nextReturn = text.length;
      }
    }
    // A value's text holds no mark (each is taken out of it when it is marked).
    const close = text.indexOf(PRINTED_CLOSE, open + PRINTED_OPEN.length);
    if (close === -1) return false;
    if (afterValue || lineStart < open || reading.containers.length > 0 || runsOn(reading.leaf)) {
      const probe = copyReading(reading);
      const line = `${afterValue ? "a" : ""}${text.slice(lineStart, open)}a`;
      readLine(probe, line, 0, line.length);
      if (probe.containers.length > 0) return false;
      if (runsOn(reading.leaf) && probe.leaf === reading.leaf) return false;
      // On a line that opens a block that runs on (a fence's info string): read where it lands (rev70a F1).
      if (runsOn(probe.leaf) && probe.leaf !== reading.leaf) return false;
    }
    const next = text.indexOf(PRINTED_OPEN, close + PRINTED_CLOSE.length);
    markAt.push(open, close);
    // In nothing: the template's text after it is read from a blank line.
    reading.containers.length = 0;
    reading.quotes.length = 0;
    reading.leaf = undefined;
    const last = text.charCodeAt(close - 1);
    afterValue =
      close > open + PRINTED_OPEN.length && last !== LINE_FEED && last !== CARRIAGE_RETURN;
    lineStart = close + PRINTED_CLOSE.length;
    if (nextReturn < lineStart) {
      nextReturn = text.indexOf("\r", lineStart);
      if (nextReturn === -1) nextReturn = text.length;
    }
    open = next;
  }
  return true;
}

/** `text` without the marks {@link marksInNothing} found: one copy. */
function withoutMarksAt(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let i = 0; i < markAt.length; i += 2) {
    const open = markAt[i] as number;
    const close = markAt[i + 1] as number;
    parts.push(text.slice(copied, open), text.slice(open + PRINTED_OPEN.length, close));
    copied = close + PRINTED_CLOSE.length;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

/** A placeholder's line from its value on, as a slash command's guard reads it ({@link BlockTracker.closerHere}). */
export interface PrintedRest {
  text: string;
  /** The template offsets of the later placeholders on the line (none for its value alone)… */
  ats: number[];
  /** …and where their values start in `text`. */
  starts: number[];
}

/**
 * Reads a text as it is written, chunk by chunk, and says at any point what
 * closes the blocks it leaves open there ({@link closingAfter}'s reading: a
 * fence or an HTML block CommonMark runs on, then any `<!--` not yet closed).
 * For a slash-command template's expansion: your arguments are printed after
 * the closer, so a project's template cannot make them code or a comment.
 * Linear: each line is read once when it ends, and {@link closerHere} reads
 * the unfinished line at most once a line.
 */
/**
 * The closer of the block `reading` is in when no reader shows its text: a
 * comment, `<?…?>`, `<!X…>`, CDATA, `<script>` or `<style>` (CommonMark's
 * HTML kinds 1 to 5, less `<pre>` and `<textarea>`, which show), the same
 * runs `withoutHidden` (src/sections/user-text.ts) counts as never shown.
 * Closed before your words even when the template closes them after.
 */
function neverShownCloser(reading: Reading): string | undefined {
  const leaf = reading.leaf;
  if (leaf?.kind !== "html" || leaf.type > 5) return undefined;
  if (leaf.type === 1 && leaf.closer !== "</script>" && leaf.closer !== "</style>")
    return undefined;
  return closerOf(reading);
}

/** {@link PrintedRest} of a placeholder's line, made when asked; `firstOnly`: its value alone. */
export type ReadRest = (firstOnly?: boolean) => PrintedRest;

/** Whether the printed rest starts with `[`, its first piece read alone. */
function startsDefinition(rest: ReadRest): boolean {
  return rest(true).text.startsWith("[");
}

/** A character of a block quote's or a list item's marker: `>`, `-`, `+`, `*`, a digit, `.`, `)`. */
function isMarkerCharacter(code: number): boolean {
  return (
    code === GREATER_THAN ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2a ||
    code === 0x2e ||
    code === 0x29 ||
    (code >= 0x30 && code <= 0x39)
  );
}

/**
 * Most characters of a definition's lines read before a text (its label is at
 * most 999): a title longer than this over many lines is not judged, and each
 * line is read a bounded number of times.
 */
const MAX_DEFINITION_LINES_CHARS = 2048;

export class BlockTracker {
  private readonly reading: Reading = freshReading();
  private line = "";
  /**
   * The lines of the open paragraph of link reference definitions since the
   * last one that starts with `[` (container markers and indentation off, each
   * ended by a line feed): the definition a text there may be in ("" when
   * none, or longer than {@link MAX_DEFINITION_LINES_CHARS}).
   */
  private definitionLines = "";
  private tail = "";
  private commentOpen = false;
  /** The reading with the unfinished line read, or undefined when not read since it began. */
  private lineRead: Reading | undefined;
  /** Whether {@link indentsCode} found the unfinished line can make no indented code. */
  private codeJudged = false;
  /** How much of the unfinished line {@link indentsCode} read as blanks. */
  private blanksRead = 0;
  /** The columns of blanks at the end of what {@link blanksRead} covers. */
  private blankWidth = 0;
  /** Whether {@link inDefinition} judged the unfinished line already. */
  private definitionJudged = false;
  /** The template offset of the last later text on the line that a definition holds (-1: none). */
  private definitionUntil = -1;
  /** The open paragraph's inline links, read as each chunk comes (the unfinished line too). */
  private readonly links = new InlineLinkReader();

  feed(chunk: string): void {
    if (chunk === "") return;
    // A `<!--` or `-->` is complete only with a `-` or a `>`: most pieces hold neither.
    if (chunk.includes("-") || chunk.includes(">")) {
      const seen = this.tail + chunk;
      const open = seen.lastIndexOf("<!--");
      const close = seen.lastIndexOf("-->");
      if (open >= 0 && close < open + 2) this.commentOpen = true;
      else if (close >= 0) this.commentOpen = false;
      this.tail = seen.slice(-3);
    } else {
      this.tail = chunk.length >= 3 ? chunk : this.tail + chunk;
      if (this.tail.length > 3) this.tail = this.tail.slice(-3);
    }
    if (!chunk.includes("\n")) {
      this.line += chunk;
      this.links.feed(chunk);
      return;
    }
    let from = 0;
    for (;;) {
      const end = chunk.indexOf("\n", from);
      if (end < 0) break;
      const line = this.line + chunk.slice(from, end);
      readLine(this.reading, line, 0, line.length);
      this.keepDefinitionLine(line);
      this.links.feed(chunk, from, end + 1);
      // A line that ends the paragraph, or is none of one, ends its links.
      if (this.reading.leaf?.kind !== "paragraph") this.links.reset();
      this.line = "";
      this.lineRead = undefined;
      this.codeJudged = false;
      this.blanksRead = 0;
      this.blankWidth = 0;
      this.definitionJudged = false;
      from = end + 1;
    }
    this.line += chunk.slice(from);
    this.links.feed(chunk, from);
  }

  /**
   * What to write here so that the next text starts on a line of its own
   * outside every block left open: "" when nothing is open. The unfinished
   * line is judged by what it held when first asked (a block opens at a
   * line's start). `commentsOnly`: only an open `<!--` is closed, and a
   * fence's own line, blanks that make indented code or a link reference
   * definition left (the template closes its blocks itself). Text after a fence's run on its line is the
   * opening fence's info string, or makes the closing one no closer: the
   * next text goes to a line of its own, the fence closed before it when it
   * opened here. A line CommonMark reads as a link reference definition
   * (its label, destination or title, none of which shows) is judged once,
   * with `rest`, what prints after the next text to the line's end:
   * the next text starts a paragraph of its own after a blank line.
   */
  closerHere(
    commentsOnly = false,
    at = 0,
    rest: ReadRest = () => ({ text: "", ats: [], starts: [] }),
  ): string {
    const reading = this.readingHere();
    const lines: string[] = [];
    // readLine gives a fence it opens a leaf of its own and keeps the leaf of one it reads on.
    const fenceLine =
      this.line !== "" &&
      reading.leaf !== this.reading.leaf &&
      (reading.leaf?.kind === "fence" || this.reading.leaf?.kind === "fence");
    if (fenceLine) {
      const opened = closerOf(reading);
      if (opened !== undefined) lines.push(opened);
    } else {
      const block = commentsOnly ? neverShownCloser(reading) : closerOf(reading);
      // Blanks alone before the text that make it indented code: the text goes to a line of its own.
      // Asked when the template closes its blocks too: indented code has no closer to wrap your words.
      if (block === undefined && this.indentsCode()) return "\n";
      if (block !== undefined) lines.push(block);
    }
    if (this.commentOpen && !lines[lines.length - 1]?.endsWith("-->")) lines.push("-->");
    if (lines.length > 0) return `${this.line === "" ? "" : "\n"}${lines.join("\n")}\n`;
    if (fenceLine) return "\n";
    if (this.inDefinition(reading, at, rest)) return this.line === "" ? "\n" : "\n\n";
    if (this.inLink()) return this.line === "" ? "\n" : "\n\n";
    return "";
  }

  /** Whether the next text would be in a fenced code block (the unfinished line read too). */
  inFence(): boolean {
    return this.readingHere().leaf?.kind === "fence";
  }

  /** The reading with the unfinished line read, read once a line. */
  private readingHere(): Reading {
    if (this.line === "") return this.reading;
    if (this.lineRead === undefined) {
      const line = this.line;
      this.lineRead = copyReading(this.reading, 4 * line.length + 1);
      readLine(this.lineRead, line, 0, line.length);
    }
    return this.lineRead;
  }

  /**
   * True when the next text would be in an inline link's or image's
   * destination or title the paragraph leaves open (rev57b F4:
   * `[docs](https://x.example "$ARGUMENTS")` shows your words as a tooltip at
   * most).
   */
  private inLink(): boolean {
    return this.links.open;
  }

  /**
   * True when the next text would be in a link reference definition of the
   * paragraph `reading` is in: one on this line, or one the line before began
   * (a destination or a title on the next line). `rest` is what prints from
   * the next text to the line's end (each placeholder at its value: a
   * default's `(` or `[` counts). Judged once a line, at its first text: the
   * definition's end is kept, and each later text on the line before it is
   * moved out too (a definition starting with the text itself, `${1:-[}`,
   * is left at the next one: a break before it would not end it). Reads
   * this line and the one before, never the paragraph's whole text.
   */
  private inDefinition(reading: Reading, at: number, rest: ReadRest): boolean {
    if (this.definitionJudged) return at <= this.definitionUntil;
    this.definitionJudged = true;
    this.definitionUntil = -1;
    const markers = afterMarkers(this.line, 0, this.line.length);
    const line = this.line.slice(markers);
    // Markers alone so far (`> `) read as a blank line; with the text after them the paragraph goes on.
    const leaf = (line === "" ? this.reading : reading).leaf;
    const definitions = leaf?.kind === "paragraph" && leaf.definitions !== undefined;
    if (!definitions && !(line === "" && leaf === undefined)) return false;
    const before = this.definitionLines;
    // A line that begins with the next text: a definition only when it begins with `[`.
    if (line === "" && !(definitions && before !== "") && !startsDefinition(rest)) return false;
    const printed = rest();
    const probe = `${line}${printed.text}\n`;
    let end = 0;
    if (probe.startsWith("[")) end = definitionLength(probe);
    else {
      if (!definitions || before === "") return false;
      // A title opened on an earlier line and still open at this line's end may close on a later one.
      if (definitionTitleOpen(`${before}${line}${printed.text}`)) end = Number.POSITIVE_INFINITY;
      else end = definitionLength(`${before}${probe}`) - before.length;
    }
    // The later texts on the line that start inside the definition are moved out of it too.
    for (let i = 0; i < printed.ats.length; i++) {
      if (line.length + (printed.starts[i] as number) >= end) break;
      this.definitionUntil = printed.ats[i] as number;
    }
    return end > line.length && (line !== "" || !probe.startsWith("["));
  }

  /** Keeps {@link definitionLines} with the line just read whole. */
  private keepDefinitionLine(line: string): void {
    const leaf = this.reading.leaf;
    if (leaf?.kind !== "paragraph" || leaf.definitions === undefined) {
      this.definitionLines = "";
      return;
    }
    const text = line.slice(afterMarkers(line, 0, line.length));
    if (text.startsWith("[")) this.definitionLines = `${text}\n`;
    else if (
      this.definitionLines !== "" &&
      this.definitionLines.length + text.length < MAX_DEFINITION_LINES_CHARS
    )
      this.definitionLines += `${text}\n`;
    else this.definitionLines = "";
  }

  /**
   * True when the unfinished line is spaces and tabs (after any block quote
   * or list markers) that make what follows them indented code. Asked again while the line stays blanks (`${1:-  }${2:-  }$3`
   * reaches four only at `$3`); a leaf open before the line (a paragraph goes
   * on lazily, a fence or HTML block holds the line) never gives way to
   * indented code, so the line is read again only where the blanks can make
   * it, and the line breaks there: each blank is read a bounded number of times.
   */
  private indentsCode(): boolean {
    const line = this.line;
    if (line === "" || this.commentOpen || this.codeJudged) return false;
    if (this.reading.leaf !== undefined) {
      this.codeJudged = true;
      return false;
    }
    // Container markers may come first (`>     `, `-     `: rev56c F7); four columns of blanks after them are needed.
    let width = this.blankWidth;
    for (let at = this.blanksRead; at < line.length; at++) {
      const code = line.charCodeAt(at);
      if (code === SPACE) width++;
      else if (code === TAB) width += 4;
      else if (isMarkerCharacter(code)) width = 0;
      else {
        this.codeJudged = true;
        return false;
      }
    }
    this.blanksRead = line.length;
    this.blankWidth = width;
    if (width < 4) return false;
    const probe = copyReading(this.reading, 4 * line.length + 5);
    const text = `${line}x`;
    readLine(probe, text, 0, text.length);
    return probe.leaf === undefined;
  }
}
