import { Buffer, isUtf8 } from "node:buffer";
import { dirname, join, relative, resolve, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { ignoreBytes } from "../_gitignore.js";
import { lstatKindOrMissing } from "../_io.js";
import { homeFolder, isBelowCeiling, isWithin } from "../_paths.js";
import { readCappedBytes } from "./capped-read.js";
import {
  type CompileOptions,
  compileRegexes,
  type LinearRegex,
  parseRegex,
  regexSize,
  Unreadable,
} from "./linear-regex.js";
import { holdsOwnHgWorkingCopy, type RefusedRootMarker } from "./project-root.js";

/** A `.hgignore` larger than this is read up to here, and the rest makes everything private. */
const MAX_HGIGNORE_BYTES = 256 * 1024;

/**
 * What a Mercurial working copy's `.hgignore` ignores, as Mercurial reads it
 * (`hg help hgignore`): `ignores(rel)` for a path below the working copy's top
 * ("a/b/c", "/"-separated), true when the path or a folder above it matches,
 * read case by case or case-folded (ASCII letters): a path is ignored when
 * either reading ignores it, as git's rules are read (`verdictOf` in
 * src/_gitignore.ts, rev69c F6). With no `!` in a `.hgignore`, the folded
 * reading holds all the case-by-case one does, so it alone is matched
 * ({@link CompileOptions.foldCase}): `secrets.yml` ignores the `SECRETS.YML`
 * a case-insensitive file system opens as your ignored file (rev70b F8);
 * `cut` says where the file was not read whole (a line this reader cannot
 * take, a `subinclude:`, past the cap, a link or FIFO in its place), below
 * which nothing is proven kept.
 */
export interface HgIgnore {
  ignores(rel: string): boolean;
  /** Set by `ignores` too, once the patterns cost more to match than is allowed. */
  cut: string | undefined;
}

/**
 * The `.hgignore` of `root`, a Mercurial working copy's top (see
 * `holdsOwnHgWorkingCopy`), or undefined. Only the top's file counts, as for
 * Mercurial (a nested one is read only through `subinclude:`). The file is
 * read as the door's in-tree ignore files are: a capped regular file, never
 * through a link (Mercurial follows one; it is then a cut, so the door
 * refuses rather than passes). Read through {@link hgIgnoreAround} alone,
 * which finds the working copy a path is in. `name`: another file below the
 * top, one the copy's `.hg/hgrc` names ({@link hgrcIgnoreFiles}), read alike.
 */
async function readHgIgnore(root: string, name = ".hgignore"): Promise<HgIgnore | undefined> {
  const path = join(root, name);
  const read = await readCappedBytes(path, MAX_HGIGNORE_BYTES, { follow: false });
  if (!read.ok) {
    if (read.reason === "missing") return undefined;
    const kind = await lstatKindOrMissing(path);
    if (kind === "dir") return undefined;
    return { ignores: () => false, cut: `${name} could not be read (a link, FIFO or device)` };
  }
  const bytes = Buffer.from(read.bytes.subarray(0, MAX_HGIGNORE_BYTES)).toString("latin1");
  const rules = compileHgIgnore(bytes, name);
  if (read.total > MAX_HGIGNORE_BYTES && rules.cut === undefined) {
    return { ...rules, cut: `${name} is read up to ${MAX_HGIGNORE_BYTES / 1024} KiB` };
  }
  return rules;
}

/** A working copy's `.hg/hgrc` larger than this is read up to here. */
const MAX_HGRC_BYTES = 64 * 1024;

/** The ignore files one `.hg/hgrc` may name that are read; a name past them is a cut. */
const MAX_HGRC_IGNORE_FILES = 16;

/**
 * The ignore files a working copy's own `.hg/hgrc` names (`[ui]`'s `ignore`
 * and `ignore.NAME`), paths below the working copy's top, each then read as
 * its `.hgignore` is, as Mercurial's `dirstate._ignorefiles` joins them to
 * the top: the last value of a name kept, `%unset` taking it away, a line
 * that starts with blanks continuing the value above it (decided, review
 * rev82a F5: your per-clone list, Mercurial's twin of `.git/info/exclude`,
 * was not read, and `render --untrusted` inlined the file it ignores). Only
 * a path inside the working copy is read: `~`, `$VAR`, an absolute path or
 * one that leaves the copy is a cut, as is a `%include` (never followed) or
 * an `.hg/hgrc` not read whole, since a file's lines may reach a warning and
 * a repository's own `.hg/hgrc` (one it commits below your copy) must not
 * name a file of yours for them. Read through the door's capped reader,
 * never through a link.
 */
async function hgrcIgnoreFiles(top: string): Promise<{ names: string[]; cut?: string }> {
  const read = await readCappedBytes(join(top, ".hg", "hgrc"), MAX_HGRC_BYTES, { follow: false });
  if (!read.ok) {
    if (read.reason === "missing") return { names: [] };
    const kind = await lstatKindOrMissing(join(top, ".hg", "hgrc"));
    if (kind === "dir") return { names: [] };
    return { names: [], cut: ".hg/hgrc could not be read (a link, FIFO or device)" };
  }
  const text = Buffer.from(read.bytes.subarray(0, MAX_HGRC_BYTES)).toString("latin1");
  let cut: string | undefined =
    read.total > MAX_HGRC_BYTES ? `.hg/hgrc is read up to ${MAX_HGRC_BYTES / 1024} KiB` : undefined;
  const values = new Map<string, string>();
  let section = "";
  let last: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    // A continuation line: blanks, then more of the value above it.
    if (last !== undefined && /^[ \t]+\S/.test(line)) {
      values.set(last, `${values.get(last) ?? ""}\n${line.trim()}`);
      continue;
    }
    last = undefined;
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const header = /^\[([^\]]+)\]/.exec(trimmed);
    if (header) {
      section = (header[1] ?? "").trim();
      continue;
    }
    if (trimmed.startsWith("%include")) {
      cut ??= ".hg/hgrc: a %include is not followed";
      continue;
    }
    if (trimmed.startsWith("%unset")) {
      if (section === "ui") values.delete(trimmed.slice("%unset".length).trim());
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 0 || section !== "ui") continue;
    const key = line.slice(0, eq).trim();
    if (key !== "ignore" && !key.startsWith("ignore.")) continue;
    values.set(key, line.slice(eq + 1).trim());
    last = key;
  }
  const names: string[] = [];
  for (const [key, raw] of values) {
    const value = raw.trim();
    if (value === "") continue;
    const name = normpath(value);
    if (/^[~/]/.test(value) || value.includes("$") || name === ".." || name.startsWith("../")) {
      cut ??= `.hg/hgrc: ui.${key} names a file outside the working copy, not read`;
    } else if (names.length >= MAX_HGRC_IGNORE_FILES) {
      cut ??= `.hg/hgrc: more than ${MAX_HGRC_IGNORE_FILES} ignore files named`;
    } else if (name !== ".hgignore" && !names.includes(name)) names.push(name);
  }
  return cut === undefined ? { names } : { names, cut };
}

