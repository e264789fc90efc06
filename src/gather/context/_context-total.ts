import { closeOpenBlocks } from "../../_fence.js";
import { printedHead, printedLength } from "../../_prompt-text.js";
import type { ContextFile } from "../../data.js";
import type { HtmlFallback } from "../../prompt-templates/hidden-closers.js";
import { charBoundary, humanBytes } from "../../repo-files/index.js";
import type { Diagnostic } from "../../types.js";

/**
 * Default cap of all context files together, imports included (`maxTotalBytes`).
 * Each file is capped at 256 KiB on its own, but one file may import a hundred
 * more and every ancestor folder may hold one: without a total, a hostile
 * checkout could fill the prompt (and the memory) with gigabytes.
 */
export const DEFAULT_MAX_TOTAL_CONTEXT_BYTES = 2 * 1024 * 1024;

/** The line that ends a file cut by the total cap. */
export function totalCutMarker(omitted: number, maxTotalBytes: number): string {
  return `[… ${humanBytes(omitted)} (${omitted} bytes) more of this file left out: context files together are capped at ${humanBytes(maxTotalBytes)}]`;
}

/**
 * Cuts `files` (in prompt order) to `maxTotalBytes` of content together,
 * counted as printed ({@link printedLength}: a `<` as the `&lt;` it may become;
 * with `escaped`, the texts are already as printed by it, and their bytes
 * count; a cut head is escaped again and measured after, {@link cutHead}). The
 * room goes first to the user's own files, then to the repository's from the
 * last in prompt order back (the closest to the working directory, which win
 * on conflicts); the first file that does not fit is cut at a UTF-8 boundary
 * and the ones after it in that order keep only the marker line, so the
 * model still sees which files exist. Each cut file gets a warning, and
 * `cut` holds its index.
 */
export function capTotal<T extends ContextFile>(
  files: readonly T[],
  maxTotalBytes: number,
  escaped?: (text: string, file: T) => string,
): { files: T[]; diagnostics: Diagnostic[]; cut: number[] } {
  const order = files
    .map((f, i) => ({ f, i }))
    .sort((a, b) => rank(a.f) - rank(b.f) || b.i - a.i)
    .map(({ i }) => i);
  const out = [...files];
  const cuts = new Map<number, Diagnostic>();
  let room = maxTotalBytes;
  for (const i of order) {
    const file = files[i];
    if (file === undefined) continue;
    // The total is spent: the file keeps its marker line, and is not read (each reading of a
    // file past the total cost as much as one that fits, review rev78b F1).
    const spent = room === 0 && file.content !== "";
    // Counted as printed: a `<` the prompt may escape as `&lt;` is four bytes (a project
    // section named `a` makes `<a` a tag: 2 MiB of `<a` printed 5 MiB).
    const printed = spent
      ? 1
      : escaped
        ? Buffer.byteLength(file.content)
        : printedLength(file.content, "element");
    if (printed <= room) {
      room -= printed;
      continue;
    }
    const bytes = Buffer.byteLength(file.content);
    const [head, kept] = spent
      ? ["", ""]
      : cutHead(file.content, room, escaped && ((text) => escaped(text, file)));
    room = 0;
    const omitted = bytes - Buffer.byteLength(head);
    let fallback: HtmlFallback | undefined;
    const marker = totalCutMarker(omitted, maxTotalBytes);
    out[i] = { ...file, content: withMarker(kept, marker, (f) => (fallback = f)) };
    cuts.set(i, {
      level: "warning",
      code: "context-total-cut",
      message: `cut after ${bytes - omitted} of ${bytes} bytes: the context files together are capped at ${maxTotalBytes} bytes, and the user's file and the later files (closer to the working directory) come first${fallback === undefined ? "" : `; ${cutFallbackWords(fallback)}`}`,
      path: file.path,
    });
  }
  // Diagnostics in prompt order, like every other context diagnostic.
  const inOrder = [...cuts].sort((a, b) => a[0] - b[0]);
  return { files: out, diagnostics: inOrder.map(([, d]) => d), cut: inOrder.map(([i]) => i) };
}

