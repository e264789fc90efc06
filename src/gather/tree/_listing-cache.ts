import type { Stats } from "node:fs";
import { sep } from "node:path";
import { pushAll } from "../../_arrays.js";
import { type CacheLocation, writeCacheFile } from "../../_cache-location.js";
import { readTextFileSync } from "../../_fs.js";
import { VERSION } from "../../version.js";
import { NESTED_CONTEXT_NAMES } from "../context-names.js";

// On a large repository most of the tree walk's time goes to listing
// folders: those below the shown levels are listed in full (tens of
// thousands of entries on a 100k-file tree) only to learn their subfolders,
// in which an AGENTS.md is looked for, and the shown ones (a hundred and more
// folders, thousands of entries) for the entries the tree may show. What a
// folder holds by name changes only when an
// entry is added, removed or renamed in it, and each of those moves the
// folder's ctime, which no program can set back (mtime can be). So what such
// a listing found is kept, with the folder's stat, in a cache file of the
// user's; the next walk that finds the same stat uses it instead of listing
// the folder again (git's untracked cache does the same with folder times).
// Only names and kinds are kept: the ignore files' text, the context
// files, the rules and every shown entry's stat are read and applied afresh
// on every walk.

/**
 * Bumped when what a memo holds changes; the package version is part of it
 * too. 4: a memo names every context file (of the names the file was written
 * for), not only AGENTS.md. 5: `ignoreFiles` names a `.git` (a repository's
 * top, whose exclude file hides names below it). 6: and a `.hg` (a Mercurial
 * working copy's top, whose `.hgignore` hides names below it). 7: and a `.gitignore` that is
 * a FIFO, socket or device (not read whole: the tree says so).
 */
const FORMAT = 7;
export const LISTING_CACHE_VERSION = `tree-listing/${FORMAT} sysprompt/${VERSION}`;

/** A larger file is not read (it is not ours, or not worth parsing): the walk lists as if there were none. */
export const MAX_LISTING_CACHE_BYTES = 8 * 1024 * 1024;
/**
 * Bytes of the file one root's memos may take: a quarter, so no project,
 * however many and long its folders' names, crowds the others out of the
 * one file (the 100k-file bench tree takes 177 KB).
 */
export const MAX_ROOT_LISTING_BYTES = MAX_LISTING_CACHE_BYTES / 4;
/** Roots kept in the file, the most recently walked first. */
export const MAX_CACHED_ROOTS = 16;
/** Folders kept per root. */
export const MAX_CACHED_FOLDERS = 50_000;
/** Subfolders, and other entries, kept per folder: a folder with more of either is listed every time. */
export const MAX_CACHED_SUBFOLDERS = 10_000;
/**
 * A folder changed less than this before it was listed is not kept: a
 * second change within the same tick of the file system's clock would leave
 * its stat as it was (git calls such an entry "racily clean").
 */
export const DEFAULT_LISTING_SETTLE_MS = 2000;

/** What a folder holds that the walk needs. */
export interface FolderMemo {
  /** Its subfolders (neither hidden nor `node_modules`), in the order the listing gave them. */
  dirs: string[];
  /**
   * Its context files (of the names the cache was opened with), in the order
   * the listing gave them, each as `f` (a regular file) or `l` (a symlink,
   * whose target is checked on every walk) and its name.
   */
  context: string[];
  /** The ignore files it holds as regular files, and `.git` and `.hg` (of any kind) when it holds them. */
  ignoreFiles: string[];
  /**
   * Its other entries (neither hidden nor `node_modules`), in the order the
   * listing gave them, each as its kind's letter (`f` a file, `l` a link,
   * `o` anything else) and its name. Only in the memo of a folder some walk
   * showed; a walk that shows the folder needs it.
   */
  rest?: string[];
}

