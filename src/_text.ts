import { sep } from "node:path";

/**
 * The characters that act on text rather than show (the one list: the
 * terminal's escapes, the prompt's one-line paths and names, one-line
 * values): C0 controls, DEL, C1 controls (an 8-bit CSI is U+009B), the
 * line and paragraph separators (U+2028, U+2029), and every code point
 * Unicode calls default-ignorable (`\p{Default_Ignorable_Code_Point}`, drawn
 * as nothing): the zero-width space, non-joiner and joiner, U+FEFF, the soft
 * hyphen, the word joiner and invisible operators (U+2060–U+2064), U+034F,
 * the Mongolian selectors and vowel separator, the Hangul fillers, the
 * variation selectors and the tag characters (U+E0000–U+E0FFF), and the
 * bidirectional marks, embeddings, overrides and isolates, which reorder
 * what is shown ("Trojan Source"). Before, only the zero-width and
 * bidirectional ones were listed: a skill named `myskill\u2060` printed as a
 * second `myskill`, a rule's `owner\u2060="user"` as your mark (review
 * rev50c F6). Spans of code points, inclusive; a test checks the list
 * against the Unicode property.
 */
const HIDDEN_SPANS: readonly (readonly [number, number])[] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0xad, 0xad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

/** True for a code point of {@link HIDDEN_SPANS}, tab and line feed included. */
export function isHidden(code: number): boolean {
  // Printable ASCII first: nearly every character of a path or name.
  if (code >= 0x20 && code < 0x7f) return false;
  for (const [from, to] of HIDDEN_SPANS) if (code >= from && code <= to) return true;
  return false;
}

/**
 * A code point as JSON escapes it: `\uXXXX`, and one past U+FFFF as its two
 * surrogates (`\udb40\udc20` for the tag space U+E0020), so the text read
 * back as JSON is the same value.
 */
export function unitEscapes(code: number): string {
  const units = code > 0xffff ? String.fromCodePoint(code) : String.fromCharCode(code);
  let out = "";
  for (let k = 0; k < units.length; k++)
    out += `\\u${units.charCodeAt(k).toString(16).padStart(4, "0")}`;
  return out;
}

/**
 * The one rule for a literal backslash in a name, a path or a value a
 * repository (or anyone) chose: a `\` that a `u` follows is written
 * `\u005c`, as a hidden character is written `\uXXXX`. A file named
 * `a\u202eb.md` (backslash, `u`, `2`, `0`, `2`, `e`) then reads
 * `a\u005cu202eb.md`, apart from `a` U+202E `b.md`, written `a\u202eb.md`;
 * before, the two printed as one name in the tree, the AGENTS.md list, a
 * rule's path and the diagnostics (review rev101e F4). Only before a `u`:
 * that is the one escape the escapers write, so a Windows-style `dir\file`
 * or a regex-like `a\d.md` prints as it is; where `\` is the path separator
 * (Windows) nothing is marked ({@link isMarkedBackslash}). It is the one step that is not
 * the same when done twice (every other escaper leaves its own output as it
 * is), so it is done once, on the raw text, by the first escaper a name
 * meets: `oneLine` in src/_prompt-text.ts for the prompt, and
 * {@link terminalName} for the terminal; an escaper given text one of them
 * wrote (the tree's names, a context file's escaped path) never does it
 * again.
 */
export function backslashesMarked(text: string): string {
  return sep === "/" && text.includes("\\u") ? text.replaceAll("\\u", BACKSLASH_U) : text;
}

/** A literal `\u` as {@link backslashesMarked} writes it. */
const BACKSLASH_U = "\\u005cu";

/**
 * True for a `\` at `i` of `text` that a `u` follows: {@link backslashesMarked}
 * writes it `\u005c`. Not where `\` is the path separator (Windows, as
 * `toPosix` takes it): no name holds one there, and `C:\Users` stays as it is.
 */
export function isMarkedBackslash(text: string, i: number): boolean {
  return sep === "/" && text.charCodeAt(i) === 0x5c && text.charCodeAt(i + 1) === 0x75;
}

/** The space separators (`\p{Zs}`), all below U+FFFF: the space, no-break spaces, the en/em/ideographic spaces. */
const SPACES: ReadonlySet<number> = new Set([
  0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x202f, 0x205f, 0x3000,
]);