/**
 * The head of `text` a total keeps in `room` bytes as printed
 * ({@link printedHead}), and that head as given. With `escaped` (the text was
 * escaped as it was loaded), the head is escaped again, since a cut can
 * complete a tag (`<instructionsX …>` cut after `<instructions`), and
 * measured after: escaping twice changes nothing else (review rev56b F1), so
 * the cut moves back by what that escape added, a few times at most, then to
 * where every opener counts as the `&lt;` it may become.
 */
function cutHead(
  text: string,
  room: number,
  escaped?: (text: string) => string,
): [head: string, kept: string] {
  if (escaped === undefined) {
    const head = printedHead(text, room);
    return [head, head];
  }
  let fit = room;
  for (let tries = 0; tries < MAX_RECUTS; tries++) {
    const head = printedHead(text, fit, true);
    const kept = escaped(head);
    const over = Buffer.byteLength(kept) - room;
    if (over <= 0) return [head, kept];
    fit -= over;
  }
  const head = printedHead(text, room);
  return [head, escaped(head)];
}

/** The most cuts {@link cutHead} tries before it counts each opener as `&lt;`. */
const MAX_RECUTS = 4;

function rank(file: ContextFile): number {
  return file.origin === "user" ? 0 : 1;
}

/**
 * How a host counts a text it keeps only so much of: its unit in a
 * diagnostic's words, the size of a text, and the longest head of a text
 * within a room (never between the two halves of a surrogate pair).
 */
export interface TextMeasure {
  unit: string;
  size: (text: string) => number;
  head: (text: string, room: number) => string;
  /** The text as the agent shows it to the model, when it changes it (`formatTouched`'s `shown`). */
  shown?: (text: string) => string;
}

/** UTF-8 bytes: what Claude Code's and Codex's limits on a hook's text are held to. */
export const UTF8_BYTES: TextMeasure = {
  unit: "bytes",
  size: (text) => Buffer.byteLength(text),
  head: (text, room) => keepHead(Buffer.from(text, "utf8"), room),
};

/**
 * `text`'s head of at most `room` (by `measure`, default UTF-8 bytes, at a
 * character boundary) and `marker(omitted)` on a line after it, `omitted`
 * what was left out in that unit; a fence or comment the cut left open is
 * closed before the marker, which is then read as text.
 */
export function cutToSize(
  text: string,
  room: number,
  marker: (omitted: number) => string,
  measure: TextMeasure = UTF8_BYTES,
): string {
  const kept = measure.head(text, room);
  return withMarker(kept, marker(measure.size(text) - measure.size(kept)));
}

function withMarker(
  kept: string,
  marker: string,
  onFallback?: (fallback: HtmlFallback) => void,
): string {
  if (kept === "") return marker;
  const closed = closeOpenBlocks(kept.trimEnd(), false, onFallback ? { onFallback } : undefined);
  return `${closed}\n${marker}`;
}

/**
 * What the cut's warning adds when the kept head's end could not be closed
 * (rev65a F4: a head of 2 MiB, past what the check takes, had every `<`
 * written `&lt;` with no word of it).
 */
function cutFallbackWords(fallback: HtmlFallback): string {
  const why =
    fallback === "over-budget"
      ? "the check of what it leaves open spent its budget for this call"
      : "what it leaves open at the cut could not be checked or closed";
  const what =
    fallback === "dropped"
      ? "its text is left out"
      : fallback === "markup-as-text"
        ? "its HTML is written as text"
        : "every < in it is written as text (&lt;)";
  return `${why}: ${what}`;
}

/** The longest head of `bytes` within `room` bytes that ends on a character boundary. */
function keepHead(bytes: Buffer, room: number): string {
  return bytes.subarray(0, charBoundary(bytes, room)).toString("utf8");
}