/** The memos of one or more walks, read from and written to one cache file. */
export interface ListingCache {
  /**
   * The memo of folder `rel` below `root` when `stats` is the stat it was
   * made with and, with `shown`, it holds the folder's other entries too. A
   * memo without them, asked for with `shown`, is a miss: the folder is listed
   * and its new memo, which holds them, serves walks of every depth.
   */
  get(root: string, rel: string, stats: Stats, shown: boolean): FolderMemo | undefined;
  /** Keeps the memo of folder `rel` below `root`, made from a listing taken with `stats`. */
  put(root: string, rel: string, stats: Stats, memo: FolderMemo): void;
  /**
   * Writes the file when it changed: for each root walked, the folders this
   * walk met (a memo used or made), so a removed folder leaves it. With
   * `partial` (a walk the deadline cut short) nothing is dropped: what it
   * listed joins what the file held, so the next walk, listing only the
   * rest, gets further (a tree too large for the deadline is the one the
   * cache is for). Never throws: failing to write costs a listing next time,
   * nothing else.
   */
  save(options?: { partial?: boolean }): void;
}

/**
 * One folder as the file holds it: its stat, its subfolders, its context
 * files (as in {@link FolderMemo}), its ignore files, and for a folder some
 * walk showed, its other entries.
 */
type StoredFolder =
  | [stamp: Stamp, dirs: string[], context: string[], ignoreFiles: string[]]
  | [stamp: Stamp, dirs: string[], context: string[], ignoreFiles: string[], rest: string[]];

interface StoredRoot {
  used: number;
  folders: Record<string, StoredFolder>;
}

interface StoredFile {
  version: string;
  /** The context names its memos were made for: a walk looking for others finds the file stale. */
  names: string[];
  roots: Record<string, StoredRoot>;
}

/**
 * What identifies a folder's state: the file system, the inode, the times,
 * the size and the link count. Kept as numbers and compared as numbers (a
 * JSON number reads back as the same double): a walk compares hundreds of
 * stamps, and building a string of six numbers for each cost milliseconds.
 */
type Stamp = [
  dev: number,
  ino: number,
  mtimeMs: number,
  ctimeMs: number,
  size: number,
  nlink: number,
];

function stampOf(s: Stats): Stamp {
  return [s.dev, s.ino, s.mtimeMs, s.ctimeMs, s.size, s.nlink];
}

function sameStamp(kept: unknown, s: Stats): boolean {
  return (
    Array.isArray(kept) &&
    kept.length === 6 &&
    kept[0] === s.dev &&
    kept[1] === s.ino &&
    kept[2] === s.mtimeMs &&
    kept[3] === s.ctimeMs &&
    kept[4] === s.size &&
    kept[5] === s.nlink
  );
}

/**
 * A name a memo may hold: one a listing gives and the walk keeps. No "/" or
 * NUL (nor "\\" where it is a separator too; on POSIX a backslash is part
 * of a name like any other byte, and refusing it there made every walk list
 * such a folder again and rewrite the file with the same memo), and nothing
 * the walk skips: no hidden name (`.` and `..` among them) and no
 * `node_modules`. A memo edited to hold `.git` or `.env` would otherwise be
 * walked into, or shown.
 */
const NAME = sep === "\\" ? /^(?!\.|node_modules$)[^/\\\0]+$/ : /^(?!\.|node_modules$)[^/\0]+$/;
/** An entry of a memo's `rest`: a kind's letter, then a name. */
const ENTRY =
  sep === "\\" ? /^[flo](?!\.|node_modules$)[^/\\\0]+$/ : /^[flo](?!\.|node_modules$)[^/\0]+$/;
/** The ignore files a memo may name: those the walk reads, its only hidden names. */
const IGNORE_FILE = /^\.(?:(?:git)?ignore|git|hg)$/;
/** An entry of a memo's `context`: a file's or a link's letter, then a name. */
const CONTEXT_ENTRY =
  sep === "\\" ? /^[fl](?!\.|node_modules$)[^/\\\0]+$/ : /^[fl](?!\.|node_modules$)[^/\0]+$/;

/**
 * A list of names a folder can hold and the walk keeps, or with `ENTRY`, of
 * entries. The file is the user's own, but a memo is never a way out of its
 * folder, nor into what the walk skips.
 */
function isNameList(value: unknown, pattern = NAME): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const v of value) if (typeof v !== "string" || !pattern.test(v)) return false;
  return true;
}

/**
 * Whether a memo's names could come from one listing: no name twice (a
 * folder holds each once; a memo naming its subfolders a thousand times on
 * each shown level made the walk queue a thousand to the power of the depth),
 * its context files each of `contextNames` and named once, none of them a
 * subfolder, and, where its other entries are kept, its context files
 * exactly those of them that are files or links.
 */
