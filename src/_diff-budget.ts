/**
 * The time and text the diffs of texts a repository controls may take: one
 * diff, and all the diffs of one view or report together. Apart from the
 * diffs themselves so that knowing the budget does not load jsdiff.
 */

/** Longest one diff may look for the fewest changed lines. */
export const DIFF_TIMEOUT_MS = 250;

/**
 * Most characters of the two texts together that a diff is tried on. jsdiff
 * cuts both texts into tokens before its timer starts, at about a
 * microsecond a line or word: 8 MiB of short lines took 5.7 s. Past this
 * the texts are removed and added whole, as past {@link DIFF_TIMEOUT_MS}.
 */
export const MAX_DIFF_CHARS = 512 * 1024;

/**
 * What is left of the time and characters a set of diffs may take together
 * (one view of `serve`, one report of `watch`): each diff is tried only on
 * what is left, and takes what it used. Past it the rest are shown removed and
 * added whole. 204 changed sections of 20 KB, each diff within its own 250 ms,
 * held `serve` 31 s of CPU for one switch of the model.
 */
export interface DiffBudget {
  /** Milliseconds left. */
  ms: number;
  /** Characters of texts left to diff. */
  chars: number;
  /** Changed texts (neither empty) shown removed and added whole: past what was left, or timed out. */
  cut: number;
}

/**
 * A budget for one view's or report's diffs: by default what one diff may
 * take ({@link DIFF_TIMEOUT_MS}, {@link MAX_DIFF_CHARS}), for all of them.
 */
export function diffBudget(ms = DIFF_TIMEOUT_MS, chars = MAX_DIFF_CHARS): DiffBudget {
  return { ms, chars, cut: 0 };
}

/** What {@link diffBudget} allows by default, as a note that a diff was cut says it. */
export const DIFF_BUDGET_TEXT = `${DIFF_TIMEOUT_MS} ms and ${MAX_DIFF_CHARS / 1024} Ki characters`;

/** Whether two texts are small enough for one diff and within what is left of `budget` (default: one diff's). */
export function diffable(
  before: string,
  after: string,
  budget: DiffBudget = diffBudget(),
): boolean {
  const chars = before.length + after.length;
  return budget.ms > 0 && chars <= budget.chars && chars <= MAX_DIFF_CHARS;
}

/**
 * Runs `diff` (given the milliseconds it may take) when the texts fit what is
 * left of `budget`, and charges it the time taken, jsdiff's tokenising
 * included, and the characters. `undefined`: not tried or timed out (the
 * caller shows the texts whole; `cut` counts it).
 */
export function withinBudget<T>(
  budget: DiffBudget,
  before: string,
  after: string,
  diff: (timeoutMs: number) => T | undefined,
): T | undefined {
  let found: T | undefined;
  if (diffable(before, after, budget)) {
    const started = performance.now();
    found = diff(Math.min(DIFF_TIMEOUT_MS, budget.ms));
    budget.ms -= performance.now() - started;
    budget.chars -= before.length + after.length;
  }
  if (found === undefined && before !== "" && after !== "") budget.cut++;
  return found;
}