/** One Mercurial working copy's `.hgignore` in force at a root: its rules, the root's path below its top (`at`, "" or "a/b/"), and the file's path. */
export interface HgCopy {
  rules: HgIgnore;
  at: string;
  file: string;
}

/**
 * The `.hgignore` files in force at `root`: that of every Mercurial working
 * copy at or above `root` (nearest first), each with `at`, `root`'s path below
 * that copy's top; what the door and the workspace tree both ask
 * ({@link hgIgnored}). An ignore file only makes more of a project private,
 * so every working copy's counts, not only the nearest (decided, review
 * rev82a F1: a repository that commits a `.hg` folder, or a link named
 * `.hg`, inside your working copy ended the walk at it, and your copy's
 * `.hgignore` was no longer read below it). A `.git` on the way ends nothing
 * either: Mercurial walks into a git repository its working copy holds
 * (rev70b F10). A marker that is another user's, or lies in a folder other
 * users may write to, marks no copy ({@link holdsOwnHgWorkingCopy}) and is
 * put in `refused` (rev82a F2). No folder above `ceiling` is looked at, nor,
 * above `root`, the home folder or one above it (`home`, default your home
 * folder): a dotfiles working copy is yours, as its rules, the home folder
 * never a project root (as for git's repositories around a root,
 * `enclosingRepositories`).
 */
