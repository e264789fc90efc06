import { Buffer } from "node:buffer";
import { createRequire } from "node:module";
import type IgnoreFactory from "ignore";
import type { Ignore } from "ignore";
import { pushAll } from "./_arrays.js";
import { nextTurn } from "./_pace.js";
import type { Diagnostic } from "./types.js";

let ignoreFactory: typeof IgnoreFactory | undefined;

/**
 * A new, empty `ignore` list: the one glob matcher of repository patterns
 * (ignore files and rule globs alike; feed it only {@link boundedPattern}s).
 * `ignore` is loaded only once a pattern is met: many walks meet none, and a
 * CLI start counts milliseconds. `ignoreCase` is `ignore`'s default (true),
 * which rule globs keep; ignore files are matched case-sensitively, as git
 * matches them with `core.ignoreCase=false` (its setting on a Linux clone).
 */
export function newIgnore(ignoreCase = true): Ignore {
  ignoreFactory ??= createRequire(import.meta.url)("ignore") as typeof IgnoreFactory;
  return ignoreFactory({ ignorecase: ignoreCase });
}

/**
 * The ignore rules in force in one folder: the patterns of one ignore file
 * (`own`) on top of the rules of the folders above it (`parent`). A folder
 * shares its parent's rules instead of copying them, so a walk holds each
 * pattern once however many folders below it have an ignore file of their
 * own (copying them cost gigabytes on a tree of 4,000 such folders under a
 * large root file). As in git, a deeper file's pattern outranks a shallower
 * one's: the deepest file whose patterns match a path decides.
 */
export interface IgnoreRules {
  readonly parent: IgnoreRules | undefined;
  readonly own: Ignore;
  /**
   * The last segment of each of `own`'s patterns, as one case-sensitive
   * expression (as `own` matches); null when some pattern's last segment is not a plain name
   * (a `**`, a class or an escape), for which no shortcut is taken.
   */
  readonly tail: RegExp | null;
  /**
   * `own`'s patterns read case-folded, as git reads them with
   * `core.ignoreCase=true` (every macOS and Windows clone); undefined when no
   * pattern holds an ASCII letter or a class, where the fold changes nothing.
   */
  readonly folded: FoldedRules | undefined;
}

/**
 * One ignore file's patterns case-folded ({@link caseFolded}), matched case by case against a path
 * lowercased: the matcher is made the first time a name asks for it.
 */
interface FoldedRules {
  readonly patterns: readonly string[];
  /**
   * The fold leaves every pattern as it is (no uppercase letter outside a
   * class, no range over one, no `[:upper:]`): then the folded verdict is
   * `own`'s on the path with its ASCII letters lowercased, and no second
   * matcher is made.
   */
  readonly lowercase: boolean;
  /** {@link IgnoreRules.tail}, case-folded. */
  readonly tail: RegExp | null;
  matcher?: Ignore;
}

/**
 * Most `**` segments a glob or ignore pattern may hold, runs of them counted
 * as one. `ignore` turns each into a repeated group of its regular
 * expression, and k of them backtrack over a path's folders as D^k: five
 * took seconds on a path 60 folders deep, and with paths deeper or patterns
 * longer, minutes. `ignore` already tests each of a path's parent folders, so
 * one `**` costs D^2 and two cost about as much (4 and 7 ms a path 200 folders
 * deep), while three cost 200 ms there. Two keep the patterns real repositories
 * write: a build folder at any depth and all below it, the sources of any app.
 */
export const MAX_DOUBLE_STARS = 2;

/** A segment that crosses folders: two stars or more, alone (after a pattern's `!`). */
const STAR_SEGMENT = /^!?\*{2,}$/;

/**
 * `pattern` (a glob, or one ignore-file line) with each run of `**` segments
 * made one (`a/**\/**\/b` is `a/**\/b`), or undefined when it still holds
 * more than {@link MAX_DOUBLE_STARS}: such a pattern matches nothing.
 */
export function boundedPattern(pattern: string): string | undefined {
  if (!pattern.includes("**")) return pattern;
  const segments: string[] = [];
  let stars = 0;
  let afterStar = false;
  for (const segment of pattern.split("/")) {
    // `ignore` compiles `***` (any run of stars alone in a segment) as it does `**`.
    const star = STAR_SEGMENT.test(segment);
    if (star && afterStar) continue;
    afterStar = star;
    if (star) stars++;
    segments.push(segment);
  }
  return stars > MAX_DOUBLE_STARS ? undefined : segments.join("/");
}

