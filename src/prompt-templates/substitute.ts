import type { PrintedRest, ReadRest } from "../_fence.js";

export type { PrintedRest, ReadRest };

const ARGUMENT_SEPARATOR = " ";

/**
 * Most characters one expansion may have: 4 Mi, about a million tokens, far
 * past any model's context. Without a bound, `$ARGUMENTS` repeated 100,000
 * times with a 2 KB argument builds 650 MB, and with 20 KB ends in V8's
 * string-length RangeError.
 */
export const MAX_EXPANDED_CHARS = 4 * 1024 * 1024;

const OPEN_BRACE = 0x7b;
const AT = 0x40;
const COLON = 0x3a;
const CLOSE_BRACE = 0x7d;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Where the run of ASCII digits starting at `from` ends. */
function digitsEnd(text: string, from: number): number {
  let end = from;
  while (isDigit(text.charCodeAt(end))) end++;
  return end;
}

/** A placeholder found at some `$`: what it asks for and where it ends (exclusive). */
type Placeholder =
  | { kind: "default"; name: string; fallback: string; end: number }
  | { kind: "slice"; start: string; length: string | undefined; end: number }
  | { kind: "all"; end: number }
  | { kind: "positional"; digits: string; end: number };

/**
 * Watches an expansion as {@link substituteArgs} writes it: `feed` gets each
 * piece written, and `before` what to write ahead of a value that is not
 * empty, found for the placeholder at `at` in the template ("" for nothing).
 */
export interface ArgumentGuard {
  /**
   * `templateAt`: where in the template `text` is from, when it is the template's own text;
   * `typed`: `text` is a placeholder's value from your arguments (not a default's text, nor
   * what `before` wrote).
   */
  feed(text: string, templateAt?: number, typed?: boolean): void;
  /**
   * `rest`: the line from the value to its end as it prints for a
   * judgement, each placeholder at `x` when an argument fills it and at its
   * text when its default does (`[//]: # ${3:-(}$ARGUMENTS${3:-)}` reads
   * `(x)`), with where the later placeholders on the line start in it.
   */
  before(at: number, rest: ReadRest): string;
}

/**
 * Fills a template's placeholders with `args` in one pass over `content`:
 * an argument value or a default is inserted as is and never scanned again,
 * so arguments may safely contain `$1` or `${@}` text.
 *
 * - `$1` … `$N` (all the digits): that argument; `$0` and missing ones are empty.
 * - `$@`, `$ARGUMENTS`: all arguments joined by one space.
 * - `${N:-default}`, `${@:-default}`, `${ARGUMENTS:-default}`: the default when
 *   the value is missing or empty.
 * - `${@:N}`: the arguments from the N-th on; `${@:N:L}`: L of them (1-based,
 *   0 counts as 1).
 *
 * Names are case-sensitive, there is no escape, and any other `$` text stays.
 *
 * Undefined when the result would be longer than `maxChars` (default
 * {@link MAX_EXPANDED_CHARS}); the work stops there, so it costs at most that.
 */
export function substituteArgs(
  content: string,
  args: readonly string[],
  maxChars: number = MAX_EXPANDED_CHARS,
  guard?: ArgumentGuard,
): string | undefined {
  const all = args.join(ARGUMENT_SEPARATOR);
  const positional = (digits: string): string => {
    const index = Number(digits);
    return index === 0 ? "" : (args[index - 1] ?? "");
  };
  const valueFor = (placeholder: Placeholder): string => {
    switch (placeholder.kind) {
      case "default": {
        const value =
          placeholder.name === "@" || placeholder.name === "ARGUMENTS"
            ? all
            : positional(placeholder.name);
        return value === "" ? placeholder.fallback : value;
      }
      case "slice": {
        const from = Math.max(Number(placeholder.start), 1) - 1;
        const to = placeholder.length === undefined ? undefined : from + Number(placeholder.length);
        return args.slice(from, to).join(ARGUMENT_SEPARATOR);
      }
      case "positional":
        return positional(placeholder.digits);
      case "all":
        return all;
    }
  };

  return fill(content, valueFor, maxChars, guard);
}

/** The value every placeholder has in {@link substitutePlain}. */
const PLAIN_VALUE = "x";