/**
 * True when `text` has a character that shows: one neither a space
 * separator, a line break nor {@link isHidden} (the zero-width space, the
 * word joiner, the soft hyphen, a Hangul filler, a tag character, …). A
 * prompt without one is empty, whatever `trim()` leaves (review rev91a F3:
 * a prompt of U+200B U+2060 was written). Stops at the first that shows.
 */
export function hasVisible(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (!SPACES.has(code) && !isHidden(code)) return true;
  }
  return false;
}

/**
 * A name as a listing whose structure is indentation and two-space columns
 * prints it (the workspace tree, the AGENTS.md list, `list`'s table): its
 * leading and trailing spaces and every run of two or more written `\u0020`
 * (any space separator, `\u3000` too), as controls are written, so the
 * indentation and the columns are the listing's only. Before, a folder named
 * `"    deploy-keys"` printed as a folder inside the one above it, and a file
 * `"    AGENTS.md  9.1K  2026-12-05 19:29"` forged a whole entry's columns
 * (review rev53c F2). A single space inside a name is kept. Every TAB is
 * written `\u0009`: a terminal moves it to the next 8-column stop, so
 * `x<TAB><TAB>inlined<TAB>user.mdc` forged a status and an owner column
 * (review rev55a F1). One pass, linear.
 */
export function escapeSpacing(text: string): string {
  let out = "";
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === TAB) {
      out += `${text.slice(copied, i)}\\u0009`;
      copied = ++i;
      continue;
    }
    if (!SPACES.has(code)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && SPACES.has(text.charCodeAt(end))) end++;
    if (i === 0 || end === text.length || end - i > 1) {
      out += text.slice(copied, i);
      for (let k = i; k < end; k++) out += unitEscapes(text.charCodeAt(k));
      copied = end;
    }
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A code point in a regular expression of the `u` flag. */
const hex = (code: number) => `\\u{${code.toString(16)}}`;

/**
 * The characters of {@link HIDDEN_SPANS} but those of `keep`, as the body of
 * a regular-expression class: a report of tens of kilobytes (`render
 * --json`) is scanned by the regular-expression engine in microseconds,
 * where a loop over its characters took milliseconds in a process whose
 * code has not warmed up.
 */