/** Patterns kept from one ignore file; the rest are cut, and the cut is reported. */
export const MAX_PATTERNS_PER_FILE = 2000;
/** Patterns kept from all the ignore files of one walk. */
export const MAX_PATTERNS_TOTAL = 10_000;
/**
 * The weight of all the patterns one walk keeps (see {@link patternWeight}).
 * `ignore` compiles each pattern into a regular expression the first times a
 * path is tested against its file, synchronously, and what that costs grows
 * with the pattern's length, each wildcard costing several characters: five
 * ignore files of 2,000 patterns of `*a*a…` (490 characters, under the 1 MiB a
 * file) kept `render --tree --deadline 1000` busy 4.2 s (8.1 s at the
 * default 5,000 ms, 15.7 s and 836 MB without a deadline). Real repositories'
 * ignore files together weigh a few KiB; 10,000 short patterns in nested folders, rebased to the root, a few hundred.
 */
export const MAX_PATTERN_WEIGHT_TOTAL = 1024 * 1024;

/**
 * What a pattern, as `ignore` gets it (rebased to the walk's root), costs to
 * compile: its length, and 8 more for each wildcard or class, which `ignore`
 * writes as a lookahead group.
 */
export function patternWeight(pattern: string): number {
  let weight = pattern.length;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charCodeAt(i);
    if (c === 0x2a || c === 0x3f || c === 0x5b) weight += 8;
  }
  return weight;
}

/** One ignore file whose patterns were not all kept. */
export interface PatternCut {
  /** The file, as the caller named it. */
  path: string;
  kept: number;
  dropped: number;
  /**
   * Patterns that match nothing here though git's match something: more `**`
   * than {@link MAX_DOUBLE_STARS}, or longer than PATH_MAX once star runs are one.
   */
  refused?: number;
  /** The first line (1-based) whose pattern was dropped or refused. */
  line?: number;
  /**
   * The file was not read whole (a FIFO, socket or device, unreadable, past its
   * byte cap): why. Where the door refuses below it, a walk that skips ignored
   * entries for its own sake shows them and says so.
   */
  unread?: string;
}

/**
 * How many patterns one walk may still take, and the files it cut. A
 * hostile repository can hand a walk hundreds of thousands of patterns, each
 * of which costs a regular expression test for every entry it meets.
 */
export interface PatternBudget {
  readonly perFile: number;
  left: number;
  /** The {@link patternWeight} the walk may still keep. */
  weightLeft: number;
  readonly cuts: PatternCut[];
}

export function newPatternBudget(
  perFile = MAX_PATTERNS_PER_FILE,
  total = MAX_PATTERNS_TOTAL,
  weight = MAX_PATTERN_WEIGHT_TOTAL,
): PatternBudget {
  return { perFile, left: total, weightLeft: weight, cuts: [] };
}

/** Ignore files named in one diagnostic; the rest are counted. */
const MAX_CUTS_NAMED = 5;

/** One warning for the cut ignore files of a walk, naming the first few; none when nothing was cut. */
export function ignoreCutDiagnostics(all: readonly PatternCut[]): Diagnostic[] {
  const cuts = all.filter((c) => c.dropped > 0);
  const refusing = all.filter((c) => (c.refused ?? 0) > 0);
  const refused = refusing.slice(0, MAX_CUTS_NAMED).map((c) => `${c.path} (${c.refused})`);
  const more = refusing.length - refused.length;
  const chains: Diagnostic[] =
    refusing[0] === undefined
      ? []
      : [
          {
            level: "warning",
            code: "ignore-pattern-refused",
            message: `ignore patterns with more than ${MAX_DOUBLE_STARS} ** (a/**/b/**/c) match nothing (matching them costs time that grows with a path's depth to the power of their count), and so do patterns over ${MAX_PATTERN_LENGTH} characters: ${refused.join(", ")}${more > 0 ? ` and ${more} more files` : ""}`,
            path: refusing[0].path,
          },
        ];
  return [...cutDiagnostics(cuts), ...unreadDiagnostics(all), ...chains];
}

/** One warning for the ignore files of a walk not read whole (a FIFO `.gitignore`), naming the first few. */
function unreadDiagnostics(all: readonly PatternCut[]): Diagnostic[] {
  const unread = all.filter((c) => c.unread !== undefined);
  const [first] = unread;
  if (first === undefined) return [];
  const named = unread
    .slice(0, MAX_CUTS_NAMED)
    .map((c) => `${c.path} (${c.unread})`)
    .join(", ");
  const more = unread.length - MAX_CUTS_NAMED;
  return [
    {
      level: "warning",
      code: "ignore-patterns-cut",
      message: `ignore files not read whole, so entries they would hide may be shown: ${named}${more > 0 ? ` and ${more} more files` : ""}`,
      path: first.path,
    },
  ];
}