/**
 * `content` with each placeholder given a plain value that is not empty
 * (`x`), so no default is printed but where the value is always empty (`$0`,
 * `${@:N:0}`): what a template writes around any words you type. A template
 * whose fence or HTML block is closed only by a default (`${1:-```}`) leaves
 * it open here, as with your words. Undefined past `maxChars`.
 */
export function substitutePlain(
  content: string,
  maxChars: number = MAX_EXPANDED_CHARS,
): string | undefined {
  return fill(
    content,
    (placeholder) => {
      switch (placeholder.kind) {
        case "default":
          return isDigit(placeholder.name.charCodeAt(0)) && Number(placeholder.name) === 0
            ? placeholder.fallback
            : PLAIN_VALUE;
        case "slice":
          return placeholder.length !== undefined && Number(placeholder.length) === 0
            ? ""
            : PLAIN_VALUE;
        case "positional":
          return Number(placeholder.digits) === 0 ? "" : PLAIN_VALUE;
        case "all":
          return PLAIN_VALUE;
      }
    },
    maxChars,
  );
}

/** `content` with each placeholder replaced by `valueFor` of it, `guard` watching ({@link substituteArgs}). */
function fill(
  content: string,
  valueFor: (placeholder: Placeholder) => string,
  maxChars: number,
  guard?: ArgumentGuard,
): string | undefined {
  const parts: string[] = [];
  let size = 0;
  const push = (text: string, templateAt?: number, typed?: boolean): boolean => {
    size += text.length;
    if (size > maxChars) return false;
    parts.push(text);
    guard?.feed(text, templateAt, typed);
    return true;
  };
  let copied = 0;
  // A guard reads the rest of a placeholder's line as it prints: the later placeholders, listed once.
  const listed = guard === undefined ? undefined : Array.from(placeholdersOf(content));
  let index = 0;
  for (const { at, placeholder } of listed ?? placeholdersOf(content)) {
    if (!push(content.slice(copied, at), copied)) return undefined;
    const value = valueFor(placeholder);
    const after = index++;
    const lead =
      value === "" || guard === undefined || listed === undefined
        ? ""
        : guard.before(at, (firstOnly) => printedRest(content, listed, after, valueFor, firstOnly));
    // A default's text is the template's (a value you typed the same as it is read as it too).
    const typed = placeholder.kind !== "default" || value !== placeholder.fallback;
    if (!push(lead) || !push(value, undefined, typed)) return undefined;
    copied = placeholder.end;
  }
  if (!push(content.slice(copied), copied)) return undefined;
  return parts.join("");
}

type Found = { at: number; placeholder: Placeholder };

/**
 * The line of `found[index]` from its value to the first line break, as
 * {@link ArgumentGuard.before} reads it: an argument's value is `x` (your
 * words are yours, whatever they hold), a default's its text. Reads only
 * that stretch of the template and those values.
 */
function printedRest(
  content: string,
  found: readonly Found[],
  index: number,
  valueFor: (placeholder: Placeholder) => string,
  firstOnly = false,
): PrintedRest {
  const parts: string[] = [];
  const ats: number[] = [];
  const starts: number[] = [];
  let size = 0;
  const add = (text: string): boolean => {
    const lineBreak = text.indexOf("\n");
    const piece = lineBreak >= 0 ? text.slice(0, lineBreak) : text;
    parts.push(piece);
    size += piece.length;
    return lineBreak < 0;
  };
  const shown = (placeholder: Placeholder): string => {
    const value = valueFor(placeholder);
    if (value === "") return "";
    return placeholder.kind === "default" && value === placeholder.fallback ? value : PLAIN_VALUE;
  };
  const first = found[index] as Found;
  if (add(shown(first.placeholder)) && !firstOnly) {
    let from = first.placeholder.end;
    for (let next = index + 1; ; next++) {
      const later = found[next];
      if (!add(content.slice(from, later === undefined ? content.length : later.at))) break;
      if (later === undefined) break;
      ats.push(later.at);
      starts.push(size);
      if (!add(shown(later.placeholder))) break;
      from = later.placeholder.end;
    }
  }
  return { text: parts.join(""), ats, starts };
}

