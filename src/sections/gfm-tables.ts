/**
 * GFM tables in a text that is not yours, read as a GFM renderer (cmark-gfm,
 * markdown-it, VS Code's preview) reads them where CommonMark does not: it
 * splits a row's cells at every `|` not escaped, inside a code span too, and
 * a table's header row ends the paragraph before it. The closers at a text's
 * end and their check read CommonMark only (`followingShown`), so a row
 * ``| `x | </table><div hidden>` |`` (text to CommonMark: a code span) or a
 * tag's quoted attribute across the rows (`x <span title="` … `">`) was raw
 * `</table><div hidden>` to GFM, hiding every section after the text
 * (review rev65b F1).
 */

import { isRowBlank } from "../_table-rows.js";

const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const PIPE = 0x7c;
const DASH = 0x2d;
const COLON = 0x3a;
const GREATER_THAN = 0x3e;

/**
 * `text` with each `<` written `&lt;` in every run of lines (to a blank line)
 * that holds a line a GFM renderer may read as a table's delimiter row
 * ({@link mayBeDelimiterRow}): the table, and the paragraph its header row
 * interrupts, are then markup-free in every reading, and a table needs no
 * raw HTML. Read liberally (a fence's lines are escaped too: `&lt;` opens
 * nothing anywhere). `mayPrintRow`: a line that may print a delimiter row
 * (a slash template's placeholder line: its default or your words), counted
 * only in a run that holds a `|`. Lines end at LF, CR or CR LF. Linear.
 * Returned as it is when nothing changes.
 */
