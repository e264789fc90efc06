// What a helper's work grows with beyond what the engine meters for every
// call (src/engine/_budget.ts: its words, the texts and lists it is given,
// what it returns), said on the helper function itself so that the engine
// charges it for any name the helper is registered under.

/** Marks a helper that walks the keys of an object it is given (`len`): each key counts as a call. */
export const WALKS_KEYS = Symbol("walks the keys of an object it is given");

/**
 * Marks a block helper that reads the text its block produced again (`xml`
 * trims and scans it): that text's length counts toward what helpers are
 * given, at each level it is read.
 */
export const READS_BLOCK = Symbol("reads its block's text");

/** `helper`, marked with `mark`. */
export function marked<T extends object>(helper: T, mark: symbol): T {
  Object.defineProperty(helper, mark, { value: true });
  return helper;
}

/** Whether `helper` carries `mark`. */
export function hasMark(helper: unknown, mark: symbol): boolean {
  return typeof helper === "function" && Reflect.get(helper, mark) === true;
}