function cutDiagnostics(cuts: readonly PatternCut[]): Diagnostic[] {
  const [first] = cuts;
  if (first === undefined) return [];
  const named = cuts
    .slice(0, MAX_CUTS_NAMED)
    .map((c) => `${c.path} (${c.kept} kept, ${c.dropped} dropped)`)
    .join(", ");
  const more = cuts.length - MAX_CUTS_NAMED;
  return [
    {
      level: "warning",
      code: "ignore-patterns-cut",
      message: `ignore files hold more patterns than are kept (${MAX_PATTERNS_PER_FILE} per file, ${MAX_PATTERNS_TOTAL} in all, ${MAX_PATTERN_WEIGHT_TOTAL / 1024 / 1024} MiB of pattern text in all), so some entries they would hide may be shown: ${named}${more > 0 ? ` and ${more} more files` : ""}`,
      path: first.path,
    },
  ];
}

/**
 * `rules` extended with the ignore file found in folder `base` ("/"-separated,
 * relative to the folder the paths are checked against; "" for that folder
 * itself): its bytes, or its text (matched as its UTF-8 bytes, as git does).
 * `rules` is not changed (it still serves the folder's siblings) and not
 * copied. With a `budget`, patterns past its limits are cut and the cut, or
 * a pattern refused, is recorded under `path`. A file with no pattern left
 * gives `rules` back.
 */
export function addGitignore(
  rules: IgnoreRules | undefined,
  text: string | Uint8Array,
  base: string,
  budget?: PatternBudget,
  path = base,
): IgnoreRules | undefined {
  const { patterns, overlong } = patternLines(
    typeof text === "string" ? ignoreBytes(text) : Buffer.from(text).toString("latin1"),
  );
  const room = budget
    ? Math.max(0, Math.min(budget.perFile, budget.left, patterns.length))
    : patterns.length;
  if (budget) budget.left -= room;
  const rebased: string[] = [];
  let refused = overlong.length;
  let line = overlong[0];
  let weighed = 0;
  const folder = ignoreBytes(base);
  for (const pattern of patterns.slice(0, room)) {
    // One line may be several patterns as `ignore` reads them (see asGitMatches); any refused refuses the line.
    const alternatives = asGitMatches(pattern.text);
    const bounded: string[] = [];
    for (const alternative of alternatives) {
      const one = boundedPattern(rebasePattern(alternative, folder));
      if (one === undefined) break;
      bounded.push(one);
    }
    if (bounded.length < alternatives.length) {
      refused++;
      line = Math.min(line ?? pattern.line, pattern.line);
    } else if (budget) {
      // Past the walk's weight, this pattern and the file's others are cut.
      const weight = bounded.reduce((sum, one) => sum + patternWeight(one), 0);
      if (weight > budget.weightLeft) break;
      budget.weightLeft -= weight;
      pushAll(rebased, bounded);
    } else {
      pushAll(rebased, bounded);
    }
    weighed++;
  }
  const dropped = patterns.length - weighed;
  const firstDropped = patterns[weighed]?.line;
  if (firstDropped !== undefined) line = Math.min(line ?? firstDropped, firstDropped);
  if (budget && (dropped > 0 || refused > 0)) {
    budget.cuts.push({
      path,
      kept: weighed,
      dropped,
      ...(refused > 0 ? { refused } : {}),
      ...(line === undefined ? {} : { line }),
    });
  }
  if (rebased.length === 0) return rules;
  // Read both ways, and each reading's verdict stands (verdictOf): `secrets.txt` then `!SECRETS.TXT`
  // leaves `secrets.txt` ignored (rev51a F1), and `secrets.yml` ignores `Secrets.yml` (rev69c F6).
  const tail = tailRegex(rebased);
  let folded: FoldedRules | undefined;
  if (rebased.some((one) => CASE_MATTERS.test(one))) {
    const patterns = rebased.map((one) => (UPPER_OR_CLASS.test(one) ? caseFolded(one) : one));
    const lowercase = patterns.every((one, i) => one === rebased[i]);
    // The tail, case-insensitive and asked of the name as it is, passes every name the folded
    // patterns' own tails would pass lowercased (a class is any one character there).
    folded = { patterns, lowercase, tail: tail && new RegExp(tail.source, "i") };
  }
  return { parent: rules, own: newIgnore(false).add(rebased), tail, folded };
}