function hiddenClass(keep: readonly number[]): string {
  const range = (from: number, to: number) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`);
  const kept = [...keep].sort((a, b) => a - b);
  let body = "";
  // Span by span, cut at each kept code point: a loop over every code point of
  // the spans (the tag block alone is 4,096) took 2-5 ms of each start.
  for (const [from, to] of HIDDEN_SPANS) {
    let start = from;
    for (const code of kept) {
      if (code < start || code > to) continue;
      if (start < code) body += range(start, code - 1);
      start = code + 1;
    }
    if (start <= to) body += range(start, to);
  }
  return body;
}

const HIDDEN = new RegExp(`[${hiddenClass([])}]`, "u");

/** True when `text` holds a character of {@link HIDDEN_SPANS}: it is not one plain line. */
export function holdsHidden(text: string): boolean {
  return HIDDEN.test(text);
}

/**
 * What a piece of text is, for {@link escapeControls}: which of tab and line
 * feed are its structure and stay. `report`: both (a report's lines and
 * columns); `field`: tab only (a path, a message, a table cell: a line feed
 * there could forge the next line); `name`: neither (a name quoted alone,
 * as in "did you mean").
 */
export type TextKind = "report" | "field" | "name";

const TAB = 0x09;
const LINE_FEED = 0x0a;

const ACTIVE: Record<TextKind, RegExp> = {
  report: new RegExp(`[${hiddenClass([TAB, LINE_FEED])}]`, "gu"),
  field: new RegExp(`[${hiddenClass([TAB])}]`, "gu"),
  name: new RegExp(`[${hiddenClass([])}]`, "gu"),
};

/**
 * `text` with every character a terminal could act on written as a visible
 * `\uXXXX` escape (ESC is `\u001b`); tab and line feed stay where `kind`
 * makes them structure. The escape is JSON's own, so JSON text passed
 * through this parses to the same value. Linear; text without such a
 * character is returned as it is.
 */
export function escapeControls(text: string, kind: TextKind = "report"): string {
  const active = ACTIVE[kind];
  active.lastIndex = 0;
  if (!active.test(text)) return text;
  return text.replace(active, (c) => unitEscapes(c.codePointAt(0) ?? 0));
}

/**
 * {@link escapeControls} for text that is one field of a line (a path, a
 * message, a table cell): a line feed is escaped too (`\u000a`), since in a
 * field it is not structure and could forge the next line of a report.
 */
export function escapeInline(text: string): string {
  return escapeControls(text, "field");
}

/**
 * A raw name, path or message quoting them (a diagnostic's, a listing's), as
 * the terminal prints it: its literal `\u` marked first
 * ({@link backslashesMarked}), then one line ({@link escapeInline}) with its
 * spacing visible ({@link escapeSpacing}). Only on text no escaper has
 * written yet: what `oneLine` wrote is passed to {@link escapeInline}
 * alone.
 */
export function terminalName(text: string): string {
  return escapeSpacing(escapeInline(backslashesMarked(text)));
}

const ELLIPSIS = "…";

/**
 * One printable line of at most `max` characters: controls, separators and
 * invisible format characters become spaces, runs of white space one space,
 * the ends trimmed; a longer line is cut with "…". For text a program printed
 * (a probe's output) that is shown or cached as a fact. A surrogate pair is
 * never split.
 */
export function cleanLine(text: string, max: number): string {
  let spaced = "";
  for (const c of text) spaced += isHidden(c.codePointAt(0) ?? 0) ? " " : c;
  const line = spaced.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  let end = max - ELLIPSIS.length;
  const code = line.charCodeAt(end);
  if (code >= 0xdc00 && code <= 0xdfff) end--;
  return `${line.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/**
 * A value for a message: strings quoted (and cut), other values by their kind,
 * in JavaScript's words or, for a value read from a file, YAML's. It never
 * walks into a value: a YAML alias can make a list that holds itself, and
 * JSON.stringify of one threw and failed a whole gathering step.
 */
export function describe(value: unknown, words: "js" | "yaml" = "js"): string {
  if (typeof value === "string") {
    // Capped: the value may be a whole prompt.
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  // A date as UTC, the same on every machine (review rev109b F1: `String` printed the local zone).
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? "an invalid date" : value.toISOString();
  if (Array.isArray(value)) return words === "yaml" ? "a list" : "an array";
  // YAML's `!!binary` and `!!set` are no mapping (review rev109b F1).
  if (value instanceof Uint8Array)
    return words === "yaml" ? "binary data (!!binary)" : "binary data";
  if (value instanceof Set) return words === "yaml" ? "a set (!!set)" : "a set";
  if (value instanceof Map) return words === "yaml" ? "a mapping" : "a map";
  if (value == null && words === "yaml") return "nothing";
  if (value === null) return "null";
  if (typeof value === "object") return words === "yaml" ? "a mapping" : "an object";
  return String(value);
}

/** A UTF-16 surrogate with no partner: a YAML escape (`"\ud800"`) in a rule's name or description can write one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder
 * writes it: the prompt printed to a pipe and the prompt in `--json` (or
 * sent by a host as JSON, which a provider's API refuses whole: the
 * Anthropic API answers 400 "no low surrogate in string") are then the same
 * text. Text without one is returned as it is. The one pass for every text
 * sysprompt hands an agent: each rendered section, the files given on touch
 * (`formatTouched`, so the hook, pi and opencode, and `contextFor`'s files),
 * the hook's reply and `formatSkillsForPrompt`.
 */
export function wellFormed(text: string): string {
  LONE_SURROGATE.lastIndex = 0;
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, "\ufffd") : text;
}

/**
 * `text` without the characters of `chars` at its end (and start, with "both"), found one step a
 * character: a trim such as `/\n+$/` tries a run from each of its starts, and 16 KiB of line
 * breaks in a `.git` file cost 0.15-0.25 s of CPU per check (rev50b F4).
 */
export function trimRuns(text: string, chars: string, ends: "end" | "both"): string {
  let start = 0;
  let end = text.length;
  if (ends === "both") while (start < end && chars.includes(text.charAt(start))) start++;
  while (end > start && chars.includes(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/** `\s` in JavaScript regular expressions. */
export function isJsSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
