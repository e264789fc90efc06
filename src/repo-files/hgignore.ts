import { Buffer, isUtf8 } from "node:buffer";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { ignoreBytes } from "../_gitignore.js";
import { lstatKindOrMissing, realpath } from "../_io.js";
import { pace } from "../_pace.js";
import { homeFolder, isWithin, looksAround } from "../_paths.js";
import {
  type CompileOptions,
  compileRegexes,
  type LinearRegex,
  parseRegex,
  regexSize,
  Unreadable,
} from "./linear-regex.js";
import { plantedCheck } from "./planted.js";
import { holdsOwnHgWorkingCopy, type RefusedRootMarker } from "./project-root.js";
import type { Reach } from "./reach.js";
import { readRepoBytes } from "./read.js";

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

/** A `.hgignore`, or a file a copy's `.hg/hgrc` names, read: its bytes (latin1) and the real file, or a cut. */
type HgFileRead = { bytes: string; file: string; over: boolean } | { cut: string } | undefined;

/**
 * The working copy `top`'s reach for its own ignore files: a file whose real
 * path leaves the copy is not its to give (decided, review rev82e F1: `l ->
 * ~/.ssh` and `ignore = l/id_rsa` made your key's lines ignore patterns).
 */
async function copyReach(top: string): Promise<Reach> {
  return {
    root: top,
    realRoot: await realpathOrSelf(top),
    excluded: [],
    nested: () => Promise.resolve(undefined),
    planted: plantedCheck(),
  };
}

/**
 * The file `name` below `top`, a Mercurial working copy's top (see
 * `holdsOwnHgWorkingCopy`), read as the door's in-tree ignore files are: a
 * capped regular file, never through a link at its own name (Mercurial
 * follows one; it is then a cut, so the door refuses rather than passes),
 * and opened through the door's one open-then-check against the copy
 * ({@link readRepoBytes}): a name whose real path leaves the copy, through a
 * linked folder on its way too, is a cut, never read, and its cut quotes
 * nothing of it (rev82e F1). Undefined: no such file (or a folder).
 */
async function readCopyFile(
  top: string,
  name: string,
  reach: Reach,
  maxBytes: number,
): Promise<HgFileRead> {
  const path = join(top, name);
  // A name through a folder out of the copy is a cut, whatever is there or not: nothing of it,
  // not even whether a file of yours is there, is told.
  const out = { cut: `${name} leads out of the working copy, not read` };
  if (!(await staysIn(top, path, reach.realRoot))) return out;
  const kind = await lstatKindOrMissing(path).catch(() => "other" as const);
  if (kind === undefined || kind === "dir") return undefined;
  if (kind !== "file") return { cut: `${name} could not be read (a link, FIFO or device)` };
  const read = await readRepoBytes(path, { reach, named: true, maxBytes });
  if (!read.ok) {
    if (read.reason === "missing") return undefined;
    // Its real path checked at the open too (a folder swapped in since).
    if (read.reason === "refused") return out;
    if (read.reason === "not-file" && (await lstatKindOrMissing(path)) === "dir") return undefined;
    return { cut: `${name} could not be read (a link, FIFO or device)` };
  }
  return {
    bytes: Buffer.from(read.bytes.subarray(0, maxBytes)).toString("latin1"),
    file: `${read.stats.dev}:${read.stats.ino}`,
    over: read.total > maxBytes,
  };
}

/** Whether the nearest folder of `path` that is there, below `top`, lies inside `realTop` by its real path. */
async function staysIn(top: string, path: string, realTop: string): Promise<boolean> {
  for (let dir = dirname(path); dir !== top && isWithin(dir, top); dir = dirname(dir)) {
    const real = await realpath(dir).catch(() => undefined);
    if (real !== undefined) return isWithin(real, realTop);
  }
  return true;
}

/** A working copy's `.hg/hgrc` larger than this is read up to here. */
const MAX_HGRC_BYTES = 64 * 1024;