export function tableRunsAsText(text: string, mayPrintRow?: (line: string) => boolean): string {
  if (!text.includes("<") || (mayPrintRow === undefined && !text.includes("-"))) return text;
  let out = "";
  let copied = 0;
  eachTableRun(text, true, mayPrintRow, (runStart, end) => {
    const lines = text.slice(runStart, end);
    if (lines.includes("<")) {
      out += `${text.slice(copied, runStart)}${lines.replaceAll("<", "&lt;")}`;
      copied = end;
    }
  });
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Where a GFM renderer may read rows of a table's body in `text` (a message
 * read from a blank line: a slash template's expansion), as
 * {@link tableRunsAsText} judges a run: for each run of lines that may be a
 * table, from the line after its first line that may be a delimiter row
 * under a line of the run, to the run's end; flat pairs `[from, to)` in
 * order. Words printed there are a cell of a row (or a row of their own),
 * and a renderer drops every cell past the header's count (review rev92c F5);
 * in the header row or before it they show or make no table. `mayPrintRow`:
 * a line that may print any delimiter row (a default's, review rev93h F1):
 * past a run's first line it may be one, under any header. Linear.
 */
export function tableBodies(text: string, mayPrintRow?: (line: string) => boolean): number[] {
  const bodies: number[] = [];
  if (!text.includes("-") && mayPrintRow === undefined) return bodies;
  eachTableRun(
    text,
    false,
    mayPrintRow,
    (_start, end, body) => {
      if (body < end) bodies.push(body, end);
    },
    true,
  );
  return bodies;
}

/**
 * Reads `text`'s runs of lines (to a blank line) as {@link TableRun}s and
 * calls `found` with each that may be a table: its start, its end, and where
 * the line after its first possible delimiter row under a line of the run
 * starts (its end when none). `first`: a run's first line may follow a line
 * before the text ({@link TableRun}). Lines end at LF, CR or CR LF.
 */
function eachTableRun(
  text: string,
  first: boolean,
  mayPrintRow: ((line: string) => boolean) | undefined,
  found: (start: number, end: number, body: number) => void,
  anyRow = false,
): void {
  let run: TableRun | undefined;
  let runStart = -1;
  let body = -1;
  const endRun = (end: number) => {
    if (run?.mayBeTable()) found(runStart, end, body < 0 ? end : body);
    run = undefined;
  };
  const lineEnds = /\r\n?|\n/g;
  for (let from = 0; from <= text.length; ) {
    lineEnds.lastIndex = from;
    const end = lineEnds.exec(text);
    const to = end === null ? text.length : end.index;
    const next = end === null ? text.length + 1 : end.index + end[0].length;
    if (isBlank(text, from, to)) {
      if (run !== undefined) endRun(from);
    } else {
      if (run === undefined) {
        run = new TableRun(first);
        runStart = from;
        body = -1;
      } else if (
        body < 0 &&
        (mayBeDelimiterRow(text, from, to) !== undefined ||
          (anyRow && mayPrintRow?.(text.slice(from, to))))
      ) {
        body = Math.min(next, text.length);
      }
      run.read(text, from, to, mayPrintRow, anyRow);
    }
    from = next;
  }
  if (run !== undefined) endRun(text.length);
}

/**
 * Whether `text`'s last run of lines (after its last blank line) may be read
 * by a GFM renderer as a table, or as a table's header and delimiter rows, as
 * {@link tableRunsAsText} judges a run: words a template prints right after
 * the text, on its last line or the next, are then a cell of its last row (or
 * a row of their own), and a renderer drops every cell past the header's
 * count (review rev70a F6, rev68f F2). Linear in that run.
 */
export function endsInTableRun(text: string): boolean {
  if (!text.includes("-")) return false;
  // Its last line, then back to the line after the last blank one.
  let start = text.lastIndexOf("\n", text.length - 1) + 1;
  if (isBlank(text, start, text.length)) return false;
  while (start > 0) {
    const before = text.lastIndexOf("\n", start - 2) + 1;
    if (isBlank(text, before, start - 1)) break;
    start = before;
  }
  // A run of `-` first is a delimiter row only under the line before the text (a thematic
  // break after a blank line of its own).
  const run = new TableRun(start === 0);
  const lineEnds = /\r\n?|\n/g;
  for (let from = start; from < text.length; ) {
    lineEnds.lastIndex = from;
    const end = lineEnds.exec(text);
    const to = end === null ? text.length : end.index;
    if (!isBlank(text, from, to)) run.read(text, from, to);
    from = end === null ? text.length : end.index + end[0].length;
  }
  return run.mayBeTable();
}

/** One run of lines (to a blank line) as {@link tableRunsAsText} reads it for a table. */
class TableRun {
  /** `first`: whether its first line may follow a line before the text (a template's own). */
  constructor(private first = true) {}

  private table = false;
  private dashes = false;
  private pipe = false;

  /**
   * Reads the run's next line `text[from, to)`; `mayPrintRow`: {@link tableRunsAsText}'s
   * (`anyRow`: {@link tableBodies}', a line that may print a marked row).
   */
  read(
    text: string,
    from: number,
    to: number,
    mayPrintRow?: (line: string) => boolean,
    anyRow = false,
  ): void {
    const row = mayBeDelimiterRow(text, from, to);
    if (row === "marked" || (row === "dashes" && this.first)) this.table = true;
    if (row === undefined && mayPrintRow?.(text.slice(from, to))) {
      this.dashes = true;
      // One it prints may be a marked row (`| --- |`), a table under a header with no `|`.
      if (anyRow && !this.first) this.table = true;
    } else if (row === "dashes") this.dashes = true;
    if (!this.pipe && text.slice(from, to).includes("|")) this.pipe = true;
    this.first = false;
  }

  /**
   * A run of `-` alone is a delimiter row under a header with a `|`, or under
   * the line before the text (a template's own) when it is the run's first line.
   */
  mayBeTable(): boolean {
    return this.table || (this.dashes && this.pipe);
  }
}

/** Whether the line `text[from, to)` holds only blanks (a CR too). */
function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== TAB && code !== CARRIAGE_RETURN) return false;
  }
  return true;
}

/**
 * Whether the line `text[from, to)` may be a delimiter row (in block quotes
 * too): only `|`, `-`, `:`, `>` and blanks (cmark-gfm's: a vertical tab and a
 * form feed too, {@link isRowBlank}), with a `-`; "marked" with a `|`
 * or `:`, "dashes" without (a setext underline or thematic break, or a
 * delimiter row under a header that has a `|`). The cell counts are not
 * compared: more is escaped than a renderer reads as a table.
 */
function mayBeDelimiterRow(
  text: string,
  from: number,
  to: number,
): "marked" | "dashes" | undefined {
  let dash = false;
  let mark = false;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === DASH) dash = true;
    else if (code === PIPE || code === COLON) mark = true;
    else if (code !== GREATER_THAN && !isRowBlank(code)) return undefined;
  }
  return !dash ? undefined : mark ? "marked" : "dashes";
}
