import type { Dir, Dirent, Stats } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { readTextFile, type TextFileResult } from "../../_fs.js";
import {
  addGitignore,
  type IgnoreRules,
  isIgnored,
  isIgnoredInKeptFolder,
  newPatternBudget,
  type PatternBudget,
  type PatternCut,
} from "../../_gitignore.js";
import { opendirSync, readdirSync, statOrUndefinedSync } from "../../_io.js";
import { checkpoint, ENTRIES_PER_CHECK, pace } from "../../_pace.js";
import { isBelowCeiling } from "../project-root.js";

/** The instruction file the walk collects from folders below the root. */
export const AGENTS_FILE = "AGENTS.md";

export type EntryKind = "dir" | "file" | "link" | "other";

export interface ListedEntry {
  name: string;
  kind: EntryKind;
}

/**
 * Entries read of one folder at most. Past it the folder is listed from the
 * entries read (the file system's first ones, so which they are depends on
 * the file system): a folder of a million files is otherwise seconds of
 * reading and a great deal of memory for the dozen lines the tree shows of it.
 */
export const MAX_FOLDER_ENTRIES = 200_000;

/**
 * What one depth-bounded walk found, for every folder whose children the tree
 * may show, by its "/"-separated path below the root ("" is the root itself).
 * Nothing in it is sorted yet.
 */
export interface TreeListing {
  /** The folder's kept children (none for a folder the walk did not list). */
  children(rel: string): Promise<ListedEntry[]>;
  /** How many children `children(rel)` has, counting no further than `limit`. */
  countUpTo(rel: string, limit: number): Promise<number>;
  /** Whether the folder had more than `entryCap` entries, of which only that many were read. */
  isCapped(rel: string): boolean;
  /** Entries read of one folder at most. */
  entryCap: number;
  /** AGENTS.md files at depth 2 … `agentsDepth`, as paths below the root. */
  agentsMd: string[];
  /** Folders the walk could not list (no permission, an I/O error), as paths below the root ("." for the root). */
  unreadable: string[];
  /** Ignore files whose patterns were not all kept (see {@link newPatternBudget}). */
  ignoreCuts: PatternCut[];
}

/**
 * One listed folder. Its subfolders were checked against the ignore rules
 * while walking (an ignored folder is never entered); its other entries are
 * checked only when asked for, since the tree shows few folders in full.
 */
interface ListedFolder {
  folders: ListedEntry[];
  unchecked: ListedEntry[];
  /** `unchecked` once filtered. */
  others?: ListedEntry[];
  keep: (entry: ListedEntry) => boolean;
  capped: boolean;
}

function listingOf(
  listed: Map<string, ListedFolder>,
  found: Pick<TreeListing, "agentsMd" | "unreadable" | "ignoreCuts" | "entryCap">,
  signal: AbortSignal | undefined,
): TreeListing {
  const others = async (folder: ListedFolder) => {
    if (!folder.others) {
      const kept: ListedEntry[] = [];
      for (const [i, entry] of folder.unchecked.entries()) {
        if (i % ENTRIES_PER_CHECK === 0) await checkpoint(signal);
        if (folder.keep(entry)) kept.push(entry);
      }
      folder.others = kept;
    }
    return folder.others;
  };
  return {
    ...found,
    async children(rel) {
      const folder = listed.get(rel);
      return folder ? [...folder.folders, ...(await others(folder))] : [];
    },
    async countUpTo(rel, limit) {
      const folder = listed.get(rel);
      if (!folder) return 0;
      let count = folder.folders.length;
      if (folder.others) return Math.min(limit, count + folder.others.length);
      for (const [i, entry] of folder.unchecked.entries()) {
        if (count >= limit) break;
        if (i % ENTRIES_PER_CHECK === 0) await checkpoint(signal);
        if (folder.keep(entry)) count++;
      }
      return Math.min(limit, count);
    },
    isCapped: (rel) => listed.get(rel)?.capped ?? false,
  };
}

export interface WalkOptions {
  /** Folders above this depth have their children listed (the tree's depth). */
  listDepth: number;
  /**
   * The deepest AGENTS.md taken, counted like tree entries: `a/b/c/d/AGENTS.md`
   * is at depth 5. The root's own (depth 1) is never taken.
   */
  agentsDepth: number;
  /** Stops the walk: no folder is read after it fires, and the walk rejects with its reason. */
  signal?: AbortSignal;
  /** No folder above this one is looked at for `.git` or `.gitignore`. */
  ceilingDir?: string;
  /** Entries read of one folder at most. Default {@link MAX_FOLDER_ENTRIES}. */
  entryCap?: number;
}