export async function hgIgnoreAround(
  root: string,
  stops: { ceiling?: string | undefined; home?: string | undefined } = {},
  refused?: RefusedRootMarker[],
): Promise<HgCopy[]> {
  const home = resolve(stops.home ?? homeFolder());
  const homes = [home, await realpathOrSelf(home)];
  const copies: HgCopy[] = [];
  for (let dir = root; ; ) {
    // A `.hg` folder, or a link to one (rev71a F6): either only adds its folder's `.hgignore`.
    if (await holdsOwnHgWorkingCopy(dir, refused)) {
      const rel = relative(dir, root).split(sep).join("/");
      const at = rel === "" ? "" : `${rel}/`;
      // Its `.hgignore`, and the files its own `.hg/hgrc` names (rev82a F5).
      const named = await hgrcIgnoreFiles(dir);
      const names = [".hgignore", ...named.names];
      const read = await Promise.all(names.map((name) => readHgIgnore(dir, name)));
      for (const [i, rules] of read.entries()) {
        if (rules) copies.push({ rules, at, file: join(dir, names[i] ?? ".hgignore") });
      }
      if (named.cut !== undefined) {
        const cut = { ignores: () => false, cut: named.cut };
        copies.push({ rules: cut, at, file: join(dir, ".hg", "hgrc") });
      }
    }
    const up = dirname(dir);
    if (up === dir || !isBelowCeiling(up, stops.ceiling) || homes.some((h) => isWithin(h, up))) {
      return copies;
    }
    dir = up;
  }
}

/** Whether a working copy of `copies` ({@link hgIgnoreAround}) ignores `rel`, a path below their root ("a/b"). */
export function hgIgnored(copies: readonly HgCopy[], rel: string): boolean {
  return copies.some((c) => c.rules.ignores(c.at + rel));
}

/**
 * Instructions the whole file's program may hold (each line's is bounded on
 * its own by `MAX_PROGRAM`); the line that would pass it, and every line
 * after it, is a cut. Checked before the program is built: its arrays grow
 * with the sum.
 */
export const MAX_HGIGNORE_PROGRAM = 200_000;

/** Mercurial's syntax names (`syntax: NAME`, or `NAME:` before one line) and their kinds. */
const SYNTAXES: readonly (readonly [string, string])[] = [
  ["re", "relre:"],
  ["regexp", "relre:"],
  ["glob", "relglob:"],
  ["rootglob", "rootglob:"],
  ["include", "include"],
  ["subinclude", "subinclude"],
];

/**
 * The syntax names of hg-core, the Rust status Mercurial runs when it is built
 * with its Rust extensions: Python's and `path`, `relpath`, `filepath`,
 * `rootfilesin`, `relglob`, `relre`, each also as a line's `NAME:` prefix
 * (`include` and `subinclude` only with their colon). A line is read both
 * ways, as git's rules are read both ways (either reading ignoring it counts).
 */
const RUST_SYNTAXES: readonly (readonly [string, string])[] = [
  ...SYNTAXES.filter(([s]) => s !== "include" && s !== "subinclude"),
  ["relre", "relre:"],
  ["relglob", "relglob:"],
  ["path", "path:"],
  ["relpath", "path:"],
  ["filepath", "filepath:"],
  ["rootfilesin", "rootfilesin:"],
  ["include", "include:"],
  ["subinclude", "subinclude:"],
];

/** What Mercurial appends to a glob in an ignore file: the path, or a folder above it. */
const GLOB_SUFFIX = "(?:/|$)";

/**
 * The regular expression's source of one pattern of kind `kind` (a reading's
 * kind other than an include). A glob or a path is normalised as a path first
 * (`_donormalize`'s `util.normpath`, hg-core's `normalize_path_bytes`):
 * `secrets/`, `./x`, `a/../x` and `a//b` are `secrets`, `x`, `x` and `a/b` to
 * Mercurial (rev71a F1); a regular expression is not.
 */