function isOneListing(
  dirs: string[],
  context: string[],
  rest: string[] | undefined,
  contextNames: ReadonlySet<string>,
): boolean {
  const count = dirs.length + (rest?.length ?? 0);
  const names = new Set(dirs);
  if (rest) for (const entry of rest) names.add(entry.slice(1));
  if (names.size !== count) return false;
  for (const [i, entry] of context.entries()) {
    const name = entry.slice(1);
    if (!contextNames.has(name) || context.indexOf(entry) !== i) return false;
    if (context.includes((entry[0] === "f" ? "l" : "f") + name)) return false;
    if (rest ? !rest.includes(entry) : dirs.includes(name)) return false;
  }
  if (!rest) return true;
  // A context file that is neither a file nor a link ("o") is no instruction file.
  for (const name of contextNames) {
    if (!names.has(name) || context.includes(`f${name}`) || context.includes(`l${name}`)) continue;
    if (rest.includes(`f${name}`) || rest.includes(`l${name}`)) return false;
  }
  return true;
}

function memoOf(
  stored: unknown,
  stats: Stats,
  contextNames: ReadonlySet<string>,
): FolderMemo | undefined {
  if (!Array.isArray(stored) || stored.length < 4 || stored.length > 5) return undefined;
  if (!sameStamp(stored[0], stats)) return undefined;
  const [, dirs, context, ignoreFiles, rest] = stored as unknown[];
  if (!isNameList(dirs) || !isNameList(ignoreFiles, IGNORE_FILE)) return undefined;
  if (!isNameList(context, CONTEXT_ENTRY)) return undefined;
  if (stored.length === 5 && !isNameList(rest, ENTRY)) return undefined;
  const kept = stored.length === 5 ? (rest as string[]) : undefined;
  if (!isOneListing(dirs, context, kept, contextNames)) return undefined;
  return {
    dirs,
    context,
    ignoreFiles,
    ...(stored.length === 5 ? { rest: rest as string[] } : {}),
  };
}

/** Whether the file's names are `names`, in the same order. */
function sameNames(stored: unknown, names: readonly string[]): boolean {
  return (
    Array.isArray(stored) &&
    stored.length === names.length &&
    stored.every((n, i) => n === names[i])
  );
}

/**
 * At least the bytes `text` takes in the file, as a JSON string: a control
 * character or a lone surrogate is escaped to six, a quote or a backslash to
 * two, and a UTF-16 unit is at most three bytes of UTF-8. Counted, not
 * serialised, so that a memo is weighed before anything is built of it.
 */
function jsonBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) bytes += 6;
    else if (c === 0x22 || c === 0x5c) bytes += 2;
    else bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return bytes;
}

/** The most bytes `"rel":[stamp,[dirs],[context],[ignoreFiles],[rest]],` takes in the file. */
function storedBytes(rel: string, [stamp, dirs, context, ignoreFiles, rest]: StoredFolder): number {
  // The colon, the folder's brackets and its comma (4); the stamp's five commas and two brackets (7),
  // each number as String() writes it; each list's comma and brackets (3), and a comma an item.
  let bytes = jsonBytes(rel) + 4 + 7 + 3 * 3;
  for (const n of stamp) bytes += String(n).length;
  for (const name of dirs) bytes += jsonBytes(name) + 1;
  for (const entry of context) bytes += jsonBytes(entry) + 1;
  for (const name of ignoreFiles) bytes += jsonBytes(name) + 1;
  if (rest) {
    bytes += 3;
    for (const entry of rest) bytes += jsonBytes(entry) + 1;
  }
  return bytes;
}

/** Room in the file for what is not a folder: the version and the braces; and a root's time and braces, besides its name. */
const FILE_OVERHEAD_BYTES = 256;
const ROOT_OVERHEAD_BYTES = 64;