/** The ignore files a folder can hold, in rising precedence: ripgrep's `.ignore` outranks `.gitignore`. */
const IGNORE_FILES = [".gitignore", ".ignore"] as const;

/**
 * Walks `root` no deeper than the tree and the AGENTS.md search need. Hidden
 * entries, `node_modules` and whatever git would ignore are never entered:
 * the `.gitignore` files from the repository root down to `root` (and the
 * repository's `.git/info/exclude`) apply from the start, and each nested
 * `.gitignore` joins the rules for its own folder as the walk reaches it.
 * A `.ignore` file (ripgrep's convention, same syntax) counts like a
 * `.gitignore` in the same folder and outranks it. Symlinks are listed,
 * never followed into. Patterns are capped per file and per walk; the
 * deadline (`signal`) is heard between reads and every few entries of a loop.
 */
export async function walkTree(root: string, options: WalkOptions): Promise<TreeListing> {
  const { listDepth, agentsDepth, signal, entryCap = MAX_FOLDER_ENTRIES } = options;
  const listed = new Map<string, ListedFolder>();
  const agentsMd: string[] = [];
  const unreadable: string[] = [];
  const budget = newPatternBudget();
  // The deepest folder read: its entries are at depth `deepest + 1`.
  const deepest = Math.max(listDepth, agentsDepth) - 1;
  const { prefix, rules: inherited } = await inheritedRules(root, budget, options.ceilingDir);
  const stop = () => {
    if (signal?.aborted) throw signal.reason;
  };
  const withIgnoreFiles = async (
    dir: string,
    rel: string,
    rules: IgnoreRules | undefined,
    present: (file: string) => boolean | Promise<boolean>,
  ) => {
    for (const file of IGNORE_FILES) {
      if (!(await present(file))) continue;
      const path = join(dir, file);
      const read = await readText(path);
      if (read.ok) rules = addGitignore(rules, read.text, prefix + rel, budget, path);
    }
    return rules;
  };

  const walk = async (dir: string, rel: string, depth: number, rules: IgnoreRules | undefined) => {
    stop();
    if (depth >= listDepth && depth === deepest) {
      await lastLevel(dir, rel, rules);
      return;
    }
    const info = await statOf(dir, false);
    // Below the shown levels a folder is read for its subfolders and its
    // AGENTS.md. One with no subfolders (a link count of 2: ext4, xfs and
    // tmpfs count each subfolder's `..`; btrfs says 1 and is read) needs only
    // the AGENTS.md look-up of the last level.
    if (depth >= listDepth && info?.isDirectory() && info.nlink === 2) {
      await lastLevel(dir, rel, rules);
      return;
    }
    // Unreadable or gone since its parent was listed: shown without children.
    const { entries, capped } = await listFolder(dir, info?.size, entryCap, signal, () =>
      unreadable.push(rel === "" ? "." : rel),
    );
    stop();
    // git never follows a symlinked .gitignore; neither do we.
    rules = await withIgnoreFiles(dir, rel, rules, (file) =>
      entries.some((e) => e.name === file && e.isFile()),
    );
    const base = rel === "" ? prefix : `${prefix}${rel}/`;
    const shown = depth < listDepth;
    const folders: ListedEntry[] = [];
    const unchecked: ListedEntry[] = [];
    const below: Promise<void>[] = [];
    for (let i = 0; i < entries.length; i++) {
      // The listing itself was a checkpoint; then one every few entries.
      if (i % ENTRIES_PER_CHECK === ENTRIES_PER_CHECK - 1) await checkpoint(signal);
      const entry = entries[i] as Dirent;
      const name = entry.name;
      if (name.startsWith(".") || name === "node_modules") continue;
      if (entry.isDirectory()) {
        if (depth + 1 >= listDepth && depth + 1 === deepest) {
          // A folder of the last level counts only for an AGENTS.md, and most
          // have none: look for it before asking the ignore rules about the
          // folder, and without a call of its own per folder.
          const sub = childPath(dir, name);
          const found = statOrUndefinedSync(childPath(sub, AGENTS_FILE), true);
          if (found?.isFile() && !isIgnoredInKeptFolder(rules, `${base}${name}/`)) {
            below.push(lastLevel(sub, childRel(rel, name), rules, found));
          }
          continue;
        }
        if (isIgnoredInKeptFolder(rules, `${base}${name}/`)) continue;
        if (shown) folders.push({ name, kind: "dir" });
        if (depth < deepest) {
          below.push(walk(childPath(dir, name), childRel(rel, name), depth + 1, rules));
        }
        continue;
      }
      const kind: EntryKind = entry.isFile() ? "file" : entry.isSymbolicLink() ? "link" : "other";
      if (shown) unchecked.push({ name, kind });
      if (name === AGENTS_FILE && depth >= 1 && !isIgnoredInKeptFolder(rules, base + name)) {
        below.push(addAgentsFile(childPath(dir, name), childRel(rel, name), kind, agentsMd));
      }
    }
    if (shown) {
      const folderRules = rules;
      const keep = (e: ListedEntry) => !isIgnoredInKeptFolder(folderRules, base + e.name);
      listed.set(rel, { folders, unchecked, keep, capped });
    }
    await Promise.all(below);
  };

  // The deepest level only matters for its AGENTS.md, and on a large tree most
  // entries sit there: one stat per folder instead of a listing. Where the
  // stat finds a file, its ignore files are looked up by name (lstat: git
  // never follows a linked .gitignore). The folder is listed only on a file
  // system that ignores case, where the stat also finds agents.md: there the
  // listing tells the name's exact case.
  const caseBlind = new Map<number, boolean>();
  const lastLevel = async (
    dir: string,
    rel: string,
    rules: IgnoreRules | undefined,
    known?: Stats,
  ) => {
    // A regular file or a link to one; a dangling or looping link is no instruction file.
    const found = known ?? (await statOf(childPath(dir, AGENTS_FILE), true));
    if (!found?.isFile()) return;
    stop();
    // One look-up per file system: whether it ignores case does not change from folder to folder.
    let blind = caseBlind.get(found.dev);
    if (blind === undefined) {
      blind = ignoresCase(dir, found);
      caseBlind.set(found.dev, blind);
    }
    // Two stats that mostly find nothing: no pause of their own (the caller's loop paces).
    let present = (file: string): boolean | Promise<boolean> =>
      statOrUndefinedSync(join(dir, file), false)?.isFile() ?? false;
    if (blind) {
      const { entries } = await listFolder(
        dir,
        (await statOf(dir, false))?.size,
        entryCap,
        signal,
        () => undefined,
      );
      stop();
      if (!entries.some((e) => e.name === AGENTS_FILE)) return;
      const listedPresent = present;
      present = (file) => entries.some((e) => e.name === file) && listedPresent(file);
    }
    rules = await withIgnoreFiles(dir, rel, rules, present);
    const path = `${rel}/${AGENTS_FILE}`;
    if (!isIgnoredInKeptFolder(rules, prefix + path)) agentsMd.push(path);
  };

  await walk(root, "", 0, inherited);
  return listingOf(listed, { agentsMd, unreadable, ignoreCuts: budget.cuts, entryCap }, signal);
}

