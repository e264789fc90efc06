// Near matches for a name someone typed: a frontmatter key, a slash command,
// a skill. One rule everywhere, so "did you mean" means the same thing in
// every message.

import { escapeControls } from "./_text.js";

/**
 * Names longer than this get no suggestions: nothing that long is a typo of
 * a short key, and the distance costs length × length.
 */
export const MAX_SUGGESTED_NAME_LENGTH = 128;

/** Most suggestions given for one name. */
export const MAX_SUGGESTIONS = 3;

/**
 * How far a name may be from a candidate and still be a likely typo: one edit
 * for short names, up to three for long ones. A fixed number would suggest
 * `tag` for `tab` and `x` for anything of one letter.
 */
export function maxTypoDistance(name: string): number {
  if (name.length <= 4) return 1;
  return name.length <= 8 ? 2 : 3;
}

/**
 * The optimal-string-alignment distance between `a` and `b`: insertions,
 * deletions, substitutions and swaps of two neighbours (`enabeld` is one edit
 * from `enabled`) each cost 1. Stops early and returns `limit + 1` once the
 * distance is sure to be over `limit`.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Three rows, reused: the one before last (for swaps), the last, this one.
  let before = new Int32Array(b.length + 1);
  let previous = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        d = Math.min(d, (before[j - 2] ?? 0) + 1);
      }
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidates that `name` is likely a typo of, closest first (ties in the
 * order given), at most {@link MAX_SUGGESTIONS}. Case is ignored, so
 * `Enabled` finds `enabled`; `name` itself is never suggested.
 */
export function nearMatches(name: string, candidates: Iterable<string>): string[] {
  if (name.length === 0 || name.length > MAX_SUGGESTED_NAME_LENGTH) return [];
  const wanted = name.toLowerCase();
  const limit = maxTypoDistance(name);
  const found: { candidate: string; distance: number; index: number }[] = [];
  let index = 0;
  for (const candidate of new Set(candidates)) {
    index++;
    if (candidate === name || candidate.length > MAX_SUGGESTED_NAME_LENGTH) continue;
    const distance = editDistance(wanted, candidate.toLowerCase(), limit);
    if (distance <= limit) found.push({ candidate, distance, index });
  }
  return found
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .slice(0, MAX_SUGGESTIONS)
    .map((f) => f.candidate);
}

/**
 * `did you mean "enabled"?`, `did you mean "a" or "b"?`, or `undefined` when
 * nothing is near. `show` writes a candidate as the user would type it
 * (`/review` for the template `review`); default: in double quotes.
 */
export function didYouMean(
  name: string,
  candidates: Iterable<string>,
  show: (candidate: string) => string = (c) => JSON.stringify(c),
): string | undefined {
  // A candidate may come from a repository's file (a skill's name): no terminal escapes.
  const near = nearMatches(name, candidates).map((c) => escapeControls(show(c), "name"));
  if (near.length === 0) return undefined;
  const last = near.pop();
  return `did you mean ${near.length > 0 ? `${near.join(", ")} or ${last}` : last}?`;
}
