import type { HelperDelegate } from "handlebars";
import { isList } from "./collections.js";
import { splitHelperArgs } from "./logic.js";

const DEFAULT_JOIN_SEPARATOR = ", ";

/**
 * Longest text a helper may build, in UTF-16 code units: what one render may
 * produce (the engine's MAX_HELPER_TEXT is this value), so `join` refuses a
 * result no render could keep before it builds it. Defined here, beside the
 * helpers, since the engine uses the helpers and not the other way round.
 */
export const MAX_HELPER_TEXT = 8 * 1024 * 1024;

/**
 * Handlebars string literals keep `\n` as two characters, so separators given
 * in a template would otherwise have no way to say "newline" or "tab".
 */
export function unescapeSeparator(separator: string): string {
  if (!separator.includes("\\")) return separator;
  return separator.replace(/\\([nt])/g, (_, c: string) => (c === "n" ? "\n" : "\t"));
}

/** A hash or parameter value as text: null and undefined are empty. */
export function toText(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

/**
 * `{{join xs sep}}`: the items of a list as text, separated by `sep`
 * (default `", "`, with `\n` and `\t` unescaped as in `list`). Not a list → "".
 * A result longer than a render may produce throws before it is built: a long
 * separator between many items is one call's gigabyte.
 */
export function joinHelper(...args: unknown[]): string {
  const [params] = splitHelperArgs(args);
  const [items, separator] = params;
  if (!isList(items)) return "";
  const texts = Array.from(items, toText);
  // Made as text only when it separates something: a list given as the
  // separator is its items joined, at each call (review rev46c F3).
  const sep =
    texts.length < 2
      ? ""
      : separator === undefined || separator === null
        ? DEFAULT_JOIN_SEPARATOR
        : unescapeSeparator(String(separator));
  let length = Math.max(0, texts.length - 1) * sep.length;
  for (const text of texts) length += text.length;
  if (length > MAX_HELPER_TEXT) {
    throw new Error(
      `would be ${length} characters (${texts.length} items), over the ${MAX_HELPER_TEXT} a render may produce`,
    );
  }
  return texts.join(sep);
}

/** `{{default value fallback}}`: `fallback` when `value` is null, undefined or "". */
export function defaultHelper(...args: unknown[]): unknown {
  const [params] = splitHelperArgs(args);
  const [value, fallback] = params;
  if (value === null || value === undefined || value === "") return fallback ?? "";
  return value;
}

export const textHelpers: Readonly<Record<string, HelperDelegate>> = {
  join: joinHelper,
  default: defaultHelper,
};