/** The file's roots and its size, or none when it is missing, unreadable, of another version or other names, or not ours. */
function readRoots(
  path: string,
  names: readonly string[],
): { roots: Map<string, StoredRoot>; bytes: number } {
  const read = readTextFileSync(path, MAX_LISTING_CACHE_BYTES);
  const roots = new Map<string, StoredRoot>();
  if (!read.ok) return { roots, bytes: 0 };
  const bytes = Buffer.byteLength(read.text);
  let file: Partial<StoredFile> | null;
  try {
    file = JSON.parse(read.text) as Partial<StoredFile> | null;
  } catch {
    // A torn or hand-edited file is a miss; the next write replaces it.
    return { roots, bytes: 0 };
  }
  if (file?.version !== LISTING_CACHE_VERSION || typeof file.roots !== "object" || !file.roots) {
    return { roots, bytes: 0 };
  }
  if (!sameNames(file.names, names)) return { roots, bytes: 0 };
  for (const [root, stored] of Object.entries(file.roots)) {
    if (
      typeof stored?.used === "number" &&
      typeof stored.folders === "object" &&
      stored.folders !== null
    ) {
      roots.set(root, stored);
    }
  }
  return { roots, bytes };
}

/**
 * The cache kept in `location`, read now. `now` and `settleMs` decide which
 * listings are old enough to keep (see {@link DEFAULT_LISTING_SETTLE_MS}).
 */
export function openListingCache(
  location: CacheLocation,
  options: { now?: () => number; settleMs?: number; contextNames?: readonly string[] } = {},
): ListingCache {
  const now = options.now ?? Date.now;
  const settleMs = options.settleMs ?? DEFAULT_LISTING_SETTLE_MS;
  const names = [...(options.contextNames ?? NESTED_CONTEXT_NAMES)];
  const nameSet = new Set(names);
  const { roots: stored, bytes: storedBytesRead } = readRoots(location.path, names);
  /** The folders met in this walk, by root: they are what is written. */
  const met = new Map<string, Map<string, StoredFolder>>();
  let changed = false;
  // A new memo is kept only while it fits beside the file read, every memo
  // of which may be written again: the file never outgrows what its reader
  // takes (a larger one would be a miss on every walk, and rewritten on
  // every walk), and no walk holds more than that in memory for it. A memo
  // that does not fit is not kept, and changes nothing: the next walk, with
  // the same folders, writes nothing either.
  let room = MAX_LISTING_CACHE_BYTES - FILE_OVERHEAD_BYTES - storedBytesRead;
  for (const name of names) room -= jsonBytes(name) + 1;
  // Each root's bytes: what the file read holds of it (all of which a save may write again),
  // weighed on its first new memo, and the memos kept since.
  const rootBytes = new Map<string, number>();
  const bytesOf = (root: string) => {
    let bytes = rootBytes.get(root);
    if (bytes === undefined) {
      const folders = stored.get(root)?.folders;
      bytes = folders ? Buffer.byteLength(JSON.stringify(folders)) : 0;
      rootBytes.set(root, bytes);
    }
    return bytes;
  };
  const metIn = (root: string) => {
    let folders = met.get(root);
    if (!folders) {
      folders = new Map();
      met.set(root, folders);
    }
    return folders;
  };
  return {
    get(root, rel, stats, shown) {
      const folders = stored.get(root)?.folders;
      const folder = folders && Object.hasOwn(folders, rel) ? folders[rel] : undefined;
      const memo = memoOf(folder, stats, nameSet);
      // Kept in the file even when it lacks what a shown folder needs: the
      // memo the listing then makes replaces it, but may not fit, and a walk
      // of another depth still wants this one.
      if (memo) metIn(root).set(rel, folder as StoredFolder);
      return shown && !memo?.rest ? undefined : memo;
    },
    put(root, rel, stats, memo) {
      // Whole milliseconds on both sides: a stat's times have a fraction and
      // Date.now() has none, so a folder changed within the current
      // millisecond would otherwise read as changed after now.
      if (Math.floor(Math.max(stats.mtimeMs, stats.ctimeMs)) > now() - settleMs) return;
      if (memo.dirs.length > MAX_CACHED_SUBFOLDERS) return;
      if (memo.rest && memo.rest.length > MAX_CACHED_SUBFOLDERS) return;
      const folders = metIn(root);
      if (folders.size >= MAX_CACHED_FOLDERS) return;
      // What the reader would refuse is not kept: two names that are not
      // UTF-8 can be decoded alike, and such a memo, a miss on every walk,
      // was written again on every walk.
      if (!isOneListing(memo.dirs, memo.context, memo.rest, nameSet)) return;
      const folder: StoredFolder = memo.rest
        ? [stampOf(stats), memo.dirs, memo.context, memo.ignoreFiles, memo.rest]
        : [stampOf(stats), memo.dirs, memo.context, memo.ignoreFiles];
      // A root the file does not hold yet costs its name and time once, with its first memo.
      const newRoot = folders.size === 0 && !stored.has(root);
      const bytes =
        storedBytes(rel, folder) + (newRoot ? jsonBytes(root) + ROOT_OVERHEAD_BYTES : 0);
      if (bytes > room) return;
      const share = bytesOf(root) + bytes;
      if (share > MAX_ROOT_LISTING_BYTES) return;
      rootBytes.set(root, share);
      room -= bytes;
      folders.set(rel, folder);
      changed = true;
    },
    save({ partial = false } = {}) {
      for (const [root, folders] of met) {
        const before = stored.get(root);
        const kept = before ? Object.keys(before.folders).length : 0;
        if (partial || kept === folders.size) continue;
        if (before) keepUnmet(before.folders, folders);
        if (kept !== folders.size) changed = true;
      }
      if (!changed) return;
      const used = now();
      // The room for this walk's memos was counted beside the whole file read, so keeping it all still fits.
      const keptOf = (root: string) =>
        partial ? Object.entries(stored.get(root)?.folders ?? {}) : [];
      const roots: [string, StoredRoot][] = [...met]
        .filter(([, folders]) => folders.size > 0)
        .map(([root, folders]) => [
          root,
          { used, folders: Object.fromEntries([...keptOf(root), ...folders]) },
        ]);
      const others = [...stored]
        .filter(([root]) => !met.has(root))
        .sort((a, b) => b[1].used - a[1].used);
      pushAll(roots, others.slice(0, Math.max(0, MAX_CACHED_ROOTS - roots.length)));
      const file: StoredFile = {
        version: LISTING_CACHE_VERSION,
        names,
        roots: Object.fromEntries(roots),
      };
      writeAtomically(location, JSON.stringify(file));
    },
  };
}