/**
 * Which of `count` arguments no placeholder of `content` takes, 1-based and in
 * order: pi's expansion leaves those out, so words typed to a template that
 * has no placeholder (or too few) are not in what it sends. An argument a
 * default replaces (`${1:-x}` with `""`) counts as taken. One pass over
 * `content` plus one over the arguments: each slice is marked at its two ends.
 */
export function unusedArguments(content: string, count: number): number[] {
  if (count === 0) return [];
  // +1 where a taken run starts, -1 where it ends (0-based, end exclusive).
  const edges = new Int32Array(count + 1);
  const take = (from: number, to: number): void => {
    const start = Math.max(0, from);
    const end = Math.min(count, to);
    if (start >= end) return;
    edges[start] = (edges[start] ?? 0) + 1;
    edges[end] = (edges[end] ?? 0) - 1;
  };
  const takeOne = (digits: string): void => {
    const index = Number(digits);
    if (index >= 1) take(index - 1, index);
  };
  for (const { placeholder } of placeholdersOf(content)) {
    switch (placeholder.kind) {
      case "all":
        take(0, count);
        break;
      case "positional":
        takeOne(placeholder.digits);
        break;
      case "default":
        if (placeholder.name === "@" || placeholder.name === "ARGUMENTS") take(0, count);
        else takeOne(placeholder.name);
        break;
      case "slice": {
        const from = Math.max(Number(placeholder.start), 1) - 1;
        const to = placeholder.length === undefined ? count : from + Number(placeholder.length);
        take(from, to);
        break;
      }
    }
  }
  const unused: number[] = [];
  let depth = 0;
  for (let index = 0; index < count; index++) {
    depth += edges[index] ?? 0;
    if (depth === 0) unused.push(index + 1);
  }
  return unused;
}

/**
 * The placeholders of `content` in order, each `$` that starts none passed
 * over: one linear pass (see {@link placeholderAt}).
 */
/**
 * `content` with each placeholder written as letters, the same length: the
 * template as a reader of its markup judges it for any words (`<span $1>`
 * holds attributes once filled, as `<span xx>` does). `lead` and `letter`:
 * the characters to write its first and its others with (a backtick, for
 * words that end a code span).
 */
export function placeholdersAsLetters(content: string, lead = "x", letter = "x"): string {
  let out = "";
  let copied = 0;
  for (const { at, placeholder } of placeholdersOf(content)) {
    out += content.slice(copied, at) + lead + letter.repeat(placeholder.end - at - 1);
    copied = placeholder.end;
  }
  return copied === 0 ? content : out + content.slice(copied);
}

/**
 * `content` as {@link placeholdersAsLetters} writes it, but each default
 * whose fallback may print a table's delimiter row (it holds a `-`) written
 * with `mark`, its line breaks kept (one of a run, the others `mark`), so
 * each line it may print holds `mark` and is not blank: where a GFM reader
 * may find a delimiter row once the default is printed (review rev93h F1,
 * `${9:-| --- |}`). The same length.
 */
export function placeholdersAsRows(content: string, mark: string): string {
  let out = "";
  let copied = 0;
  for (const { at, placeholder } of placeholdersOf(content)) {
    out += content.slice(copied, at);
    if (placeholder.kind !== "default" || !placeholder.fallback.includes("-")) {
      out += "x".repeat(placeholder.end - at);
    } else {
      let broke = false;
      for (let i = at; i < placeholder.end; i++) {
        const char = content[i] as string;
        const lineBreak = char === "\n" || char === "\r";
        out += lineBreak && !broke ? char : mark;
        broke = lineBreak && !broke;
      }
    }
    copied = placeholder.end;
  }
  return copied === 0 ? content : out + content.slice(copied);
}

/**
 * The expansion of `content` for `args` as {@link substituteArgs} prints it
 * (each default's text, an empty value as nothing, your words as you typed
 * them), with where each placeholder that prints a value starts in it:
 * `ats` its `$` in `content`, `places` its value in `text`, in order. What
 * a GFM reader of the expansion reads as a table, judged on the text itself
 * rather than on a reading of the template (review rev96e F3: `$9| --- |`
 * read `xx| --- |`, and printed a delimiter row). Undefined past `maxChars`,
 * as the expansion is.
 */
