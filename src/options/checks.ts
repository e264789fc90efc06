// The checks the option registry is written with: each says, in one phrase,
// what a value must be. Every surface (the API, a flag, a sysprompt.yaml key,
// a scenario key) words its problem with that one phrase.

import { showsNothing } from "../_prompt-text.js";
import { holdsHidden } from "../_text.js";

/** Why a value cannot be the option: the phrase after "must be", or undefined when it can. */
export type Check = (value: unknown) => string | undefined;

/** A value taken from text (a flag, a YAML key), or what is wrong with it (`must be …`, `has …`). */
export type Checked<T> = { value: T } | { problem: string };

export const isString: Check = (v) => (typeof v === "string" ? undefined : "a string");
export const isPath: Check = (v) =>
  typeof v === "string" && v !== "" ? undefined : "a non-empty path";
export const isBoolean: Check = (v) => (typeof v === "boolean" ? undefined : "true or false");
export const isStringArray: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === "string")
    ? undefined
    : typeof v === "string"
      ? `an array of strings (split a list first: ${JSON.stringify(v.split(",").map((x) => x.trim()))})`
      : "an array of strings";
export const isNameArray: Check = (v) =>
  isStringArray(v) ??
  ((v as string[]).some(showsNothing) ? "an array of non-empty names" : undefined);
export const isRecordOf =
  (item: Check, what: string): Check =>
  (v) =>
    isPlainObject(v) && Object.values(v).every((x) => item(x) === undefined)
      ? undefined
      : `an object whose values are ${what}`;
export const isOneOf =
  (...checks: Check[]): Check =>
  (v) =>
    checks.some((c) => c(v) === undefined)
      ? undefined
      : checks.map((c) => c(v)?.replace(/ \(.*$/s, "")).join(" or ");
/**
 * A name: a string that shows something, phrased by what it names. Blank (`""`, a space, a TAB,
 * a wrapper's `--model "$MODEL "` with the variable unset) or only what is drawn as nothing
 * (U+200B, a soft hyphen: {@link showsNothing}, the one rule of a blank text) names nothing
 * (review rev69b F3: `--model " "` printed `- Model: `); {@link isNameArray} says the same.
 */
export const isName =
  (what: string): Check =>
  (v) =>
    typeof v === "string" && !showsNothing(v) ? undefined : what;
/** A whole number from `min` to `max` (inclusive), phrased by `what`. */
export const isWholeNumber =
  (min: number, max: number, what: string): Check =>
  (v) =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max ? undefined : what;

/** The check as a parser of a value read from text: the value, or the phrase. */
export function checked<T>(check: Check, value: unknown): Checked<T> {
  const problem = check(value);
  return problem === undefined ? { value: value as T } : { problem: `must be ${problem}` };
}

/** A one-line name written in a file: trimmed, no control characters. */
export function oneLineName(value: unknown, what: string): Checked<string> {
  if (typeof value !== "string" || value.trim() === "") return { problem: `must be ${what}` };
  // Controls, separators, zero-width and bidirectional marks: a one-line value holds none.
  if (holdsHidden(value)) return { problem: "must be one line, without control characters" };
  return { value: value.trim() };
}

/** A list of names: a YAML list, or one comma-separated string as the flag takes. */
export function nameList(value: unknown, what: string): Checked<string[]> {
  const items = typeof value === "string" ? value.split(",") : value;
  if (!Array.isArray(items)) return { problem: `must be a list of ${what}` };
  const names: string[] = [];
  for (const item of items) {
    const name = oneLineName(item, `a list of ${what}`);
    if ("problem" in name) {
      // `tools: ""` or `tools: []` is a list of none, like `--tools ""`.
      if (typeof value === "string" && typeof item === "string" && item.trim() === "") continue;
      return name;
    }
    names.push(name.value);
  }
  return { value: names };
}

/** A flag's text as a whole number (digits only), else the text itself for the check to refuse. */
export function digits(raw: unknown): unknown {
  return typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : raw;
}

/**
 * A variable's name: what `{{vars.NAME}}` can reach as a plain Handlebars
 * path, and what `--var NAME=value` accepts.
 */
export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Longest variable name; longer ones are refused (nothing that long is a name). */
export const MAX_VAR_NAME_LENGTH = 64;

/** Why `name` cannot be a variable's name, or undefined when it can. */
export function varNameProblem(name: string): string | undefined {
  if (name.length > MAX_VAR_NAME_LENGTH) return `is longer than ${MAX_VAR_NAME_LENGTH} characters`;
  // An own `__proto__` cannot be set on a plain object: it would vanish without a word.
  if (name === "__proto__") return "is reserved (an object's prototype), pick another name";
  if (!VAR_NAME.test(name)) {
    return "is not a variable name: use letters, digits and _, not starting with a digit (it is written {{vars.NAME}})";
  }
  return undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
}
