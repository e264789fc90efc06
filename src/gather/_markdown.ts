/**
 * The little Markdown that gathering needs: blank lines, paragraphs and list
 * items, around the fenced code blocks of `src/_fence.ts`. Every function here
 * is a single left-to-right pass with plain character tests (no regular
 * expressions), so its cost is linear in the text whatever the text is.
 */

import { closesFence, type Fence, fenceOpener, isBlank } from "../_fence.js";

export { closesFence, type Fence, fenceOpener, isBlank } from "../_fence.js";

/** Calls `visit(from, to)` for each line (without its `\n`), in order. */
export function forEachLine(text: string, visit: (from: number, to: number) => void): void {
  let from = 0;
  for (;;) {
    const nl = text.indexOf("\n", from);
    const to = nl === -1 ? text.length : nl;
    visit(from, to);
    if (nl === -1) return;
    from = nl + 1;
  }
}

/**
 * Paragraphs: runs of lines separated by blank lines, never split inside a
 * fenced code block (an unclosed fence runs to the end), each trimmed; empty
 * ones are left out.
 */
export function splitParagraphs(text: string): string[] {
  return paragraphSpans(text).map(([from, to]) => text.slice(from, to).trim());
}

/**
 * Where each paragraph of {@link splitParagraphs} stands in `text`: `[from,
 * to)` of its lines, untrimmed (an indented first line keeps its indent), so
 * that a text can be rebuilt without some of its paragraphs.
 */
export function paragraphSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let fence: Fence | undefined;
  const flush = (end: number) => {
    if (!isBlankText(text, start, end)) out.push([start, end]);
  };
  forEachLine(text, (from, to) => {
    if (fence) {
      if (closesFence(text, from, to, fence)) fence = undefined;
      return;
    }
    fence = fenceOpener(text, from, to);
    if (!fence && isBlank(text, from, to)) {
      flush(from);
      start = to;
    }
  });
  flush(text.length);
  return out;
}

/** True when `text[from, to)` holds only white space (line breaks included). */
function isBlankText(text: string, from: number, to: number): boolean {
  return text.slice(from, to).trim() === "";
}

/**
 * Offset just past a list marker at `text[from, to)` (`-`, `*`, `+`, or up to
 * nine digits and `.` or `)`, then a space or tab), after any indentation; -1
 * when the line is not a list item.
 */
export function listItemStart(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && (text[i] === " " || text[i] === "\t")) i++;
  const c = text[i];
  if (c === "-" || c === "*" || c === "+") {
    i++;
  } else {
    const digits = i;
    while (i < to && i - digits < 10 && isDigit(text[i])) i++;
    if (i === digits || i - digits > 9 || (text[i] !== "." && text[i] !== ")")) return -1;
    i++;
  }
  if (i < to && text[i] !== " " && text[i] !== "\t") return -1;
  return i;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/**
 * The text of every list item outside fenced code, trimmed: the marker's line
 * plus the lines that continue it (not blank, not a new item, heading or fence).
 */
export function listItems(text: string): string[] {
  const out: string[] = [];
  let fence: Fence | undefined;
  let item: string[] | undefined;
  const flush = () => {
    if (item) out.push(item.join(" ").trim());
    item = undefined;
  };
  forEachLine(text, (from, to) => {
    if (fence) {
      if (closesFence(text, from, to, fence)) fence = undefined;
      return;
    }
    fence = fenceOpener(text, from, to);
    if (fence || isBlank(text, from, to)) return flush();
    const marker = listItemStart(text, from, to);
    if (marker >= 0) {
      flush();
      item = [text.slice(marker, to).trim()];
    } else if (item && text.slice(from, to).trimStart()[0] !== "#") {
      item.push(text.slice(from, to).trim());
    } else {
      flush();
    }
  });
  flush();
  return out.filter((i) => i !== "");
}