/**
 * Whether the file system holding `dir` ignores case: its AGENTS.md (whose
 * stat is `found`) is also reached as `agents.md`. A case-sensitive one finds
 * no such file, or another one.
 */
function ignoresCase(dir: string, found: Stats): boolean {
  const other = statOrUndefinedSync(childPath(dir, AGENTS_FILE.toLowerCase()), true);
  return other !== undefined && other.ino === found.ino && other.dev === found.dev;
}

/** `dir`'s child: plain concatenation, as `dir` is already normalised (join costs more per call). */
function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function childRel(rel: string, name: string): string {
  return rel === "" ? name : `${rel}/${name}`;
}

/** Records an AGENTS.md that is a regular file, or a symlink to one (never opened). */
async function addAgentsFile(path: string, rel: string, kind: EntryKind, out: string[]) {
  // A dangling or looping link is no instruction file.
  if (kind === "file" || (kind === "link" && (await statOf(path, true))?.isFile())) out.push(rel);
}

/**
 * The ignore rules that already hold at `root`: those of the ignore files
 * between the repository root (the nearest ancestor holding `.git`) and
 * `root`, plus `.git/info/exclude`. Paths are then checked as
 * `prefix + path below root`, `prefix` being `root` relative to the repository.
 * Outside a repository, or in a folder the repository ignores, only the files
 * at and below `root` count.
 */