function sourceOf(kind: string, pattern: string): string {
  if (kind === "relre:") return pattern.startsWith("^") ? pattern : `.*${pattern}`;
  if (kind === "relglob:") return `(?:|.*/)${globRegex(normpath(pattern))}${GLOB_SUFFIX}`;
  if (kind === "rootglob:") return globRegex(normpath(pattern)) + GLOB_SUFFIX;
  if (kind === "filepath:") return `${literalRegex(pattern)}$`;
  const path = normpath(pattern);
  if (kind === "rootfilesin:") return `${path === "." ? "" : `${literalRegex(path)}/`}[^/]+$`;
  // `path:` and `relpath:`, rooted alike: `.` is the top, every path below it.
  return path === "." ? "" : literalRegex(path) + GLOB_SUFFIX;
}

/**
 * The rules of a `.hgignore`'s bytes (a latin1 string), read line by line as
 * Mercurial's `readpatternfile` reads them, and as hg-core's
 * `parse_pattern_file_contents` does where it reads otherwise (a path is
 * ignored when either reading ignores it); the first line it cannot read is
 * the cut.
 */
export function compileHgIgnore(bytes: string, name = ".hgignore"): HgIgnore {
  let syntax = "relre:";
  let rustSyntax = "relre:";
  let cut: string | undefined;
  const trees: ReturnType<typeof parseRegex>[] = [];
  let total = 0;
  let lineNo = 0;
  for (const raw of bytes.split("\n")) {
    if (total > MAX_HGIGNORE_PROGRAM) break;
    lineNo++;
    const commentless = stripComment(raw);
    const line = withoutTrailingBlanks(commentless);
    // Where hg-core may read the line otherwise than Python, a cut: Python's reading is kept.
    const differs = readingsDiffer(raw, commentless);
    if (differs !== undefined) cut ??= `${name} line ${lineNo}: ${differs}`;
    if (line === "") continue;
    if (line.startsWith("syntax:")) {
      // Python's `bytes.strip()`: ASCII blanks only (`glob\xa0` is no syntax to Mercurial).
      const name = asciiStrip(line.slice(7));
      const found = SYNTAXES.find(([s]) => s === name);
      // An unknown name is passed over with a warning by Mercurial, its syntax kept.
      if (found) syntax = found[1];
      // hg-core's trims (`is_ascii_whitespace`) keep \v: `syntax: glob\v` is no name to it, and
      // the regexp in force stays (rev77a F2; a cut above too, as an older hg-core trims otherwise).
      const rustName = asciiStrip(
        withoutTrailingBlanks(commentless, HG_CORE_BLANKS).slice(7),
        HG_CORE_BLANKS,
      );
      rustSyntax = RUST_SYNTAXES.find(([s]) => s === rustName)?.[1] ?? rustSyntax;
      continue;
    }
    let kind = syntax;
    let pattern = line;
    let named = false;
    for (const [s, rels] of SYNTAXES) {
      if (line.startsWith(rels) || line.startsWith(`${s}:`)) {
        kind = rels;
        pattern = line.slice(line.startsWith(rels) ? rels.length : s.length + 1);
        named = true;
        break;
      }
    }
    // Each source, and what of it hg-core compiles with the regex crate: a regular expression
    // whole, a glob's classes (its `*`, `?` and names hg-core writes as bytes of its own).
    const sources: [string, true | "classes"][] = [];
    if (kind === "include" || kind === "subinclude") {
      if (!named) {
        cut ??= `${name} line ${lineNo}: under syntax: ${kind}, not read`;
        continue;
      }
      if (pattern.startsWith(":")) {
        cut ??= `${name} line ${lineNo}: ${kind}: names another file, not read`;
        continue;
      }
      // `includes/x` is taken as an include by Mercurial's prefix test, which then reads the
      // whole line as a rooted glob, made canonical first (`pathutil.canonpath`: `includes/../x`
      // is `x`, `include/..` the top, which ignores everything; one that leaves the top stops
      // Mercurial). Read it so, and in the syntax in force: each only makes more private.
      const canonical = normpath(line);
      if (canonical === ".." || canonical.startsWith("../")) {
        cut ??= `${name} line ${lineNo}: a pattern that leaves the working copy (Mercurial stops at it)`;
        continue;
      }
      sources.push([canonical === "." ? "" : globRegex(canonical) + GLOB_SUFFIX, "classes"]);
      kind = syntax;
      pattern = line;
    }
    // Under `syntax: include` the rooted glob above is all.
    if (kind !== "include" && kind !== "subinclude") {
      sources.push([sourceOf(kind, pattern), kind === "relre:" || "classes"]);
    }
    // hg-core's reading, where it differs (a `path:` line, a `syntax: relpath`): its include is
    // Python's too (a cut above).
    const rust = RUST_SYNTAXES.find(([s]) => line.startsWith(`${s}:`));
    const rustKind = rust?.[1] ?? rustSyntax;
    if (rustKind !== kind && !rustKind.includes("include")) {
      sources.push([
        sourceOf(rustKind, rust ? line.slice(rust[0].length + 1) : line),
        rustKind === "relre:" || "classes",
      ]);
    }
    try {
      for (const [source, regexCrate] of sources) {
        const tree = parseRegex(source, { regexCrate });
        total += regexSize(tree);
        if (total > MAX_HGIGNORE_PROGRAM) {
          cut ??= `${name} line ${lineNo}: its patterns together are past what this reader takes`;
          break;
        }
        trees.push(tree);
      }
    } catch (error) {
      // Anything the parse throws (a stack overflow too) is a line not read, never a failed step.
      const why = error instanceof Unreadable ? error.message : "an error reading it";
      cut ??= `${name} line ${lineNo}: a pattern this reader cannot take (${why})`;
    }
  }
  let program: LinearRegex | undefined;
  try {
    program = trees.length === 0 ? undefined : compileRegexes(trees, { foldCase: true });
  } catch {
    program = undefined;
    cut ??= `${name}: its patterns together are past what this reader takes`;
  }
  const rules: HgIgnore = {
    ignores: (rel) => {
      if (program === undefined) return false;
      try {
        return program.matches(ignoreBytes(rel), 0x2f);
      } catch (error) {
        if (!(error instanceof Unreadable)) throw error;
        // Past the program's work bound: nothing more is matched, and nothing is proven kept.
        program = undefined;
        rules.cut ??= `${name}: ${error.message}`;
        return false;
      }
    },
    cut,
  };
  return rules;
}