/** The ignore files one working copy's `.hg/hgrc` may name that are read; a name past them is a cut. */
const MAX_HGRC_IGNORE_FILES = 16;

/**
 * The ignore files a working copy's own `.hg/hgrc` and then
 * `.hg/hgrc-not-shared` name (`[ui]`'s `ignore` and `ignore.NAME`), paths
 * below the working copy's top, each then read as its `.hgignore` is, as
 * Mercurial's `dirstate._ignorefiles` joins them to the top: the last value
 * of a name kept, `%unset` taking it away, a line that starts with blanks
 * continuing the value above it (a `#`/`;` line between them passed over),
 * a UTF-8 BOM on line 1 dropped and a lone CR ending a line, as Mercurial's
 * `config.parse` reads them (decided, review rev82a F5: your per-clone list,
 * Mercurial's twin of `.git/info/exclude`, was not read, and `render
 * --untrusted` inlined the file it ignores; review rev82e F5: with a BOM or
 * CR line ends, or in `hgrc-not-shared`, it still was). Only a path inside
 * the working copy is read: `~`, `$VAR`, an absolute path or one that leaves
 * the copy is a cut, as is a `%include` (never followed) or an hgrc not read
 * whole, since a file's lines may reach a warning and a repository's own
 * `.hg/hgrc` (one it commits below your copy) must not name a file of yours
 * for them. A `.hg` that is a link has no hgrc read (decided, review rev82e
 * F4: `.hg -> ~/.config/hg` read your own hgrc as the copy's): its
 * `.hgignore` still counts, which only makes more private.
 */
async function hgrcIgnoreFiles(
  top: string,
  reach: Reach,
  homes: readonly string[],
): Promise<{ names: string[]; cut?: string }> {
  const hg = await lstatKindOrMissing(join(top, ".hg")).catch(() => undefined);
  if (hg !== "dir") return { names: [] };
  const values = new Map<string, string>();
  // Which hgrc gave each value, for a cut's words.
  const from = new Map<string, string>();
  let cut: string | undefined;
  // A share-safe share's source hgrc first, as Mercurial's `loadhgrc` reads it (rev82e F5).
  const source = await shareSourceHgrc(top, reach, homes);
  const reads: [string, HgFileRead][] = source === undefined ? [] : [[SOURCE_HGRC, source]];
  for (const file of ["hgrc", "hgrc-not-shared"]) {
    const name = `.hg/${file}`;
    reads.push([name, await readCopyFile(top, name, reach, MAX_HGRC_BYTES)]);
  }
  for (const [name, read] of reads) {
    if (read === undefined) continue;
    if ("cut" in read) {
      cut ??= read.cut;
      continue;
    }
    if (read.over) cut ??= `${name} is read up to ${MAX_HGRC_BYTES / 1024} KiB`;
    const included = parseHgrc(read.bytes, values, (key) => from.set(key, name));
    if (included) cut ??= `${name}: a %include is not followed`;
  }
  const names: string[] = [];
  for (const [key, raw] of values) {
    const value = raw.trim();
    if (value === "") continue;
    const name = normpath(value);
    if (/^[~/]/.test(value) || value.includes("$") || name === ".." || name.startsWith("../")) {
      cut ??= `${from.get(key) ?? ".hg/hgrc"}: ui.${key} names a file outside the working copy, not read`;
    } else if (names.length >= MAX_HGRC_IGNORE_FILES) {
      // Named by the hgrc that gave the value past the bound: the share source's, say (rev89f F3).
      cut ??= `${from.get(key) ?? ".hg/hgrc"}: more than ${MAX_HGRC_IGNORE_FILES} ignore files named`;
    } else if (name !== ".hgignore" && !names.includes(name)) names.push(name);
  }
  return cut === undefined ? { names } : { names, cut };
}

/** How a cut names the share source's hgrc: never its path, which the repository's `sharedpath` wrote. */
const SOURCE_HGRC = "the share source's .hg/hgrc";

/** A `.hg/requires` or `.hg/sharedpath` larger than this is not a file Mercurial wrote: a cut. */
const MAX_SHARE_FILE_BYTES = 16 * 1024;

