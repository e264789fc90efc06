import type { Dirent, Stats } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { readTextFile, type TextFileResult } from "../_fs.js";
import { addGitignore, type Ignore, isIgnored, isIgnoredInKeptFolder } from "../_gitignore.js";
import { readdirSync, statOrUndefinedSync } from "../_io.js";
import { isBelowCeiling } from "./project-root.js";

/** The instruction file the walk collects from folders below the root. */
export const AGENTS_FILE = "AGENTS.md";

export type EntryKind = "dir" | "file" | "link" | "other";

export interface ListedEntry {
  name: string;
  kind: EntryKind;
}

/**
 * What one depth-bounded walk found, for every folder whose children the tree
 * may show, by its "/"-separated path below the root ("" is the root itself).
 * Nothing in it is sorted yet.
 */
export interface TreeListing {
  /** The folder's kept children (none for a folder the walk did not list). */
  children(rel: string): ListedEntry[];
  /** How many children `children(rel)` has, counting no further than `limit`. */
  countUpTo(rel: string, limit: number): number;
  /** AGENTS.md files at depth 2 … `agentsDepth`, as paths below the root. */
  agentsMd: string[];
  /** Folders the walk could not list (no permission, an I/O error), as paths below the root ("." for the root). */
  unreadable: string[];
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
}

function listingOf(
  listed: Map<string, ListedFolder>,
  agentsMd: string[],
  unreadable: string[],
): TreeListing {
  const others = (folder: ListedFolder) => {
    folder.others ??= folder.unchecked.filter(folder.keep);
    return folder.others;
  };
  return {
    agentsMd,
    unreadable,
    children(rel) {
      const folder = listed.get(rel);
      return folder ? [...folder.folders, ...others(folder)] : [];
    },
    countUpTo(rel, limit) {
      const folder = listed.get(rel);
      if (!folder) return 0;
      let count = folder.folders.length;
      if (folder.others) return Math.min(limit, count + folder.others.length);
      for (const entry of folder.unchecked) {
        if (count >= limit) break;
        if (folder.keep(entry)) count++;
      }
      return Math.min(limit, count);
    },
  };
}

export interface WalkOptions {
  /** Folders above this depth have their children listed (the tree's depth). */
  listDepth: number;
  /**
   * The deepest AGENTS.md taken, counted like tree entries: `a/b/c/AGENTS.md`
   * is at depth 4. The root's own (depth 1) is never taken.
   */
  agentsDepth: number;
  /** Stops the walk: no folder is read after it fires, and the walk rejects with its reason. */
  signal?: AbortSignal;
  /** No folder above this one is looked at for `.git` or `.gitignore`. */
  ceilingDir?: string;
}

/**
 * Walks `root` no deeper than the tree and the AGENTS.md search need. Hidden
 * entries, `node_modules` and whatever git would ignore are never entered:
 * the `.gitignore` files from the repository root down to `root` (and the
 * repository's `.git/info/exclude`) apply from the start, and each nested
 * `.gitignore` joins the rules for its own folder as the walk reaches it.
 * Symlinks are listed, never followed into.
 */
export async function walkTree(root: string, options: WalkOptions): Promise<TreeListing> {
  const { listDepth, agentsDepth, signal } = options;
  const listed = new Map<string, ListedFolder>();
  const agentsMd: string[] = [];
  const unreadable: string[] = [];
  // The deepest folder read: its entries are at depth `deepest + 1`.
  const deepest = Math.max(listDepth, agentsDepth) - 1;
  const { prefix, rules: inherited } = await inheritedRules(root, options.ceilingDir);
  const stop = () => {
    if (signal?.aborted) throw signal.reason;
  };
  const withGitignore = async (dir: string, rel: string, rules: Ignore | undefined) => {
    const read = await readText(join(dir, ".gitignore"));
    return read.ok ? addGitignore(rules, read.text, prefix + rel) : rules;
  };

  const walk = async (dir: string, rel: string, depth: number, rules: Ignore | undefined) => {
    stop();
    if (depth >= listDepth && depth === deepest) {
      await lastLevel(dir, rel, rules);
      return;
    }
    // Unreadable or gone since its parent was listed: shown without children.
    const entries = await listFolder(dir, () => unreadable.push(rel === "" ? "." : rel));
    stop();
    // git never follows a symlinked .gitignore; neither do we.
    if (entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      rules = await withGitignore(dir, rel, rules);
    }
    const base = rel === "" ? prefix : `${prefix}${rel}/`;
    const shown = depth < listDepth;
    const folders: ListedEntry[] = [];
    const unchecked: ListedEntry[] = [];
    const below: Promise<void>[] = [];
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".") || name === "node_modules") continue;
      if (entry.isDirectory()) {
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
      listed.set(rel, { folders, unchecked, keep });
    }
    await Promise.all(below);
  };

  // The deepest level only matters for its AGENTS.md, and on a large tree most
  // entries sit there: one stat per folder instead of a listing. The listing
  // is read only where the stat found a file, to check the name's exact case
  // (a case-insensitive file system finds agents.md too) and for a .gitignore.
  const lastLevel = async (dir: string, rel: string, rules: Ignore | undefined) => {
    // A regular file or a link to one; a dangling or looping link is no instruction file.
    if (!(await statOf(childPath(dir, AGENTS_FILE), true))?.isFile()) return;
    const names = await listNames(dir);
    stop();
    if (!names.includes(AGENTS_FILE)) return;
    if (names.includes(".gitignore") && (await statOf(join(dir, ".gitignore"), false))?.isFile()) {
      rules = await withGitignore(dir, rel, rules);
    }
    const path = `${rel}/${AGENTS_FILE}`;
    if (!isIgnoredInKeptFolder(rules, prefix + path)) agentsMd.push(path);
  };

  await walk(root, "", 0, inherited);
  return listingOf(listed, agentsMd, unreadable);
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
 * The ignore rules that already hold at `root`: those of the `.gitignore` files
 * between the repository root (the nearest ancestor holding `.git`) and
 * `root`, plus `.git/info/exclude`. Paths are then checked as
 * `prefix + path below root`, `prefix` being `root` relative to the repository.
 * Outside a repository, or in a folder the repository ignores, only the files
 * at and below `root` count.
 */
