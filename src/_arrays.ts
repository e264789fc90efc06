/**
 * Array helpers that never pass a list's items as call arguments. `target.push(...list)`,
 * `Math.max(...list)` and `fn.apply(this, list)` put every item on the stack, and V8 holds only
 * ~120,000 of them: a list a repository sizes (a rules file's lines, a walk's diagnostics) would
 * crash the render with `RangeError: Maximum call stack size exceeded` (rev50b F7, F8).
 * test/session/no-spread-calls.test.ts keeps such calls out of src/.
 */

/** Appends every item of each list to `target`, one at a time; returns `target`. */
export function pushAll<T>(target: T[], ...lists: readonly Iterable<T>[]): T[] {
  for (const list of lists) for (const item of list) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let max = empty;
  for (const v of values) if (v > max || Number.isNaN(v)) max = v;
  return max;
}

/** The smallest of `values`, or `empty` when there are none. */
export function minOf(values: Iterable<number>, empty = Number.POSITIVE_INFINITY): number {
  let min = empty;
  for (const v of values) if (v < min || Number.isNaN(v)) min = v;
  return min;
}
