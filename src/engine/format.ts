import { freshReading, readLine } from "../_blocks.js";

const SPACE = 0x20;
const TAB = 0x09;

// Everything below scans with charCodeAt instead of regular expressions: a
// section's text includes context files from the project, and patterns such as
// /[ \t]+$/ backtrack quadratically on a long run of spaces followed by
// another character. Each line is read a bounded number of times.

/** Where the line [start, end) ends without its trailing spaces and tabs. */
function trimmedEnd(text: string, start: number, end: number): number {
  let at = end;
  while (at > start) {
    const code = text.charCodeAt(at - 1);
    if (code !== SPACE && code !== TAB) break;
    at--;
  }
  return at;
}

/**
 * Normalises CRLF/CR to LF, trims trailing spaces and tabs on each line and
 * collapses runs of blank lines to one blank line — outside fenced code blocks
 * only, since whitespace inside a code sample can be meaningful; an unclosed
 * fence runs to the end. The blocks are read with the reader that judges a
 * text closed (`readLine`, src/_blocks.ts): before (rev53c F4), fence lines
 * were matched on their own, so a repository's `<!--` / ```` ``` ```` / `-->`
 * before your text in a section (a comment CommonMark and the closers read as
 * comment text) left the pass thinking a fence open, and your own code
 * block's blank lines were collapsed. The start and end of the whole text
 * are not trimmed.
 *
 * Lines are walked by offset and only the changed places are copied: a
 * section is mostly inserted context files that need no change, and a text
 * that needs none is returned as it is.
 */
export function formatPrompt(input: string): string {
  const text = input.includes("\r") ? input.replace(/\r\n?/g, "\n") : input;
  const length = text.length;
  /** Pieces of the result so far; the text from `copied` on is still to be copied. */
  let pieces: string[] | undefined;
  let copied = 0;
  // The text's blocks as the closers read them (src/_blocks.ts): a fence line inside an
  // HTML comment or block is no fence, and a fence in a list item ends with the item.
  // Without a run of three backticks or tildes no line opens a fence: nothing to read.
  const reading = text.includes("```") || text.includes("~~~") ? freshReading() : undefined;
  let previousBlank = false;
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? length : newline;
    const contentEnd = trimmedEnd(text, start, end);
    const before = reading?.leaf;
    if (reading !== undefined) readLine(reading, text, start, end);
    if (before?.kind === "fence") {
      // A line of the code block is kept as it is; the line that closes it is trimmed.
      if (reading?.leaf !== before && contentEnd < end) cut(contentEnd, end);
      previousBlank = false;
    } else {
      const blank = contentEnd === start;
      // What follows the final newline is not a line of its own: dropping it
      // would eat the newline that ends the blank line before it.
      if (blank && previousBlank && newline >= 0) {
        cut(start, newline + 1);
      } else {
        if (contentEnd < end) cut(contentEnd, end);
        previousBlank = blank;
      }
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  if (pieces === undefined) return text;
  pieces.push(text.slice(copied));
  return pieces.join("");

  /** Leaves out [from, to) of `text`. */
  function cut(from: number, to: number): void {
    pieces ??= [];
    if (from > copied) pieces.push(text.slice(copied, from));
    copied = to;
  }
}