async function inheritedRules(
  root: string,
  budget: PatternBudget,
  ceilingDir: string | undefined,
): Promise<{ prefix: string; rules?: IgnoreRules }> {
  const repo = await findRepository(root, ceilingDir);
  if (repo === undefined) return { prefix: "" };
  const exclude = join(repo, ".git", "info", "exclude");
  const excluded = await readText(exclude);
  let rules = excluded.ok ? addGitignore(undefined, excluded.text, "", budget, exclude) : undefined;
  if (repo === root) return rules ? { prefix: "", rules } : { prefix: "" };
  const prefix = `${posixRelative(repo, root)}/`;
  const chain: string[] = [];
  for (let dir = dirname(root); dir !== repo; dir = dirname(dir)) chain.unshift(dir);
  chain.unshift(repo);
  const files = chain.flatMap((dir) =>
    IGNORE_FILES.map((file) => ({ dir, path: join(dir, file) })),
  );
  const reads = await Promise.all(files.map((f) => readText(f.path)));
  reads.forEach((read, i) => {
    const file = files[i];
    if (read.ok && file !== undefined) {
      rules = addGitignore(rules, read.text, posixRelative(repo, file.dir), budget, file.path);
    }
  });
  if (!rules) return { prefix };
  // A root in a folder the repository ignores (a scratch or vendored folder):
  // git would list nothing there, which helps no one; the rules found at and
  // below the root still apply.
  if (isIgnored(rules, prefix)) return { prefix: "" };
  return { prefix, rules };
}

async function findRepository(
  root: string,
  ceilingDir: string | undefined,
): Promise<string | undefined> {
  for (let dir = root; ; ) {
    if (await statOf(join(dir, ".git"), false)) return dir;
    const up = dirname(dir);
    if (up === dir || !isBelowCeiling(up, ceilingDir)) return undefined;
    dir = up;
  }
}

function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join("/");
}

// The file system is called synchronously, in slices (through src/_io.ts, so
// that a prompt session sees every probe). On a 100k-file tree the walk makes
// about a thousand calls, each a few microseconds of work: as promises or
// callbacks every one was a round trip through libuv's four-thread pool, and
// that queue also held up the other gathering steps' reads (the context files
// waited behind the walk). Synchronous calls block the event loop, so the walk
// gives it back every slice (src/_pace.ts): the deadline's timer and the other
// steps run between slices. Only stat, lstat, readdir and readlink are called
// synchronously; ignore files, few, are read as before. A FIFO or a socket is
// never opened.

/** Entries taken from the file system per call while a folder is read. */
const READ_BATCH = 256;

/**
 * A folder whose own size (what `stat` says of it) is at most this is read in
 * one call: ext4 and xfs grow a folder by blocks as entries are added, tmpfs
 * and btrfs by each name, so it holds some thousands of entries at most, read
 * in a few milliseconds. Reading by batches costs about half again as much
 * per entry, so only larger folders, and those whose size says nothing (0),
 * are read that way.
 */
const ONE_CALL_BYTES = 256 * 1024;

/**
 * The folder's entries (at most `cap`, `capped` when
 * there were more), or none when it cannot be listed; `onUnreadable` hears of
 * a folder that is there but cannot be read (one gone meanwhile is not news).
 * Read a batch at a time, with the deadline heard between batches: one
 * listing of a million entries blocks the process for over a second.
 */
async function listFolder(
  dir: string,
  size: number | undefined,
  cap: number,
  signal: AbortSignal | undefined,
  onUnreadable: () => void,
): Promise<{ entries: Dirent[]; capped: boolean }> {
  await pace();
  if (size !== undefined && size > 0 && size <= ONE_CALL_BYTES) {
    try {
      const all = readdirSync(dir, { withFileTypes: true });
      return all.length > cap
        ? { entries: all.slice(0, cap), capped: true }
        : { entries: all, capped: false };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") onUnreadable();
      return { entries: [], capped: false };
    }
  }
  const entries: Dirent[] = [];
  let handle: Dir | undefined;
  try {
    handle = opendirSync(dir, { bufferSize: READ_BATCH });
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (entries.length === cap) return { entries, capped: true };
      entries.push(entry);
      if (entries.length % READ_BATCH === 0) await checkpoint(signal);
    }
    return { entries, capped: false };
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") onUnreadable();
    return { entries: [], capped: false };
  } finally {
    try {
      handle?.closeSync();
    } catch {
      // Closing a folder handle fails only if it is already closed: nothing to release.
    }
  }
}

/** `stat` (following links) or `lstat`; undefined for anything that fails. */
export async function statOf(path: string | Buffer, follow: boolean): Promise<Stats | undefined> {
  await pace();
  return statOrUndefinedSync(path, follow);
}

/** A small text file (an ignore file, the exclude file); regular files only, never opened otherwise. */
async function readText(path: string): Promise<TextFileResult> {
  await pace();
  return readTextFile(path);
}
