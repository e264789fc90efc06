import type { Diagnostic } from "../types.js";
import { MAX_MESSAGE_LENGTH } from "./limits.js";

const ELLIPSIS = "…";

/**
 * `message` cut to at most `max` characters: its start and its end around
 * "…", so both what failed and (at the end) why stay readable. A surrogate
 * pair is never split.
 */
export function capMessage(message: string, max: number = MAX_MESSAGE_LENGTH): string {
  if (message.length <= max) return message;
  const keep = max - ELLIPSIS.length;
  let headEnd = Math.ceil((keep * 2) / 3);
  let tailStart = message.length - (keep - headEnd);
  if (isLowSurrogate(message.charCodeAt(headEnd))) headEnd--;
  if (isLowSurrogate(message.charCodeAt(tailStart))) tailStart++;
  return message.slice(0, headEnd) + ELLIPSIS + message.slice(tailStart);
}

/** Every diagnostic with its message capped: a message may quote a user file's text. */
export function capDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) =>
    d.message.length <= MAX_MESSAGE_LENGTH ? d : { ...d, message: capMessage(d.message) },
  );
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** One partial an error happened in, and where in it the next step (or the error) is. */
export interface PartialFrame {
  partial: string;
  line?: number;
  column?: number;
}

/** Frames shown at each end of a long chain; the middle is counted, not listed. */
const CHAIN_ENDS = 3;

/**
 * `In partial "a" (line 2, column 1) > "b" (line 1, column 5): ` for a chain
 * of partials, outermost first, or "" for none. Repeats of one frame collapse
 * to `×N` (a partial that includes itself), and a long chain keeps its first
 * and last frames around a count.
 */
export function describePartialChain(chain: readonly PartialFrame[]): string {
  if (chain.length === 0) return "";
  const runs: { text: string; count: number }[] = [];
  for (const frame of chain) {
    const where =
      frame.line === undefined ? "" : ` (line ${frame.line}, column ${frame.column ?? 1})`;
    const text = `"${frame.partial}"${where}`;
    const last = runs.at(-1);
    if (last?.text === text) last.count++;
    else runs.push({ text, count: 1 });
  }
  const shown = runs.map((run) => (run.count > 1 ? `${run.text} ×${run.count}` : run.text));
  const listed =
    shown.length <= CHAIN_ENDS * 2
      ? shown
      : [
          ...shown.slice(0, CHAIN_ENDS),
          `… ${shown.length - CHAIN_ENDS * 2} more …`,
          ...shown.slice(-CHAIN_ENDS),
        ];
  return `In partial ${listed.join(" > ")}: `;
}