/**
 * The hgrc of the source a share-safe shared working copy at `top` names,
 * read as Mercurial's `localrepo.loadhgrc` reads it before the copy's own:
 * only when the copy's `.hg/requires` holds `share-safe` (`exp-sharesafe`
 * before Mercurial 5.7) and `shared` or `relshared` (a share without
 * share-safe has only its own hgrc read, as Mercurial reads it); the
 * source's `.hg` folder is the one `.hg/sharedpath` names (its line end
 * stripped; for `relshared` joined to the copy's real `.hg` and normalised
 * as `_getsharedvfs` does, then its real path). Its `[ui] ignore` files are
 * then joined to the copy's top, as `dirstate._ignorefiles` joins every
 * value, so they are the copy's own files. Undefined when no source is read
 * and none need be. A cut, whose words quote nothing of the path, when the
 * source cannot be read as yours (decided, fx88d, review rev82e F5's known
 * limit): a `sharedpath` that is not one path to a folder named `.hg`
 * (`hg share` writes the source's `.hg`), that leads nowhere, or that
 * Python's lexical `normpath` and hg-core's join read as two places
 * (`l/../x`); a source folder at or above your home folder (the home stop
 * of {@link hgIgnoreAround}: a copy sharing `~/.hg` would take your home's
 * hgrc as its own); and a source that is not a working copy of yours
 * ({@link holdsOwnHgWorkingCopy}: another user's `.hg`, or one in a folder
 * other users may write to, `/tmp/x/.hg`, whose hgrc Mercurial itself
 * trusts only from you). The hgrc is read through the door
 * ({@link readCopyFile}) within the source's top: a link out of it (the
 * source's `.hg` linked elsewhere too) is a cut. A repository can name any
 * source `.hg` of yours: its hgrc's ignore values are then read against
 * the repository, which only makes more of it private.
 */
async function shareSourceHgrc(
  top: string,
  reach: Reach,
  homes: readonly string[],
): Promise<HgFileRead> {
  const requires = await readCopyFile(top, ".hg/requires", reach, MAX_SHARE_FILE_BYTES);
  if (requires === undefined) return undefined;
  if ("cut" in requires) return requires;
  if (requires.over) return { cut: ".hg/requires is longer than Mercurial writes one, not read" };
  // Python's `bytes.splitlines`: `\r\n`, a lone `\r` and `\n` each end a line.
  const have = new Set(requires.bytes.split(/\r\n|\r|\n/));
  const relative = have.has("relshared");
  const shared = relative || have.has("shared");
  if (!shared || !(have.has("share-safe") || have.has("exp-sharesafe"))) return undefined;
  const refused = { cut: ".hg/sharedpath names no share source of yours, not read" };
  const named = await readCopyFile(top, ".hg/sharedpath", reach, MAX_SHARE_FILE_BYTES);
  if (named === undefined || "cut" in named || named.over) return refused;
  // Only line ends are stripped (`rstrip(b'\n')`); the path is bytes, read here as UTF-8.
  let end = named.bytes.length;
  while (end > 0 && named.bytes.charCodeAt(end - 1) === 10) end--;
  const raw = Buffer.from(named.bytes.slice(0, end), "latin1");
  const path = raw.toString("utf8");
  if (path === "" || !isUtf8(raw) || path.includes("\n") || path.includes("\0")) return refused;
  const hgDir = join(reach.realRoot, ".hg");
  if (!relative && !isAbsolute(path)) return refused;
  // Python normalises a relative one first (`util.normpath`), then takes the real path. An
  // absolute one under `relshared` is taken as it is, as `os.path.join` and Rust's `Path::join`
  // take it (rev89f F2: node's `join` put it under the copy's `.hg`, and the share was cut).
  const lexical = normpath(relative && !isAbsolute(path) ? join(hgDir, path) : path);
  const [real, physical] = await Promise.all([
    realpath(lexical).catch(() => undefined),
    // hg-core joins without normalising: the kernel resolves `l/..` through the link.
    realpath(relative && !isAbsolute(path) ? `${hgDir}/${path}` : path).catch(() => undefined),
  ]);
  if (real === undefined || real !== physical || basename(lexical) !== ".hg") return refused;
  const sourceTop = dirname(lexical);
  const realSourceTop = dirname(real);
  if (realSourceTop === reach.realRoot) return undefined;
  if (homes.some((h) => isWithin(h, sourceTop) || isWithin(h, realSourceTop))) return refused;
  if (!(await holdsOwnHgWorkingCopy(sourceTop))) return refused;
  const read = await readCopyFile(
    sourceTop,
    ".hg/hgrc",
    await copyReach(sourceTop),
    MAX_HGRC_BYTES,
  );
  return read !== undefined && "cut" in read ? { cut: `${SOURCE_HGRC} could not be read` } : read;
}