/** Blanks some reader trims from a line's end: Python's `rstrip()` (ASCII: space, \t to \r), hg-core's `is_ascii_whitespace` (not \v), an older hg-core's `char::is_whitespace` on each byte (also 0x85, 0xA0). */
const ANY_BLANK = " \t\n\r\v\f\x85\xa0";

/**
 * Why hg-core may read `raw` (a line, latin1) otherwise than Python's
 * Mercurial does, or undefined: a byte that is not UTF-8 (hg-core finds
 * comments with a Unicode expression, which matches no such byte, so a `#`
 * after one starts none and `#.*` stops at one; the newest refuses such a
 * regular expression, an older one read it), or, ending the line without
 * its comment or after `syntax:`, a blank the readers' trims treat apart
 * (\v, 0x85, 0xA0: `syntax: glob\v` is glob to Python, an unknown name to
 * hg-core, which keeps regexp in force).
 */
function readingsDiffer(raw: string, commentless: string): string | undefined {
  if (/[\x80-\xff]/.test(raw) && !isUtf8(Buffer.from(raw, "latin1"))) {
    return "a byte that is not UTF-8 (hg-core finds its comment otherwise)";
  }
  const apart = (c: string) => c === "\v" || c === "\x85" || c === "\xa0";
  for (
    let end = commentless.length;
    end > 0 && ANY_BLANK.includes(commentless.charAt(end - 1));
    end--
  ) {
    if (apart(commentless.charAt(end - 1)))
      return "a blank at its end that Mercurial's readers trim apart";
  }
  if (commentless.startsWith("syntax:")) {
    for (let at = 7; at < commentless.length && ANY_BLANK.includes(commentless.charAt(at)); at++) {
      if (apart(commentless.charAt(at)))
        return "a blank before its syntax that Mercurial's readers trim apart";
    }
  }
  return undefined;
}

