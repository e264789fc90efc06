import { endTagsInCodeMuted } from "../sections/user-text.js";
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
  const out = closedAsRead(text, text, withLine);
  // Read again with each comment, CDATA, `<?…` or declaration that starts mid-line read as text:
  // a Markdown reader takes one as raw HTML only within its paragraph, so an element between
  // it and a closer some paragraphs on is real (rev59b F3: `a <?x` … `<div hidden>` … `?>`).
  // Closers both readings ask for are added; one too many closes nothing.
  const again = midLineRunsAsText(out);
  return again === out ? out : closedAsRead(out, again, withLine);
}

/** `text` with the closers of what `read` (text itself, or a reading of it of the same length) leaves open. */
function closedAsRead(
  text: string,
  read: string,
  withLine: (text: string, line: string) => string,
): string {
  const runs = new HiddenRuns();
  runs.feed(endTagsInCodeMuted(read));
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
 * `text` with the `<` of each `<!` or `<?` that does not start a line (past
 * up to three spaces) written as a space, the same length: CommonMark reads
 * one as raw HTML only to its closer within its paragraph, and as an HTML
 * block (to its closer, across blank lines) only at a line's start. Linear.
 */
export function midLineRunsAsText(text: string): string {
  if (!text.includes("<!") && !text.includes("<?")) return text;
  const chars = text.split("");
  let changed = false;
  let lineStart = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0a) {
      lineStart = at + 1;
      continue;
    }
    if (code !== 0x3c) continue;
    const next = text.charCodeAt(at + 1);
    if (next !== 0x21 && next !== 0x3f) continue;
    if (at - lineStart <= 3 && text.slice(lineStart, at).trim() === "") continue;
    chars[at] = " ";
    changed = true;
  }
  return changed ? chars.join("") : text;
}