async function inheritedRules(
  root: string,
  ceilingDir: string | undefined,
): Promise<{ prefix: string; rules?: Ignore }> {
  const repo = await findRepository(root, ceilingDir);
  if (repo === undefined || repo === root) {
    return repo === undefined ? { prefix: "" } : { prefix: "", ...(await excludeRules(root)) };
  }
  const prefix = `${posixRelative(repo, root)}/`;
  const chain: string[] = [];
  for (let dir = dirname(root); dir !== repo; dir = dirname(dir)) chain.unshift(dir);
  chain.unshift(repo);
  let { rules } = await excludeRules(repo);
  const reads = await Promise.all(chain.map((dir) => readText(join(dir, ".gitignore"))));
  reads.forEach((read, i) => {
    const dir = chain[i];
    if (read.ok && dir !== undefined) {
      rules = addGitignore(rules, read.text, posixRelative(repo, dir));
    }
  });
  if (!rules) return { prefix };
  // A root in a folder the repository ignores (a scratch or vendored folder):
  // git would list nothing there, which helps no one; the rules found at and
  // below the root still apply.
  if (isIgnored(rules, prefix)) return { prefix: "" };
  return { prefix, rules };
}

async function excludeRules(repo: string): Promise<{ rules?: Ignore }> {
  const read = await readText(join(repo, ".git", "info", "exclude"));
  return read.ok ? { rules: addGitignore(undefined, read.text, "") } : {};
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
// gives it back every slice: the deadline's timer and the other steps run
// between slices. Only stat, lstat, readdir and readlink are called
// synchronously; .gitignore files, few, are read as before. A FIFO or a
// socket is never opened.

/**
 * Longest stretch of synchronous calls before the event loop gets a turn, in
 * nanoseconds. Short, because another step waiting on a read gets one turn
 * per slice: its chain of reads would otherwise wait a slice per link.
 */
const SLICE_NS = 500_000n;
let sliceEnd = 0n;
let yielding: Promise<void> | undefined;

/** Resolves at once within a slice; past its end, after one turn of the event loop. */
function pace(): Promise<void> | undefined {
  if (yielding) return yielding;
  if (process.hrtime.bigint() < sliceEnd) return undefined;
  yielding = new Promise((done) => {
    setImmediate(() => {
      yielding = undefined;
      sliceEnd = process.hrtime.bigint() + SLICE_NS;
      done();
    });
  });
  return yielding;
}

/** The folder's entry names, or none when it cannot be listed. */
async function listNames(dir: string): Promise<string[]> {
  await pace();
  try {
    return readdirSync(dir);
  } catch {
    // Unreadable or gone: nothing to list.
    return [];
  }
}

/**
 * The folder's entries, or none when it cannot be listed; `onUnreadable` hears
 * of a folder that is there but cannot be read (one gone meanwhile is not news).
 */
async function listFolder(dir: string, onUnreadable: () => void): Promise<Dirent[]> {
  await pace();
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") onUnreadable();
    return [];
  }
}

/** `stat` (following links) or `lstat`; undefined for anything that fails. */
export async function statOf(path: string | Buffer, follow: boolean): Promise<Stats | undefined> {
  await pace();
  return statOrUndefinedSync(path, follow);
}

/** A small text file (a .gitignore, the exclude file); regular files only, never opened otherwise. */
async function readText(path: string): Promise<TextFileResult> {
  await pace();
  return readTextFile(path);
}
