import type { HelperDelegate, HelperOptions } from "handlebars";

/**
 * Splits a helper's arguments into the template's parameters and the options
 * object Handlebars always passes last. Rest parameters let one helper tell
 * `{{#list}}` (no list given) from `{{#list xs}}` with `xs` undefined.
 */
export function splitHelperArgs(args: readonly unknown[]): [unknown[], HelperOptions] {
  return [args.slice(0, -1), args[args.length - 1] as HelperOptions];
}

/**
 * Truthiness for templates: false, null, undefined, "", 0, NaN and empty
 * arrays, Sets and Maps are false. Empty collections count as false so that
 * `{{#ifAny tools skills}}` means "there is something to show".
 */
export function isTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Set || value instanceof Map) return value.size > 0;
  return Boolean(value);
}

/**
 * Renders the block or its `{{else}}` for a condition. Used inline (as a
 * subexpression or plain mustache) there is no block, so the condition itself
 * is the value.
 */
export function branch(context: unknown, condition: boolean, options: HelperOptions): unknown {
  if (typeof options.fn !== "function") return condition;
  return condition ? options.fn(context) : options.inverse(context);
}

/** `{{#ifAny a b …}}`: the block when at least one argument is truthy. */
export function ifAnyHelper(this: unknown, ...args: unknown[]): unknown {
  const [params, options] = splitHelperArgs(args);
  return branch(this, params.some(isTruthy), options);
}

/** `{{#ifAll a b …}}`: the block when every argument is truthy (and there is at least one). */
export function ifAllHelper(this: unknown, ...args: unknown[]): unknown {
  const [params, options] = splitHelperArgs(args);
  return branch(this, params.length > 0 && params.every(isTruthy), options);
}

function ordered(a: unknown, b: unknown): boolean {
  // No coercion: "10" < 9 is neither true nor false in a useful way, so mixed types never compare.
  return (
    (typeof a === "number" && typeof b === "number") ||
    (typeof a === "string" && typeof b === "string")
  );
}

const COMPARISONS: ReadonlyMap<string, (a: unknown, b: unknown) => boolean> = new Map([
  ["==", (a: unknown, b: unknown) => a === b],
  ["!=", (a: unknown, b: unknown) => a !== b],
  ["<", (a: unknown, b: unknown) => ordered(a, b) && (a as number) < (b as number)],
  ["<=", (a: unknown, b: unknown) => ordered(a, b) && (a as number) <= (b as number)],
  [">", (a: unknown, b: unknown) => ordered(a, b) && (a as number) > (b as number)],
  [">=", (a: unknown, b: unknown) => ordered(a, b) && (a as number) >= (b as number)],
]);

/**
 * `{{#when a "op" b}}`: compares with `==` `!=` (strict, no coercion) or
 * `<` `<=` `>` `>=` (numbers with numbers, strings with strings; any other mix
 * is false). An unknown operator throws, which the engine reports with its location.
 */
export function whenHelper(this: unknown, ...args: unknown[]): unknown {
  const [params, options] = splitHelperArgs(args);
  if (params.length !== 3) {
    throw new Error(`takes three arguments ({{#when a "==" b}}), got ${params.length}`);
  }
  const [a, op, b] = params;
  const compare = typeof op === "string" ? COMPARISONS.get(op) : undefined;
  if (compare === undefined) {
    throw new Error(
      `unknown operator ${JSON.stringify(op)}; use one of ${[...COMPARISONS.keys()].join(" ")}`,
    );
  }
  return branch(this, compare(a, b), options);
}

/** `(not x)`: true when `x` is falsy by the same rule as `ifAny`/`ifAll`. */
export function notHelper(...args: unknown[]): boolean {
  const [params] = splitHelperArgs(args);
  return !isTruthy(params[0]);
}

export const logicHelpers: Readonly<Record<string, HelperDelegate>> = {
  ifAny: ifAnyHelper,
  ifAll: ifAllHelper,
  when: whenHelper,
  not: notHelper,
};