/** What a pattern needs for its case-folded reading to differ: an ASCII letter, or a class (`[@-_]` holds `A`-`Z`). */
const CASE_MATTERS = /[A-Za-z[]/;
const UPPER_OR_CLASS = /[A-Z[]/;
const UPPER = /[A-Z]/;
const UPPER_ALL = /[A-Z]/g;
const lowerAscii = (c: string) => c.toLowerCase();

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * `text`'s UTF-8 bytes, one character each (latin1). git matches ignore
 * patterns byte by byte (`?` or a class takes one byte of `é`), so patterns
 * and paths meet the matcher as bytes. ASCII is its own.
 */
export function ignoreBytes(text: string): string {
  return NON_ASCII.test(text) ? Buffer.from(text, "utf8").toString("latin1") : text;
}

/** One pattern of an ignore file and the line (1-based) it is on. */
interface PatternLine {
  text: string;
  line: number;
}

/**
 * The pattern lines of an ignore file's bytes (a latin1 string), read as
 * git reads them: a UTF-8 BOM skipped, one CR before LF dropped, a line
 * ended at a NUL (git's lines are C strings), unescaped trailing spaces
 * trimmed, no blank lines, no comments. Runs of `*` are made one (`***` is
 * `**`, as for git). `overlong` lists the lines still longer than PATH_MAX
 * (4096 on Linux) with each run of `**` segments made one: `ignore` would
 * fail to compile such a pattern and then throw on every check.
 */
function patternLines(bytes: string): { patterns: PatternLine[]; overlong: number[] } {
  const patterns: PatternLine[] = [];
  const overlong: number[] = [];
  const text = bytes.startsWith(UTF8_BOM) ? bytes.slice(UTF8_BOM.length) : bytes;
  let line = 0;
  for (const raw of text.split("\n")) {
    line++;
    const nul = raw.indexOf("\0");
    const cut = nul === -1 ? raw : raw.slice(0, nul);
    const entry = nul === -1 && cut.endsWith("\r") ? cut.slice(0, -1) : cut;
    if (entry.startsWith("#")) continue;
    const pattern = trimTrailingSpaces(entry).replace(STAR_RUN, "**");
    // A line with no pattern once its `!` and its one trailing `/` are read (`!`, `/`, `!/`) matches
    // nothing for git; rebased, `!` was `!app/**/` and took back every folder below (rev71a F2).
    if (NO_PATTERN.test(pattern)) continue;
    if ((boundedPattern(pattern) ?? pattern).length > MAX_PATTERN_LENGTH) overlong.push(line);
    else patterns.push({ text: pattern, line });
  }
  return { patterns, overlong };
}

const UTF8_BOM = "\xef\xbb\xbf";
const NO_PATTERN = /^!?\/?$/;
const STAR_RUN = /\*{3,}/g;
const MAX_PATTERN_LENGTH = 4096;

/** `pattern` without its trailing spaces, bar one escaped by `\`: git's `trim_trailing_spaces`. */
function trimTrailingSpaces(pattern: string): string {
  let lastSpace = -1;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === " ") {
      if (lastSpace === -1) lastSpace = i;
    } else {
      if (c === "\\" && ++i === pattern.length) return pattern;
      lastSpace = -1;
    }
  }
  return lastSpace === -1 ? pattern : pattern.slice(0, lastSpace);
}

/** The characters a plain last segment may hold besides wildcards and classes. */
const PLAIN_CHAR = /[A-Za-z0-9._+@,=~-]/;

/**
 * A regular expression source that matches every name `tail` (a pattern's
 * last segment) matches, and maybe more: letters, digits and common
 * punctuation as themselves, `?` and any `[…]` class as one character, at
 * most one `*` (so matching stays linear). Undefined for anything else (a
 * `**`, an escape, an unclosed class, a space), for which no shortcut is taken.
 */
function tailSource(tail: string): string | undefined {
  let out = "";
  let stars = 0;
  for (let i = 0; i < tail.length; i++) {
    const ch = tail.charAt(i);
    if (ch === "*") {
      if (++stars > 1) return undefined;
      out += "[^/]*";
    } else if (ch === "?") {
      out += "[^/]";
    } else if (ch === "[") {
      // A class matches one character; which ones does not matter to a superset. It ends where
      // wildmatch ends it (`[!][x]` is one class, rev69c F1); an unclosed one matches nothing.
      const close = classEnd(tail, i);
      if (close === i + 1) return undefined;
      out += "[^/]";
      i = close - 1;
    } else if (PLAIN_CHAR.test(ch)) {
      out += ch === "." || ch === "+" ? `\\${ch}` : ch;
    } else {
      return undefined;
    }
  }
  return out === "" ? undefined : out;
}

