import { eachLine } from "../_blocks.js";
import { codeBlocks, isFence } from "../sections/user-text.js";
import { HiddenRuns, MARKDOWN_JUDGED } from "./_hidden-runs.js";

/**
 * Each closer is one run or start tag ended (`<div hidden title="`: the
 * quote, the tag, the element), so a few suffice.
 */
const MAX_CLOSERS = 4;

/**
 * `text` with the closers, each on a line of its own (`withLine`), of what
 * it leaves open at its end that no reader shows ({@link HiddenRuns}, the
 * slash-template argument guard's reader: an element with `hidden`, a
 * `<template>`, `<details>`, a hiding style, a start tag not yet ended), so
 * that nothing after it is read inside. `withLine` is `_fence.ts`'s, given by
 * its one caller, `closeOpenBlocks`, after the Markdown blocks are closed. A repository's `AGENTS.md` ending in
 * `<div hidden>` put your skills and every later section in the hidden
 * element (review rev57b F9). Linear: the text is read once.
 */
export function closeHiddenRuns(
  text: string,
  withLine: (text: string, line: string) => string,
): string {
  if (!text.includes("<")) return text;
  const runs = new HiddenRuns();
  runs.feed(endTagsInCodeMuted(text));
  let out = text;
  // What is kept: up to the last end tag of an element no reader shows. A start tag's
  // closer alone (`<instructi` where a cap cut the text) is not added: nothing it opens is hidden.
  let kept = text;
  for (let i = 0; i < MAX_CLOSERS; ) {
    const closer = runs.closer();
    if (closer === "") break;
    if (MARKDOWN_JUDGED.has(closer)) {
      // The Markdown closing before this one (`closeOpenComment`) judged a comment, CDATA
      // or `<?…` as CommonMark reads it: one still open is text (`a <?x` mid-line), and
      // what follows it is read again (rev58b F3: an element opened after it was left open).
      if (runs.textAfterOpenRun()) continue;
      break;
    }
    const next = withLine(out, closer);
    runs.feed(next.slice(out.length));
    out = next;
    if (closer.startsWith("</")) kept = out;
    i++;
  }
  return kept;
}

/**
 * `text` with the `/` of each `</` in code (fenced code, a code span, a line
 * indented four columns or more) written as a space, the same length: an end
 * tag there ends nothing for a reader of the Markdown (rev58f F1: a `</div>`
 * in a fence or a code span was taken as the end of a repository's
 * `<div hidden>`). Start tags are left alone: a line read as code by mistake
 * then costs one closer too many, never one too few. Linear.
 */
export function endTagsInCodeMuted(text: string): string {
  if (!text.includes("</")) return text;
  const muted: number[] = [];
  // Fences only: an HTML block of kinds 1-5 (`<script>` …) ends at its own end tag, read as it is.
  const blocks = codeBlocks(text, isFence);
  for (let i = 0; i < blocks.length; i += 2)
    muteIn(text, blocks[i] as number, blocks[i + 1] as number, muted);
  // The next `</` from the line read: looked for again only once passed (linear).
  let next = text.indexOf("</");
  eachLine(text, (from, to) => {
    if (next !== -1 && next < from) next = text.indexOf("</", from);
    if (next !== -1 && next < to && indentOf(text, from, to) >= 4) muteIn(text, from, to, muted);
  });
  for (const [from, to] of codeSpans(text)) muteIn(text, from, to, muted);
  if (muted.length === 0) return text;
  const chars = text.split("");
  for (const at of muted) chars[at + 1] = " ";
  return chars.join("");
}

/** Adds the offsets of the `</` in `text` from `from` to `to` to `muted`. */
function muteIn(text: string, from: number, to: number, muted: number[]): void {
  for (let at = text.indexOf("</", from); at !== -1 && at < to; at = text.indexOf("</", at + 2))
    muted.push(at);
}

/** The columns of spaces and tabs a line starts with (a tab to the next multiple of four). */
function indentOf(text: string, from: number, to: number): number {
  let column = 0;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x20) column++;
    else if (code === 0x09) column += 4 - (column % 4);
    else break;
  }
  return column;
}

/**
 * The code spans of `text` as [from, to] pairs: a run of backticks to the
 * next run of the same length, within one paragraph (no blank line between).
 * Linear: each paragraph's runs are paired through the next run of each length.
 */
function codeSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  const breaks = /\n[ \t]*\n/g;
  let start = 0;
  for (;;) {
    const blank = breaks.exec(text);
    const end = blank === null ? text.length : blank.index;
    spansIn(text, start, end, spans);
    if (blank === null) break;
    start = blank.index + blank[0].length;
    // Its last line break may begin the next blank line.
    breaks.lastIndex = start - 1;
  }
  return spans;
}

/** Adds the code spans of the paragraph from `from` to `to` to `spans`. */
function spansIn(text: string, from: number, to: number, spans: [number, number][]): void {
  const tick = text.indexOf("`", from);
  if (tick === -1 || tick >= to) return;
  const runs: { at: number; length: number }[] = [];
  const pattern = /`+/g;
  pattern.lastIndex = tick;
  for (let m = pattern.exec(text); m !== null && m.index < to; m = pattern.exec(text))
    runs.push({ at: m.index, length: m[0].length });
  // The next run of the same length after each run.
  const nextSame = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const length = (runs[i] as { length: number }).length;
    nextSame[i] = seen.get(length) ?? -1;
    seen.set(length, i);
  }
  for (let i = 0; i < runs.length; ) {
    const j = nextSame[i] as number;
    if (j === -1) {
      i++;
      continue;
    }
    spans.push([(runs[i] as { at: number }).at, (runs[j] as { at: number }).at]);
    i = j + 1;
  }
}