export function printedPlaces(
  content: string,
  args: readonly string[],
  maxChars: number = MAX_EXPANDED_CHARS,
): { text: string; ats: number[]; places: number[] } | undefined {
  const ats: number[] = [];
  const places: number[] = [];
  let size = 0;
  const text = substituteArgs(content, args, maxChars, {
    feed: (piece) => {
      size += piece.length;
    },
    before: (at) => {
      ats.push(at);
      places.push(size);
      return "";
    },
  });
  return text === undefined ? undefined : { text, ats, places };
}

/** Where each placeholder of `content` starts (its `$`), in order. */
export function placeholderStarts(content: string): number[] {
  return Array.from(placeholdersOf(content), ({ at }) => at);
}

function* placeholdersOf(content: string): Generator<{ at: number; placeholder: Placeholder }> {
  const closingBrace = forwardIndexOf(content, "}");
  let at = content.indexOf("$");
  while (at >= 0) {
    const placeholder = placeholderAt(content, at, closingBrace);
    if (placeholder === undefined) {
      at = content.indexOf("$", at + 1);
      continue;
    }
    yield { at, placeholder };
    at = content.indexOf("$", placeholder.end);
  }
}

/**
 * The placeholder starting at the `$` at `at`, trying the forms in the order
 * the documentation lists them, or undefined. Reads only a bounded stretch
 * past `at` plus digit runs, and finds a default's closing brace through
 * `closingBrace`, so the whole pass stays linear: a pattern with `[^}]*` would
 * rescan the rest of the text from every unclosed `${1:-`.
 */
function placeholderAt(
  text: string,
  at: number,
  closingBrace: (from: number) => number,
): Placeholder | undefined {
  const next = text.charCodeAt(at + 1);
  if (next === OPEN_BRACE) {
    const nameStart = at + 2;
    const first = text.charCodeAt(nameStart);
    let nameEnd = -1;
    if (isDigit(first)) nameEnd = digitsEnd(text, nameStart);
    else if (first === AT) nameEnd = nameStart + 1;
    else if (text.startsWith("ARGUMENTS", nameStart)) nameEnd = nameStart + "ARGUMENTS".length;
    if (nameEnd > 0 && text.startsWith(":-", nameEnd)) {
      const close = closingBrace(nameEnd + 2);
      if (close >= 0) {
        return {
          kind: "default",
          name: text.slice(nameStart, nameEnd),
          fallback: text.slice(nameEnd + 2, close),
          end: close + 1,
        };
      }
    }
    if (first === AT && text.charCodeAt(nameStart + 1) === COLON) {
      const startDigits = nameStart + 2;
      const startEnd = digitsEnd(text, startDigits);
      if (startEnd === startDigits) return undefined;
      const start = text.slice(startDigits, startEnd);
      if (text.charCodeAt(startEnd) === CLOSE_BRACE) {
        return { kind: "slice", start, length: undefined, end: startEnd + 1 };
      }
      if (text.charCodeAt(startEnd) !== COLON) return undefined;
      const lengthEnd = digitsEnd(text, startEnd + 1);
      if (lengthEnd === startEnd + 1 || text.charCodeAt(lengthEnd) !== CLOSE_BRACE)
        return undefined;
      return {
        kind: "slice",
        start,
        length: text.slice(startEnd + 1, lengthEnd),
        end: lengthEnd + 1,
      };
    }
    return undefined;
  }
  if (text.startsWith("ARGUMENTS", at + 1))
    return { kind: "all", end: at + 1 + "ARGUMENTS".length };
  if (next === AT) return { kind: "all", end: at + 2 };
  if (isDigit(next)) {
    const end = digitsEnd(text, at + 1);
    return { kind: "positional", digits: text.slice(at + 1, end), end };
  }
  return undefined;
}

/**
 * `indexOf(needle, from)` for calls whose `from` never decreases: a result
 * (or its absence) is reused while it still lies ahead, so many unclosed
 * openers cost one search instead of one each.
 */
function forwardIndexOf(text: string, needle: string): (from: number) => number {
  let searchedFrom = -1;
  let found = -1;
  return (from) => {
    if (searchedFrom >= 0 && from >= searchedFrom && (found < 0 || found >= from)) return found;
    searchedFrom = from;
    found = text.indexOf(needle, from);
    return found;
  };
}