/**
 * Adds to `met` the folders of `stored` this walk did not meet but that are
 * still where their memos were: each named among the subfolders of its
 * parent's memo, which is met or kept in turn. A walk meets only the folders
 * its depth lists: one three deep only asks a third-level folder without
 * subfolders for an AGENTS.md, which a walk four deep lists (and keeps) to
 * show it, so walks of the two depths dropped and kept its memo in turn, and
 * each rewrote the file. A folder removed or renamed changes its parent's
 * stat, whose new memo no longer names it: it leaves the file with the next
 * walk that meets the parent. (Room for them was counted: they are in the
 * file read.)
 */
function keepUnmet(stored: Record<string, StoredFolder>, met: Map<string, StoredFolder>): void {
  // Parents first: by depth, counted once per folder.
  const unmet = Object.keys(stored)
    .filter((rel) => rel !== "" && !met.has(rel))
    .map((rel) => ({ rel, depth: rel.split("/").length }))
    .sort((a, b) => a.depth - b.depth);
  const named = new Map<string, Set<string>>();
  for (const { rel } of unmet) {
    const cut = rel.lastIndexOf("/");
    const parentRel = cut < 0 ? "" : rel.slice(0, cut);
    const parent = met.get(parentRel);
    if (!parent) continue;
    let dirs = named.get(parentRel);
    if (!dirs) {
      dirs = new Set(Array.isArray(parent[1]) ? parent[1] : []);
      named.set(parentRel, dirs);
    }
    if (dirs.has(rel.slice(cut + 1))) met.set(rel, stored[rel] as StoredFolder);
  }
}

/** The file, unless it would be more than its reader takes; failing to write costs a listing next time. */
function writeAtomically(location: CacheLocation, text: string): void {
  // Cannot happen (see `room`), but a file the reader refuses must never be written.
  if (Buffer.byteLength(text) > MAX_LISTING_CACHE_BYTES) return;
  try {
    writeCacheFile(location, text);
  } catch {
    // Not writable (a read-only home, a missing agent dir): the next walk lists again.
  }
}
