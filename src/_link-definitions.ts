/**
 * A repository's link reference definitions, made text. CommonMark resolves a
 * label to its first definition anywhere in the document (case folded, before
 * or after the use), so a repository's `[DEPLOY]: https://evil` defined the
 * link your own section defines later, and its `[release]: …` made a bracketed
 * word of your `AGENTS.md` a link (review rev64c F9).
 */

import { afterMarkers, eachLine, freshReading, PARAGRAPH, readLine } from "./_blocks.js";

const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LINE_FEED = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const LESS_THAN = 0x3c;

/**
 * `text` with the `[` of each line that may start a link reference definition
 * written `\[`: a line CommonMark reads as text of a paragraph that may hold
 * definitions (one starting with `[`, in a block quote or a list item too; not
 * in fenced or indented code or an HTML block, where none is one), whose `[`
 * opens a label that ends with `]:` or goes on past the line (a label or a
 * destination over several lines). The text reads the same (`\[` is `[`) and
 * defines no label. An inline link `[x](url)` or reference `[x][y]` at a
 * paragraph's start is left as written. The lines after an escaped one are
 * read as escaped text goes on (rev65b F6: `\[a]: /a` is text, so `===` under
 * it makes a heading, and a `[deploy]: …` after it starts a paragraph). Any
 * other line outside fenced code (a paragraph's later lines too) whose `[`,
 * after blanks and quote or list markers, opens such a label is escaped as
 * well (in an HTML block too, and in indented code after a `>`): another
 * reader may start a block there (rev66f F3). Linear: one block
 * reading, each line scanned once.
 */
export function withoutLinkDefinitions(text: string): string {
  if (!text.includes("[")) return text;
  const reading = freshReading();
  const at: number[] = [];
  eachLine(text, (from, to) => {
    const before = reading.leaf;
    const had = before?.kind === "paragraph" ? (before.definitions?.length ?? 0) : 0;
    const closer = readLine(reading, text, from, to);
    const leaf = reading.leaf;
    if (leaf?.kind === "paragraph" && leaf.definitions) {
      // The paragraph's lines as CommonMark keeps them, each ended by a line feed: this line's
      // is the last, after its markers. Told by lengths (the text is not read: a long paragraph
      // would be read again at each line): a line that goes on the paragraph, or starts it.
      const length = leaf.definitions.length;
      for (const own of had > 0 && length > had ? [length - had - 1, length - 1] : [length - 1]) {
        const start = to - own;
        const opens = own > 0 && start >= from && text.charCodeAt(start) === OPEN_BRACKET;
        if (opens && opensLabel(text, start + 1, to)) {
          at.push(start);
          // Read on as escaped (rev65b F6): a paragraph it started is text now, so a `===`
          // under it makes a heading and the line after starts a paragraph of its own. (One
          // escaped after the paragraph's start is in a paragraph that holds no definition.)
          if (own === length - 1) reading.leaf = PARAGRAPH;
          return;
        }
      }
    }
    // Any other line outside fenced code too (rev66f F3): another reader may start a block
    // where CommonMark does not (markdown-it ends a table at an indented line or an item, goes
    // on in a quote at an indented `>`, and reads an HTML block as text with `html: false`).
    // Indented code is code to markdown-it too, unless a `>` comes before it (a quote
    // markdown-it goes on at an indented `>`).
    const fence = leaf?.kind === "fence" || (closer && before?.kind === "fence");
    if (fence) return;
    const start = afterMarkers(text, from, to);
    if (text.charCodeAt(start) !== OPEN_BRACKET) return;
    if (leaf === undefined && !text.slice(from, start).includes(">")) return;
    if (opensLabel(text, start + 1, to)) at.push(start);
  });
  if (at.length === 0) return text;
  const parts: string[] = [];
  let copied = 0;
  for (const start of at) {
    parts.push(text.slice(copied, start), "\\");
    copied = start;
    // Its destination in angle brackets on the label's line is a URL: made text with the label,
    // not a tag (rev101b F3: `\[spec]: <table>` was a live table in a paragraph).
    const lt = angleDestinationOnLine(text, start);
    if (lt !== -1) {
      parts.push(text.slice(copied, lt), "&lt;");
      copied = lt + 1;
    }
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

/** The `<` of a destination in angle brackets after the label opened at `start` and its `]:`, on its line and after blanks only; -1 when none. */
function angleDestinationOnLine(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === LINE_FEED || code === OPEN_BRACKET) return -1;
    else if (code === CLOSE_BRACKET) {
      if (text.charCodeAt(i + 1) !== COLON) return -1;
      let at = i + 2;
      while (text.charCodeAt(at) === SPACE || text.charCodeAt(at) === TAB) at++;
      return text.charCodeAt(at) === LESS_THAN ? at : -1;
    }
  }
  return -1;
}

/** Whether the label opened just before `from` ends in `]:` on the line `[from, to)`, or runs past it. */
function opensLabel(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) i++;
    else if (code === OPEN_BRACKET) return false;
    else if (code === CLOSE_BRACKET) return text.charCodeAt(i + 1) === COLON;
  }
  return true;
}

/**
 * {@link withoutLinkDefinitions} for a value of several lines (a project's
 * `vars:` value, a tool's description): its lines after the first are read
 * from a block start of their own as well. Your template may print the value
 * where its first line ends with your line (`## Team {{vars.team}}`, a table
 * row): its second line then starts a paragraph, where read whole it went on
 * the first line's (review rev65b F2: `core\n[deploy]: evil` defined the label
 * your section's `[deploy]` link takes). Those lines are escaped first, then
 * the whole is read with their escapes in it, so neither reading defines a
 * label. Linear: two readings.
 */
export function valueWithoutLinkDefinitions(text: string): string {
  const end = text.indexOf("\n");
  if (end === -1 || !text.includes("[", end)) return withoutLinkDefinitions(text);
  const after = text.slice(end + 1);
  const apart = withoutLinkDefinitions(after);
  return withoutLinkDefinitions(apart === after ? text : text.slice(0, end + 1) + apart);
}