function tailRegex(patterns: readonly string[]): RegExp | null {
  const sources: string[] = [];
  for (const line of patterns) {
    let pattern = line.startsWith("!") ? line.slice(1) : line;
    if (pattern.endsWith("/")) pattern = pattern.slice(0, -1);
    const start = lastSegmentStart(pattern);
    const source = start === undefined ? undefined : tailSource(pattern.slice(start));
    if (source === undefined) return null;
    sources.push(source);
  }
  // Case-sensitive, as `own` is (newIgnore(false)): the shortcut may pass over only what `own` would.
  return new RegExp(`^(?:${sources.join("|")})$`);
}

/**
 * Where `pattern`'s last segment starts: past its last slash outside an
 * escape or a class. Undefined when a class holds a slash (`[a/[]]` is one
 * class, then `]`), for which no shortcut is taken.
 */
function lastSegmentStart(pattern: string): number | undefined {
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === "\\") i++;
    else if (c === "/") start = i + 1;
    else if (c === "[") {
      const close = classEnd(pattern, i);
      if (pattern.slice(i, close).includes("/")) return undefined;
      i = close - 1;
    }
  }
  return start;
}

/** What ends git's literal prefix of a pattern (`simple_length` in dir.c: `*`, `?`, `[`, `\\`). */
const GLOB_SPECIAL = /[*?[\\]/;
/** A `**` that starts a segment, before an escaped slash: it crosses folders, but never matches nothing. */
const STARS_ESCAPED_SLASH = /(^|\/)\*\*\\\//g;

/**
 * The patterns, as `ignore` (and git's documentation) reads them, that
 * together match what git matches with the ignore-file line `pattern`. They
 * differ where a `**` directly follows a pattern's leading literal text in
 * the same segment (`conf**\/secrets.yml`, `/a/b**`): git's `match_pathname`
 * (dir.c) compares the literal text before the first wildcard (`conf`) on
 * its own and hands only the rest (`**\/secrets.yml`) to wildmatch, where a
 * `**` at the start followed by `/` or the end crosses folders. So git
 * matches `config/local/secrets.yml`, `conf/a/secrets.yml` and
 * `confsecrets.yml` where the documented rule ("other consecutive asterisks
 * are regular asterisks") reads `conf*\/secrets.yml` (review rev68a F2).
 * Such a line is written as the three patterns `/confsecrets.yml`,
 * `/conf*\/secrets.yml` and `/conf*\/**\/secrets.yml`, each anchored as the
 * line is (it holds a slash). An escaped slash inside a line (`a\/**`) is a
 * slash to wildmatch, which `ignore` does not read so: it is written as one,
 * save after a `**` that starts a segment, which there crosses folders but
 * never matches nothing (`**\\/x` is `*\/**\/x`). A line without a slash is
 * matched against a name, where git's `**` is a `*`.
 */
export function asGitMatches(line: string): string[] {
  const pattern = lineEndKept(line);
  const negated = pattern.startsWith("!");
  let body = negated ? pattern.slice(1) : pattern;
  const folderOnly = body.endsWith("/");
  if (folderOnly) body = body.slice(0, -1);
  if (!body.includes("/")) return [pattern];
  const lead = body.startsWith("/") ? 1 : 0;
  const special = body.slice(lead).search(GLOB_SPECIAL);
  const prefix = body.slice(lead, lead + special);
  const crossing = special > 0 && !prefix.endsWith("/") && body.startsWith("**", lead + special);
  if (!crossing && !body.includes("\\/", 1)) return [pattern];
  const bodies = crossing
    ? starsAtStart(prefix, body.slice(lead + special)).map((one) => `/${one}`)
    : [body];
  const bang = negated ? "!" : "";
  const end = folderOnly ? "/" : "";
  return bodies.map((one) => `${bang}${slashesUnescaped(one)}${end}`);
}

/**
 * `pattern` with a last character CR (plain or escaped) written as the class
 * `[\r]`, which matches the same one character. git has dropped the one CR
 * before the line's LF already, and reads any other as part of the name
 * (`!secrets.yml\r\r`, `!secrets.yml\r  ` are `!secrets.yml\r`), where
 * `ignore`, handed a line, drops one more as a line ending: it took back
 * `secrets.yml` (rev71a F4). A CR inside a class is left: that class is
 * unclosed, and the pattern matches nothing with it or without it.
 */
function lineEndKept(pattern: string): string {
  if (!pattern.endsWith("\r")) return pattern;
  let last = 0;
  for (let i = 0; i < pattern.length; i++) {
    last = i;
    const c = pattern.charAt(i);
    if (c === "\\") i++;
    else if (c === "[") {
      const close = classEnd(pattern, i);
      if (close === i + 1) return pattern;
      i = close - 1;
    }
  }
  return `${pattern.slice(0, last)}[\r]`;
}

/**
 * `body` (a pattern with neither `!` nor a trailing `/`) with each escaped
 * slash outside a class written as a slash, as wildmatch matches it; one at
 * its start (a path never starts with `/`, so the line matches nothing) is
 * kept, as `ignore` then matches nothing either.
 */
function slashesUnescaped(body: string): string {
  const crossed = body.replace(STARS_ESCAPED_SLASH, "$1*/**/");
  let out = "";
  for (let i = 0; i < crossed.length; i++) {
    const c = crossed.charAt(i);
    if (c === "\\") {
      const next = crossed.charAt(i + 1);
      out += next === "/" && i > 0 ? "/" : c + next;
      i++;
    } else if (c === "[") {
      const close = classEnd(crossed, i);
      out += crossed.slice(i, close);
      i = close - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Where the class that opens at `open` in `pattern` ends (past its `]`), as
 * git's wildmatch reads it; `open + 1` when it is unclosed (wildmatch then
 * matches nothing). After `[`, `[!` or `[^` a `]` is a member; `\\` escapes
 * the next character, a range's end too (`[a-\\]]`); `[:name:]` is one
 * member, and a `[:` with no `:]` before the next `]` is a `[` (rev69c F1).
 */
function classEnd(pattern: string, open: number, onRange?: RangeVisitor): number {
  const length = pattern.length;
  let i = open + 1;
  if (pattern.charAt(i) === "!" || pattern.charAt(i) === "^") i++;
  // wildmatch's prev_ch: the member a `-` here would start a range from, or "" when none.
  let prev = "";
  for (let first = true; i < length; i++, first = false) {
    const c = pattern.charAt(i);
    if (c === "]" && !first) return i + 1;
    if (c === "\\") {
      if (++i === length) break;
      prev = pattern.charAt(i);
    } else if (c === "-" && prev !== "" && i + 1 < length && pattern.charAt(i + 1) !== "]") {
      if (pattern.charAt(++i) === "\\" && ++i === length) break;
      onRange?.(i + 1, prev, pattern.charAt(i));
      prev = "";
    } else if (c === "[" && pattern.charAt(i + 1) === ":") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) break;
      // `[:]` or no `:]`: a plain `[`, and the scan goes on after it.
      const named = close > i + 2 && pattern.charAt(close - 1) === ":";
      if (named && pattern.slice(i + 2, close - 1) === "upper") onRange?.(close + 1, "A", "Z");
      if (named) i = close;
      prev = named ? "" : "[";
    } else {
      prev = c;
    }
  }
  return open + 1;
}

/** Told of each range of a class (and `[:upper:]`, as `A-Z`): where it ends, and its ends as written. */
type RangeVisitor = (end: number, low: string, high: string) => void;

/**
 * `pattern` (as `ignore` reads it) written so that, matched case by case
 * against a path whose ASCII letters are lowercased, it matches what git's
 * wildmatch matches with `WM_CASEFOLD` (`core.ignoreCase=true`), which
 * lowercases the path's letter and the pattern's unescaped letter but
 * compares a class's single members, and an escaped letter, as written: so
 * `[!S]` matches `S` and `[S]` or `\S` match nothing there (an uppercase
 * letter is never a folded path's), while a range also matches a lowercase
 * letter whose uppercase it holds and `[:upper:]` any letter (rev71a F3: the
 * folded reading was a case-insensitive regular expression, where `[!S]`
 * shuns `s` and `S` alike and `![S]` took back `Secrets.yml`). So letters
 * outside classes are lowercased and each range gets, right after it, the
 * lowercase range of its uppercase letters (`[A-Z]` is `[A-Za-z]`). An
 * unclosed class matches nothing either way, and is left.
 */
export function caseFolded(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern.charAt(i);
    if (c === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (c === "[") {
      let from = i;
      const close = classEnd(pattern, i, (end, low, high) => {
        const a = Math.max(low.charCodeAt(0), 0x41);
        const b = Math.min(high.charCodeAt(0), 0x5a);
        if (a > b) return;
        out += `${pattern.slice(from, end)}${String.fromCharCode(a + 32)}-${String.fromCharCode(b + 32)}`;
        from = end;
      });
      if (close === i + 1) return pattern;
      out += pattern.slice(from, close);
      i = close - 1;
    } else {
      out += c >= "A" && c <= "Z" ? c.toLowerCase() : c;
    }
  }
  return out;
}

/**
 * What git's wildmatch matches with `rest` (a pattern that starts with `**`)
 * at the start of its text, after the literal `prefix` (no wildcard, not
 * ending in `/`), as patterns of the documented syntax. A `**` at the start
 * of wildmatch's pattern, followed by `/` (or `\\/`) or the end, matches any
 * text, slashes too; before `/` it may also match nothing, slash included
 * (`**\/x` matches `x`), which starts wildmatch again after the slash (so a
 * `**` there is at the start again). Any other `**` is a `*`. A path never
 * holds `//` nor ends in `/`, so a text after `**\/` that is empty or starts
 * with a slash is only matched by skipping.
 */
function starsAtStart(prefix: string, rest: string): string[] {
  const after = rest.slice(2);
  if (after === "") return [`${prefix}*`, `${prefix}*/**`];
  const skips = after.startsWith("/");
  if (!skips && !after.startsWith("\\/")) return [prefix + rest];
  let tail = after.slice(skips ? 1 : 2);
  // `**\/**\/x` at the start matches what `**\/x` does: a run is one, so a line makes at most four patterns.
  while (skips && tail.startsWith("**/")) tail = tail.slice(3);
  const out = !skips ? [] : tail.startsWith("**") ? starsAtStart(prefix, tail) : [prefix + tail];
  if (tail !== "" && !tail.startsWith("/") && !tail.startsWith("\\/")) {
    out.push(`${prefix}*/${tail}`, `${prefix}*/**/${tail}`);
  }
  return out;
}

/**
 * Rewrites the patterns of the ignore file in folder `base` (relative to the
 * root) so they match paths relative to the root. A pattern with a slash
 * before its end is anchored to its folder; one without matches at any depth
 * below it.
 */
export function rebaseGitignore(text: string, base: string): string {
  return text
    .split("\n")
    .map((line) =>
      line.trim() === "" || line.startsWith("#")
        ? line
        : rebasePattern(trimTrailingSpaces(line), base),
    )
    .join("\n");
}

/**
 * `pattern` (a pattern line, trailing spaces trimmed) of the ignore file in
 * folder `base`, rewritten to match from the root. The folder's name is
 * matched as it is spelt: `[locale]`, `a\b` or `#notes` are no glob syntax.
 */
function rebasePattern(pattern: string, written: string): string {
  // A base given as a folder (`app/`, the tree walk's root below the repository's top) is the
  // same folder: `app//**/x` matched nothing (review rev73a F2).
  let end = written.length;
  while (end > 0 && written.charCodeAt(end - 1) === 0x2f) end--;
  const base = written.slice(0, end);
  if (base === "") return pattern;
  const negated = pattern.startsWith("!");
  const body = negated ? pattern.slice(1) : pattern;
  const anchored = body.slice(0, -1).includes("/");
  const folder = literalGlob(base);
  const rebased = anchored ? `${folder}/${body.replace(/^\//, "")}` : `${folder}/**/${body}`;
  return negated ? `!${rebased}` : rebased;
}

/** `path` as a glob that matches it alone: each wildcard, class and escape escaped, and a leading `#` or `!`. */
function literalGlob(path: string): string {
  const escaped = path.replace(/[\\[\]*?]/g, "\\$&");
  return escaped.startsWith("#") || escaped.startsWith("!") ? `\\${escaped}` : escaped;
}

interface Verdict {
  ignored: boolean;
  unignored: boolean;
}

type OneLevelTest = (path: string, mode: "regex") => Verdict;

/**
 * What one file's patterns say of `path` itself, its parent folders aside:
 * ignored, re-included (`!`), or nothing. `ignore` keeps this test inside
 * (its public `test` first asks about every parent folder, and a shallower
 * file's verdict on a parent that a deeper file re-included would then hide
 * the whole folder). Should a later `ignore` lose it, the public test is
 * used, which is right everywhere but below such a re-included folder.
 */
function testOneLevel(own: Ignore, path: string): Verdict {
  const inner = (own as unknown as { _rules?: { test?: OneLevelTest } })._rules;
  if (typeof inner?.test === "function") return inner.test(path, "regex");
  try {
    return own.test(path);
  } catch {
    // A path `ignore` refuses (it cannot come from a readdir name): keep the entry.
    return { ignored: false, unignored: false };
  }
}

const NO_VERDICT: Verdict = { ignored: false, unignored: false };

/** Whether a file whose patterns' tails are `tail` may have a verdict on a path named `name`. */
function mayMatch(tail: RegExp | null, name: string | null): boolean {
  return name === null || tail === null || tail.test(name);
}

/** `fold`'s matcher, made the first time it is asked for. */
function foldedMatcher(fold: FoldedRules): Ignore {
  fold.matcher ??= newIgnore(false).add(fold.patterns);
  return fold.matcher;
}

/**
 * Whether `path` itself is ignored, its parent folders not asked: in each
 * reading, case by case and case-folded, the deepest file with a verdict
 * decides, and the path is ignored when either reading ignores it. The
 * repository's `core.ignoreCase` is not asked (its own `.git/config` may say
 * anything): a folded `!SECRETS.TXT` takes back nothing the case-by-case
 * reading ignores (rev51a F1), and `secrets.yml` ignores `Secrets.yml`, as
 * git on a macOS or Windows clone does (rev69c F6). A level whose tail does
 * not match `name` has no verdict, and is not asked.
 */
function verdictOf(rules: IgnoreRules | undefined, path: string, name: string | null): boolean {
  let sensitive = true;
  let folded = true;
  // ASCII only, as git folds: a lowercase file's folded verdict is `own`'s on the path lowercased.
  const lowerPath = UPPER.test(path) ? path.replace(UPPER_ALL, lowerAscii) : path;
  const lowerName =
    name === null || lowerPath === path ? name : name.replace(UPPER_ALL, lowerAscii);
  for (let level = rules; level; level = level.parent) {
    const verdict =
      sensitive && mayMatch(level.tail, name) ? testOneLevel(level.own, path) : NO_VERDICT;
    if (verdict.ignored) return true;
    if (folded) {
      const fold = level.folded;
      let other = verdict;
      if (fold !== undefined && !fold.lowercase) {
        other = mayMatch(fold.tail, name)
          ? testOneLevel(foldedMatcher(fold), lowerPath)
          : NO_VERDICT;
      } else if (fold !== undefined && lowerPath !== path) {
        other = mayMatch(level.tail, lowerName) ? testOneLevel(level.own, lowerPath) : NO_VERDICT;
      } else if (!sensitive && mayMatch(level.tail, name)) {
        other = testOneLevel(level.own, path);
      }
      if (other.ignored) return true;
      if (other.unignored) folded = false;
    }
    if (verdict.unignored) sensitive = false;
    if (!sensitive && !folded) return false;
  }
  return false;
}

/**
 * Whether `path` ("/"-separated, relative; a folder ends in "/") is ignored,
 * as git decides: a path in an ignored folder is ignored whatever a pattern
 * says of it.
 */
export function isIgnored(rules: IgnoreRules | undefined, path: string): boolean {
  if (!rules || path === "") return false;
  path = ignoreBytes(path);
  for (let slash = path.indexOf("/"); slash !== -1 && slash < path.length - 1; ) {
    if (verdictOf(rules, path.slice(0, slash + 1), null)) return true;
    slash = path.indexOf("/", slash + 1);
  }
  return verdictOf(rules, path, null);
}

/**
 * {@link isIgnored}, with the event loop given its turn ({@link nextTurn})
 * before each parent folder's verdict, and `signal` heard there. Each verdict
 * tests every pattern in force against a path as long as `path`, so a path
 * hundreds of folders deep under the walk's 10,000 patterns costs its depth
 * squared times them: a working folder 300 deep took 19 s in one call.
 */
export async function isIgnoredPaced(
  rules: IgnoreRules | undefined,
  path: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (!rules || path === "") return false;
  path = ignoreBytes(path);
  for (let slash = path.indexOf("/"); slash !== -1 && slash < path.length - 1; ) {
    const turn = nextTurn(signal);
    if (turn) await turn;
    if (verdictOf(rules, path.slice(0, slash + 1), null)) return true;
    slash = path.indexOf("/", slash + 1);
  }
  const turn = nextTurn(signal);
  if (turn) await turn;
  return verdictOf(rules, path, null);
}

/**
 * {@link isIgnored} for a path whose parent folders are known not to be
 * ignored (a walk that never enters an ignored folder). A pattern can then
 * only match the path through its last segment, so a file whose patterns'
 * last segments do not match the path's name is passed over without asking
 * `ignore`, whose check of one path costs about ten microseconds before the
 * JIT has warmed up: most of a cold tree walk's time on a large repository.
 */
export function isIgnoredInKeptFolder(rules: IgnoreRules | undefined, path: string): boolean {
  if (!rules || path === "") return false;
  path = ignoreBytes(path);
  const end = path.endsWith("/") ? path.length - 1 : path.length;
  const name = path.slice(path.lastIndexOf("/", end - 1) + 1, end);
  return verdictOf(rules, path, name);
}
