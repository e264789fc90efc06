/**
 * GFM tables, read only as far as placing a value in one needs: a table is a
 * header row (a paragraph's last line), a delimiter row (`| --- | :-: |`) and
 * the rows after them to a blank line or a block's start; a row's line break
 * ends its row and a `|` not escaped starts a cell, so a value printed in a row
 * is written as one cell (review rev64c F6).
 */

import { isAsciiPunctuation } from "./_blocks.js";

const SPACE = 0x20;
const TAB = 0x09;
const PIPE = 0x7c;
const DASH = 0x2d;
const COLON = 0x3a;
const BACKSLASH = 0x5c;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const VERTICAL_TAB = 0x0b;
const FORM_FEED = 0x0c;

/**
 * Whether `code` is a blank in a delimiter row as cmark-gfm reads one: its
 * table scanner's `spacechar` is space, tab, vertical tab and form feed
 * (markdown-it's, space and tab), so `|-\f|-|` is a delimiter row on GitHub
 * (review rev66f F2). A CR is one too (a line ended by CR LF). Only for the
 * row's own characters: a line of `\f` alone is no blank line to either.
 */
export function isRowBlank(code: number): boolean {
  return (
    code === SPACE ||
    code === TAB ||
    code === VERTICAL_TAB ||
    code === FORM_FEED ||
    code === CARRIAGE_RETURN
  );
}

/**
 * Whether the line `text[from, to)` (to its line break or `to`) may be a
 * table's delimiter row: after blanks, only `|`, `-`, `:` and blanks
 * ({@link isRowBlank}), with a `-` and a `|` or `:` (a run of `-` alone is a
 * setext underline or a thematic break). Read liberally: the cell counts are
 * not compared, so a value is written as a cell where a renderer may not see
 * a table.
 */
export function delimiterRowAt(text: string, from: number, to: number): boolean {
  let dash = false;
  let mark = false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === LINE_FEED || code === CARRIAGE_RETURN) break;
    if (code === DASH) dash = true;
    else if (code === PIPE || code === COLON) mark = true;
    else if (!isRowBlank(code)) return false;
  }
  return dash && mark;
}

/**
 * `value` written as one cell of a table row: each line break (LF, CR, CRLF)
 * as `<br>`, each `|` not escaped as `\|` (GFM reads a backslash before it
 * whatever inline span holds it). `atStart`: the value starts the row's
 * line (or the first line of a list item or quote holding the table), so its
 * blanks are left out there (four would make indented code) and its first
 * character, when ASCII punctuation, is written escaped (`\#`, `\-`, `\>`,
 * `\<`: a block's start would end the table). A value ending in a backslash
 * gets a space after it: the `|` after it is yours in every renderer.
 */
export function asCell(value: string, atStart: boolean): string {
  const parts: string[] = [];
  let from = 0;
  if (atStart) {
    while (from < value.length && isBlankCode(value.charCodeAt(from))) from++;
    if (isAsciiPunctuation(value.charCodeAt(from))) {
      parts.push("\\");
    }
  }
  let copied = from;
  let backslashes = 0;
  for (let i = from; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === PIPE && backslashes % 2 === 0) {
      parts.push(value.slice(copied, i), "\\");
      copied = i;
    } else if (code === LINE_FEED || code === CARRIAGE_RETURN) {
      // A backslash left before it would make `<br>` text.
      parts.push(value.slice(copied, i), backslashes % 2 === 1 ? " <br>" : "<br>");
      if (code === CARRIAGE_RETURN && value.charCodeAt(i + 1) === LINE_FEED) i++;
      copied = i + 1;
    }
    backslashes = code === BACKSLASH ? backslashes + 1 : 0;
  }
  parts.push(value.slice(copied));
  // A backslash at its end would escape what your template writes next, the cell's own `|`
  // (rev65b F3): an odd run for cmark-gfm, any for markdown-it, which looks at one character.
  if (backslashes > 0) parts.push(" ");
  return parts.join("");
}

function isBlankCode(code: number): boolean {
  return code === SPACE || code === TAB;
}