/** `line` without its comment: from the first `#` after an even run of backslashes; `\#` is `#`. */
function stripComment(line: string): string {
  let out = line;
  let run = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charAt(i);
    if (ch === "#" && run % 2 === 0) {
      out = line.slice(0, i);
      break;
    }
    run = ch === "\\" ? run + 1 : 0;
  }
  return out.replaceAll("\\#", "#");
}

const REGEX_SPECIAL = /[.^$*+?()[\]{}|\\/\-&~# \t\n\r\v\f]/;

/** One character of a pattern as a regular expression's literal. */
const escaped = (c: string) => (REGEX_SPECIAL.test(c) ? `\\${c}` : c);

/** A path as a regular expression matching it literally (Python's `re.escape`). */
function literalRegex(path: string): string {
  let res = "";
  for (const c of path) res += escaped(c);
  return res;
}

/** Mercurial's `_globre`: a glob as a regular expression's source. */
export function globRegex(pat: string): string {
  let res = "";
  let group = 0;
  const n = pat.length;
  for (let i = 0; i < n; ) {
    const c = pat.charAt(i++);
    if (!"*?[{},\\".includes(c)) {
      res += escaped(c);
    } else if (c === "*") {
      if (pat.charAt(i) === "*") {
        i++;
        if (pat.charAt(i) === "/") {
          i++;
          res += "(?:.*/)?";
        } else res += ".*";
      } else res += "[^/]*";
    } else if (c === "?") {
      res += ".";
    } else if (c === "[") {
      let j = i;
      if (j < n && "!]".includes(pat.charAt(j))) j++;
      while (j < n && pat.charAt(j) !== "]") j++;
      if (j >= n) res += "\\[";
      else {
        let stuff = pat.slice(i, j).replaceAll("\\", "\\\\");
        i = j + 1;
        if (stuff.startsWith("!")) stuff = `^${stuff.slice(1)}`;
        else if (stuff.startsWith("^")) stuff = `\\${stuff}`;
        res += `[${stuff}]`;
      }
    } else if (c === "{") {
      group++;
      res += "(?:";
    } else if (c === "}" && group > 0) {
      res += ")";
      group--;
    } else if (c === "," && group > 0) {
      res += "|";
    } else if (c === "\\") {
      const p = pat.charAt(i);
      if (p !== "") {
        i++;
        res += escaped(p);
      } else res += escaped(c);
    } else res += escaped(c);
  }
  return res;
}

/**
 * Python's `posixpath.normpath`, which Mercurial's `util.normpath` is on a
 * POSIX system (and hg-core's `normalize_path_bytes`): empty and `.` names
 * dropped, a `..` taking the name before it away (one at the start stays),
 * one or two leading slashes kept (three or more are one), `.` for nothing.
 */
export function normpath(path: string): string {
  if (path === "") return ".";
  let lead = 0;
  while (path.charAt(lead) === "/") lead++;
  if (lead > 2) lead = 1;
  const names: string[] = [];
  for (const name of path.split("/")) {
    if (name === "" || name === ".") continue;
    if (name !== ".." || (lead === 0 && names.length === 0) || names.at(-1) === "..") {
      names.push(name);
    } else if (names.length > 0) names.pop();
  }
  const out = "/".repeat(lead) + names.join("/");
  return out === "" ? "." : out;
}

/** The blanks Python's `bytes.strip()` and `rstrip()` take, and those hg-core's `is_ascii_whitespace` takes (not \v). */
const PYTHON_BLANKS = " \t\n\r\v\f";
const HG_CORE_BLANKS = " \t\n\r\f";

/** `text` without its leading and trailing `blanks` (Python's `bytes.strip()`). */
function asciiStrip(text: string, blanks = PYTHON_BLANKS): string {
  let start = 0;
  while (start < text.length && blanks.includes(text.charAt(start))) start++;
  return withoutTrailingBlanks(text.slice(start), blanks);
}

/** `text` without its trailing ASCII blanks (as Python's `rstrip()`), by hand: a `[ \t…]+$` regex is quadratic on a long run of blanks followed by something else. */
function withoutTrailingBlanks(text: string, blanks = PYTHON_BLANKS): string {
  let end = text.length;
  while (end > 0 && blanks.includes(text.charAt(end - 1))) end--;
  return text.slice(0, end);
}