/**
 * One hgrc's `[ui] ignore` values into `values`, as Mercurial's
 * `config.parse` reads them; true when it holds a `%include`.
 */
function parseHgrc(
  latin1: string,
  values: Map<string, string>,
  onSet: (key: string) => void = () => {},
): boolean {
  // A UTF-8 BOM on line 1 is dropped (`\xef\xbb\xbf` read as latin1).
  const text = latin1.startsWith("\xef\xbb\xbf") ? latin1.slice(3) : latin1;
  let included = false;
  let section = "";
  let last: string | undefined;
  // Python's `bytes.splitlines`: `\r\n`, a lone `\r` and `\n` each end a line.
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (last !== undefined) {
      // A comment line inside a value is passed over; blanks then more continue it.
      if (/^[#;]/.test(line)) continue;
      if (/^[ \t\v\f]+\S/.test(line)) {
        values.set(last, `${values.get(last) ?? ""}\n${line.trim()}`);
        continue;
      }
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
      included = true;
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
    onSet(key);
    last = key;
  }
  return included;
}

/** One Mercurial working copy's `.hgignore` in force at a root: its rules, the root's path below its top (`at`, "" or "a/b/"), and the file's path. */
export interface HgCopy {
  rules: HgIgnore;
  at: string;
  file: string;
}

/**
 * The rules of one working copy at `top`: its `.hgignore` and the files its
 * `.hg/hgrc` names, each real file read once (by device and inode) and all
 * under one instruction budget ({@link HgBudget}), the event loop given a
 * turn between compiles so a deadline is heard, and no file compiled once
 * `signal` has fired (decided, review rev82e F3).
 */
async function copyRules(
  top: string,
  at: string,
  signal: AbortSignal | undefined,
  homes: readonly string[],
  total: HgBudget,
): Promise<HgCopy[]> {
  const reach = await copyReach(top);
  const named = await hgrcIgnoreFiles(top, reach, homes);
  const names = [".hgignore", ...named.names];
  const reads = await Promise.all(
    names.map((name) => readCopyFile(top, name, reach, MAX_HGIGNORE_BYTES)),
  );
  const copies: HgCopy[] = [];
  const seen = new Set<string>();
  const budget: HgBudget = { used: 0 };
  for (const [i, read] of reads.entries()) {
    if (read === undefined) continue;
    const name = names[i] ?? ".hgignore";
    const file = join(top, name);
    if ("cut" in read) {
      copies.push({ rules: { ignores: () => false, cut: read.cut }, at, file });
      continue;
    }
    if (seen.has(read.file)) continue;
    seen.add(read.file);
    const turn = pace();
    if (turn) await turn;
    if (signal?.aborted) {
      const cut = `${name}: not read, the deadline passed`;
      copies.push({ rules: { ignores: () => false, cut }, at, file });
      break;
    }
    const before = budget.used;
    const rules = compileHgIgnore(read.bytes, name, budget);
    total.used += budget.used - before;
    copies.push({
      rules:
        read.over && rules.cut === undefined
          ? { ...rules, cut: `${name} is read up to ${MAX_HGIGNORE_BYTES / 1024} KiB` }
          : rules,
      at,
      file,
    });
  }
  if (named.cut !== undefined) {
    const cut = { ignores: () => false, cut: named.cut };
    copies.push({ rules: cut, at, file: join(top, ".hg", "hgrc") });
  }
  return copies;
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
 * `enclosingRepositories`). Each copy's files are read by {@link copyRules}.
 */
export async function hgIgnoreAround(
  root: string,
  stops: {
    ceiling?: string | undefined;
    home?: string | undefined;
    /**
     * The render's deadline: required, so no caller forgets it (decided,
     * review rev88a F1: the workspace tree passed none, and a chain of 80
     * nested working copies compiled on for 12.5 s after the render returned).
     */
    signal: AbortSignal | undefined;
  },
  refused?: RefusedRootMarker[],
): Promise<HgCopy[]> {
  const home = resolve(stops.home ?? homeFolder());
  const homes = [home, await realpathOrSelf(home)];
  const copies: HgCopy[] = [];
  const total: HgBudget = { used: 0 };
  for (let dir = root; ; ) {
    // A `.hg` folder, or a link to one (rev71a F6): either only adds its folder's `.hgignore`.
    if (await holdsOwnHgWorkingCopy(dir, refused)) {
      const rel = relative(dir, root).split(sep).join("/");
      // Past the deadline a copy's files are not even read: a cut, so the door refuses what it
      // is asked, and no copy above is looked at (rev88a F1).
      // Past the total budget likewise: each copy's budget is its own, and 80 nested copies
      // naming one heavy file compiled 80 programs, 15 s of CPU (rev89h F3).
      const spent = total.used > MAX_HGIGNORE_TOTAL;
      if (stops.signal?.aborted || spent) {
        const cut = spent
          ? ".hgignore: not read, the working copies around it are past what this reader takes together"
          : ".hgignore: not read, the deadline passed";
        copies.push({ rules: { ignores: () => false, cut }, at: "", file: join(dir, ".hgignore") });
        return copies;
      }
      const at = rel === "" ? "" : `${rel}/`;
      for (const copy of await copyRules(dir, at, stops.signal, homes, total)) copies.push(copy);
    }
    const up = dirname(dir);
    if (up === dir || !looksAround(up, stops.ceiling, homes)) {
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

/**
 * The instructions every working copy around one root may spend together
 * ({@link hgIgnoreAround}): past it, no copy above is read, a cut (decided,
 * review rev89h F3: each copy had its own {@link MAX_HGIGNORE_PROGRAM}, and a
 * chain of 80 nested copies naming one heavy file took a `snapshot`, whose reach
 * then had no deadline, 15 s of CPU and 1.38 GB; 200 copies 36 s and 3.1 GB).
 */
export const MAX_HGIGNORE_TOTAL = 2 * MAX_HGIGNORE_PROGRAM;

/**
 * The instructions spent of {@link MAX_HGIGNORE_PROGRAM}: one budget per
 * working copy, shared by its `.hgignore` and the files its `.hg/hgrc` names
 * (decided, review rev82e F3: each file had its own, and one heavy file
 * named 16 times was 17 programs, 415 MB and 1.5 s of CPU past the deadline).
 */
export interface HgBudget {
  used: number;
}

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
export function compileHgIgnore(
  bytes: string,
  name = ".hgignore",
  budget: HgBudget = { used: 0 },
): HgIgnore {
  let syntax = "relre:";
  let rustSyntax = "relre:";
  let cut: string | undefined;
  const trees: ReturnType<typeof parseRegex>[] = [];
  let lineNo = 0;
  for (const raw of bytes.split("\n")) {
    if (budget.used > MAX_HGIGNORE_PROGRAM) {
      cut ??= `${name} line ${lineNo + 1}: its patterns together are past what this reader takes`;
      break;
    }
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
        budget.used += regexSize(tree);
        if (budget.used > MAX_HGIGNORE_PROGRAM) {
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
