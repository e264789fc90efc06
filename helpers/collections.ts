import type { HelperDelegate } from "handlebars";
import { marked, WALKS_KEYS } from "./_cost.js";
import { branch, splitHelperArgs } from "./logic.js";

/** Arrays and other non-string iterables (Set, Map) are lists; strings are text. */
export function isList(value: unknown): value is Iterable<unknown> {
  if (value === null || value === undefined || typeof value !== "object") return false;
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether `collection` holds `item`: an array or Set element, a Map key, or an
 * OWN key of a plain object (so `toString` is never "in" an object). Anything
 * else holds nothing.
 */
export function contains(collection: unknown, item: unknown): boolean {
  if (Array.isArray(collection)) return collection.includes(item);
  if (collection instanceof Set || collection instanceof Map) return collection.has(item);
  if (isPlainObject(collection) && (typeof item === "string" || typeof item === "number")) {
    return Object.hasOwn(collection, item);
  }
  return false;
}

/** Length of an array or string, size of a Set or Map, own-key count of an object, else 0. */
export function sizeOf(value: unknown): number {
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  if (value instanceof Set || value instanceof Map) return value.size;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  return 0;
}

/** `{{#has coll item}}…{{else}}…{{/has}}`. */
export function hasHelper(this: unknown, ...args: unknown[]): unknown {
  const [params, options] = splitHelperArgs(args);
  return branch(this, contains(params[0], params[1]), options);
}

/** `(includes coll item)`: the `has` test as a value, for subexpressions. */
export function includesHelper(...args: unknown[]): boolean {
  const [params] = splitHelperArgs(args);
  return contains(params[0], params[1]);
}

/** `{{len x}}`; an object's keys are walked, and counted as calls by the engine. */
export const lenHelper = marked(function lenHelper(...args: unknown[]): number {
  const [params] = splitHelperArgs(args);
  return sizeOf(params[0]);
}, WALKS_KEYS);

export const collectionHelpers: Readonly<Record<string, HelperDelegate>> = {
  has: hasHelper,
  includes: includesHelper,
  len: lenHelper,
};
