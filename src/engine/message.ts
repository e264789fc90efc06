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

/**
 * Diagnostics of one code shown at most, per render (or per load of skills or
 * templates): a repository can make most kinds once per file or entry (5,000
 * skills each without a description, 1,000 rule files each refused), and a
 * thousand lines of one warning tell no more than twenty and a count.
 */
export const MAX_DIAGNOSTICS_PER_KIND = 20;

/**
 * Every diagnostic with its message capped (a message may quote a user file's
 * text), each said once (one in the same words at the same place as one
 * before it is left out: a planted folder is refused for every file below it
 * in one warning, rev64a F1), and at most {@link MAX_DIAGNOSTICS_PER_KIND} of
 * one code: the rest of a code are counted in one `diagnostics-capped`
 * diagnostic where the first of them was, at its path and of the highest
 * level among them.
 */
export function capDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return capPerKind(saidOnce(diagnostics)).map((d) =>
    d.message.length <= MAX_MESSAGE_LENGTH ? d : { ...d, message: capMessage(d.message) },
  );
}

const LEVEL_RANK: Record<Diagnostic["level"], number> = { info: 0, warning: 1, error: 2 };

/**
 * The first `max` diagnostics of each code, in order, and for each code with
 * more one `diagnostics-capped` summary in place of the first one left out
 * (a summary from an earlier cap passes through as it is).
 */
export function capPerKind(
  diagnostics: readonly Diagnostic[],
  max: number = MAX_DIAGNOSTICS_PER_KIND,
): Diagnostic[] {
  const shown = new Map<string, number>();
  const cut = new Map<
    string,
    { at: number; first: Diagnostic; count: number; level: Diagnostic["level"] }
  >();
  const out: (Diagnostic | string)[] = [];
  for (const d of diagnostics) {
    const n = shown.get(d.code) ?? 0;
    if (d.code === CAPPED_CODE || n < max) {
      shown.set(d.code, n + 1);
      out.push(d);
      continue;
    }
    const seen = cut.get(d.code);
    if (seen === undefined) {
      cut.set(d.code, { at: out.length, first: d, count: 1, level: d.level });
      out.push(d.code);
    } else {
      seen.count++;
      if (LEVEL_RANK[d.level] > LEVEL_RANK[seen.level]) seen.level = d.level;
    }
  }
  if (cut.size === 0) return out as Diagnostic[];
  return out.map((d) => {
    if (typeof d !== "string") return d;
    const { first, count, level } = cut.get(d) as {
      first: Diagnostic;
      count: number;
      level: Diagnostic["level"];
    };
    return {
      level,
      code: CAPPED_CODE,
      message: `… and ${count} more [${d}] diagnostic${count === 1 ? "" : "s"} not shown (the first ${max} are): the first not shown is at this path`,
      ...(first.path !== undefined ? { path: first.path } : {}),
      ...(first.line !== undefined ? { line: first.line } : {}),
      ...(first.column !== undefined ? { column: first.column } : {}),
    };
  });
}

/** The code of the one diagnostic that counts those of a code {@link capPerKind} left out. */
export const CAPPED_CODE = "diagnostics-capped";

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

/** `diagnostics` less each one identical (level, code, path, line, column, message) to one before it. */
function saidOnce(diagnostics: readonly Diagnostic[]): readonly Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = JSON.stringify([d.level, d.code, d.path, d.line, d.column, d.message]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.length === diagnostics.length ? diagnostics : out;
}
