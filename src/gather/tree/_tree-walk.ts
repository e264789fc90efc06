import type { Dirent, Stats } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { type EntryKind, MAX_TEXT_FILE_BYTES, realpathOrSelf } from "../../_fs.js";
import {
  type IgnoreRules,
  isIgnoredInKeptFolder,
  isIgnoredPaced,
  newPatternBudget,
  type PatternBudget,
  type PatternCut,
} from "../../_gitignore.js";
import { realpath, statOrUndefinedSync } from "../../_io.js";
import { nextTurn, pace } from "../../_pace.js";
import { homeFolder, isBelowCeiling, isWithin } from "../../_paths.js";
import {
  addIgnoreFile,
  excludeRules,
  globalIgnoreRules,
  type HgIgnore,
  hgIgnoreAround,
  hgIgnored,
  holdsUsableGit,
  type IgnoreFileRead,
  listedRefusal,
  NO_DEADLINE,
  namesRefusal,
  placeRefusal,
  plantedCheck,
  projectReach,
  type Reach,
  type Refusal,
  type RefusedRootMarker,
  reachOf,
  readIgnoreFile,
  yourIgnoreLists,
} from "../../repo-files/index.js";
import { listFolderAtOnce, listInBatches, realBelow } from "../../repo-files/list-folder.js";
import {
  folderContextNames,
  lookedUpContextNames,
  NESTED_CONTEXT_NAMES,
  settingsNamedHidden,
  settingsNamedWords,
} from "../context-names.js";
import type { FolderMemo, ListingCache } from "./_listing-cache.js";

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
 * Entries kept of all the folders of one walk at most. Each kept entry is a
 * name held until the tree is laid out: six folders of 195,000 long-named
 * links, each under {@link MAX_FOLDER_ENTRIES}, held 595 MB. Past it, each
 * further folder is read only up to what is left (none when nothing is), and
 * shown as a folder read in part. A tree of 100,000 files is kept whole.
 */
export const MAX_WALK_ENTRIES = 500_000;

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
  /** Whether the folder had more than `entryCap` entries (or than the walk's total left), of which only `readCap(rel)` were read. */
  isCapped(rel: string): boolean;
  /** How many entries of the folder were read at most: `entryCap`, or less once the walk's total ran low. */
  readCap(rel: string): number;
  /** Folders read in part, or not at all, because the walk's total ({@link MAX_WALK_ENTRIES}) was reached; 0 when it was not. */
  totalCut: number;
  /** Entries read of one folder at most. */
  entryCap: number;
  /**
   * Context files at depth 2 … `agentsDepth`, as paths below the root: one
   * per folder (the first of the context names there), shallower folders
   * first, each file once (a link to a file already named is not named again).
   */
  agentsMd: string[];
  /** Context files of `agentsMd`'s depths that are links the door refuses to follow there: never listed (rev66a F2). */
  agentsMdLeftOut: LeftOutLink[];
  /** Folders the walk could not list (no permission, an I/O error), as paths below the root ("." for the root). */
  unreadable: string[];
  /** Ignore files whose patterns were not all kept (see {@link newPatternBudget}). */
  ignoreCuts: PatternCut[];
  /** `.hg` markers whose `.hgignore` hides nothing: another user's, or in a folder other users may write to (rev82a F2). */
  markersRefused: RefusedRootMarker[];
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
  /** Entries of it read at most. */
  readCap: number;
}

function listingOf(
  listed: Map<string, ListedFolder>,
  found: Pick<
    TreeListing,
    | "agentsMd"
    | "agentsMdLeftOut"
    | "unreadable"
    | "ignoreCuts"
    | "markersRefused"
    | "entryCap"
    | "totalCut"
  >,
  signal: AbortSignal | undefined,
): TreeListing {
  const others = async (folder: ListedFolder) => {
    if (!folder.others) {
      const kept: ListedEntry[] = [];
      for (const entry of folder.unchecked) {
        // Each entry is tested against every pattern in force, at its full path's length: the
        // turn is offered before each (a clock read within a slice), not every few hundred.
        const turn = nextTurn(signal);
        if (turn) await turn;
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
      for (const entry of folder.unchecked) {
        if (count >= limit) break;
        const turn = nextTurn(signal);
        if (turn) await turn;
        if (folder.keep(entry)) count++;
      }
      return Math.min(limit, count);
    },
    isCapped: (rel) => listed.get(rel)?.capped ?? false,
    readCap: (rel) => listed.get(rel)?.readCap ?? found.entryCap,
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
  /** Entries kept of all folders at most. Default {@link MAX_WALK_ENTRIES}. */
  totalCap?: number;
  /** Listings of folders below the shown levels kept from earlier walks (see _listing-cache.ts); saving it is the caller's. */
  listingCache?: ListingCache;
  /**
   * The context file names a folder is searched for, in precedence: the
   * first that is a regular file (or a link to one) is the folder's.
   * Default: {@link NESTED_CONTEXT_NAMES}. The listing cache must be opened
   * with the same names.
   */
  contextNames?: readonly string[];
  /** The real top of the project whose settings set `contextNames` (see `WorkspaceTreeOptions`). */
  contextNamesProject?: string;
  /**
   * Names the agent loads itself from a nested folder: a folder holding one
   * of them (as a regular file) names none of its files. Default: none.
   */
  agentLoads?: readonly string[];
  /** Where your global git excludes are found (as the door finds them). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The home folder, for the same. Default: `homeFolder()`. */
  home?: string;
  /** False: a context file's link to a private file of the project (`.git/`, hidden, ignored) is not listed either. Default: true. */
  trusted?: boolean;
}

/** The ignore files a folder can hold, in rising precedence: ripgrep's `.ignore` outranks `.gitignore`. */
const IGNORE_FILES = [".gitignore", ".ignore"] as const;

/** A folder waiting to be read: its path, its path below the root, its depth and the ignore rules above it. */
interface Pending {
  dir: string;
  rel: string;
  depth: number;
  rules: IgnoreRules | undefined;
  /** Your own lists in force there (see {@link yourIgnoreLists}), each asked on its own. */
  yours: readonly YourList[];
  /** For a folder of the last level: its context files, already looked up. */
  agents?: Present[];
  /** Inside a repository of its own below the root (its `.git` or `.hg` met on the way): the default names only. */
  clone: boolean;
}

/**
 * One of your own ignore lists, its patterns from the top of the repository it
 * is for: `at` is that top below the walk's repository ("" for that one,
 * else "a/b/"), and a path below it is asked from there. A nested Mercurial
 * working copy's `.hgignore` (`hg`) is asked so too.
 */
type YourList = { rules: IgnoreRules; at: string } | { hg: HgIgnore; at: string };

/** A context file found in a folder: its name, its stat (links followed) when taken, and whether it is a symlink. */
interface Present {
  name: string;
  stats?: Stats;
  link: boolean;
}

/**
 * Walks `root` no deeper than the tree and the AGENTS.md search need. Hidden
 * entries, `node_modules` and whatever git would ignore are never entered:
 * the `.gitignore` files from the repository root down to `root` (and the
 * repository's `.git/info/exclude`) apply from the start, and each nested
 * `.gitignore` joins the rules for its own folder as the walk reaches it.
 * A `.ignore` file (ripgrep's convention, same syntax) counts like a
 * `.gitignore` in the same folder and outranks it. Symlinks are listed,
 * never followed into. Patterns are capped per file and per walk; the
 * deadline (`signal`) is heard between folders and every few entries of a loop.
 *
 * Folders are read level by level, each level in the order its parents
 * listed them, so a shallower ignore file always takes its patterns from the
 * walk's budget before a deeper one.
 */
export async function walkTree(root: string, options: WalkOptions): Promise<TreeListing> {
  const { listDepth, agentsDepth, signal, entryCap = MAX_FOLDER_ENTRIES } = options;
  // What is left of the walk's total, and how many folders it cut.
  let totalLeft = options.totalCap ?? MAX_WALK_ENTRIES;
  let totalCut = 0;
  // The working folder's project's names, and the defaults a repository of its own below it keeps
  // (folderContextNames): each folder is looked up for all of them, and takes its own (rev101a F1).
  const ownNames = options.contextNames ?? NESTED_CONTEXT_NAMES;
  const names = lookedUpContextNames(ownNames);
  const nameSet = new Set(names);
  const agentLoads = options.agentLoads ?? [];
  const listed = new Map<string, ListedFolder>();
  const found: Found[] = [];
  const unreadable: string[] = [];
  const budget = newPatternBudget();
  // The deepest folder read: its entries are at depth `deepest + 1`.
  const deepest = Math.max(listDepth, agentsDepth) - 1;
  const repo = await findRepository(root, options.ceilingDir);
  // Each folder below the root is listed only where it lies by its real path (the root's and
  // its `rel`): one reached through a folder on its way swapped for a link after its parent's
  // listing is not (decided, review rev92a F2). Unknown (the root gone): as before.
  const rootReal = await realpath(root).catch(() => undefined);
  const realOf = (rel: string) =>
    rel === "" || rootReal === undefined ? undefined : realBelow(rootReal, rel);
  const outOfReach = await homeOutOfReach(root, options.home);
  const { prefix, rules: inherited } = await inheritedRules(root, repo, budget, signal);
  // Your own lists (the exclude file git reads, your global excludes) hide what the door refuses,
  // whatever a .gitignore takes back; paths are asked below the repository's top (`own`).
  const own = repo === undefined || repo === root ? "" : `${posixRelative(repo, root)}/`;
  const yours = await yourListsAt(root, repo, own, options, signal, budget);
  // A Mercurial working copy's `.hgignore` hides what it names, as the door refuses it (rev68a F3):
  // each working copy's of yours at or above the root (rev82a F1), none of another user's (F2).
  const markersRefused: RefusedRootMarker[] = [];
  const hg = await hgIgnoreAround(
    root,
    { ceiling: options.ceilingDir, home: options.home, signal },
    markersRefused,
  );
  // Each `.hgignore` asked, by path: one the door cannot read whole (a link, a FIFO, a line it
  // cuts) is said at the end as a `.gitignore` not read whole is (rev78f F2).
  const hgFiles = new Map<string, HgIgnore>(hg.map((c) => [c.file, c.rules]));
  const byHg = (path: string) => hgIgnored(hg, path);
  const byYou = (lists: readonly YourList[], path: string) =>
    lists.some((list) => {
      if (!path.startsWith(list.at)) return false;
      const below = path.slice(list.at.length);
      if ("rules" in list) return isIgnoredInKeptFolder(list.rules, below);
      return list.hg.ignores(below.endsWith("/") ? below.slice(0, -1) : below);
    });
  // Your global excludes, compiled once: a tree of a thousand clones asks them at each one's top.
  let global: Promise<IgnoreRules | undefined> | undefined;
  // A repository of its own below the root (a clone, a submodule): its exclude file and your
  // global excludes, anchored at its top, as git reads them there and the door does.
  // A Mercurial working copy of its own below the root (a clone of yours, `.hg` at its top,
  // `hg`): its `.hgignore`, as Mercurial reads it there (rev71a F7: only the root's was read).
  const nestedLists = async (dir: string, rel: string, hg: boolean): Promise<YourList[]> => {
    global ??= globalIgnoreRules(repo ?? root, {
      ...(options.env ? { env: options.env } : {}),
      ...(options.home !== undefined ? { home: options.home } : {}),
    });
    const [exclude, globals, copy] = await Promise.all([
      excludeRules(dir, budget.cuts, repo ?? root, options.home),
      global,
      hg ? hgIgnoreAround(dir, { ceiling: dir, home: options.home, signal }, markersRefused) : [],
    ]);
    const at = `${own}${rel}/`;
    const lists: YourList[] = [exclude, globals]
      .filter((l): l is IgnoreRules => l !== undefined)
      .map((rules) => ({ rules, at }));
    for (const c of copy) {
      lists.push({ hg: c.rules, at });
      hgFiles.set(c.file, c.rules);
    }
    return lists;
  };
  // The rules in force in `dir`: those above it and its ignore files `files`
  // (those of IGNORE_FILES it holds, in their order). Most folders hold none,
  // and then nothing is read or awaited.
  const withIgnoreFiles = async (
    dir: string,
    rel: string,
    rules: IgnoreRules | undefined,
    files: readonly string[],
  ): Promise<IgnoreRules | undefined> => {
    for (const file of files) {
      const path = join(dir, file);
      rules = addIgnoreFile(
        rules,
        await readIgnoreBytes(path),
        path,
        prefix + rel,
        budget,
        MAX_IGNORE_BYTES,
      );
    }
    return rules;
  };
  const ignoreFilesWhere = (present: (file: string) => boolean) => IGNORE_FILES.filter(present);

  // The context file of a folder that holds some (`present`, in the names'
  // order), of the names in force there (`clone`: the defaults only), unless
  // the agent loads one of them itself or the rules ignore it.
  const take = (
    rel: string,
    candidates: readonly Present[],
    rules: IgnoreRules | undefined,
    lists: readonly YourList[],
    clone: boolean,
  ) => {
    const inForce = folderContextNames(ownNames, clone);
    const present = candidates
      .filter((p) => inForce.includes(p.name))
      .sort((a, b) => inForce.indexOf(a.name) - inForce.indexOf(b.name));
    const winner = present[0];
    if (winner === undefined) return;
    if (agentLoads.length > 0 && present.some((p) => agentLoads.includes(p.name))) return;
    const path = childRel(rel, winner.name);
    if (isIgnoredInKeptFolder(rules, prefix + path) || byYou(lists, own + path) || byHg(path)) {
      return;
    }
    found.push({ path, ...winner });
  };

  // The deepest level only matters for its context files, and on a large tree
  // most entries sit there: one stat per context name and folder instead of a
  // listing (a listing costs an open, two reads and a close, and is unbounded
  // in a folder of a million entries). Where a stat finds a file, its ignore
  // files are looked up by name (lstat: git never follows a linked
  // .gitignore). The folder is listed only on a file system that ignores
  // case, where the stat of AGENTS.md also finds agents.md: there the listing
  // tells the names' exact case. Nothing is awaited for a folder without a
  // context file, which is nearly every one.
  const caseBlind = new Map<number, boolean>();
  const lastLevel = (
    dir: string,
    rel: string,
    rules: IgnoreRules | undefined,
    lists: readonly YourList[],
    clone: boolean,
    known?: Present[],
  ): Promise<void> | undefined => {
    const present = known ?? contextFilesIn(dir, names);
    const stats = present?.[0]?.stats;
    if (!present || !stats) return undefined;
    // Not listed, so its `.git` and `.hg` are looked up by name: a repository of its own has lists of its own.
    const hg = rel !== "" && statOrUndefinedSync(join(dir, ".hg"), false) !== undefined;
    if (hg || (rel !== "" && statOrUndefinedSync(join(dir, ".git"), false) !== undefined)) {
      return nestedLists(dir, rel, hg).then((more) =>
        takeFromLastLevel(dir, rel, rules, [...lists, ...more], present, stats, true),
      );
    }
    return takeFromLastLevel(dir, rel, rules, lists, present, stats, clone);
  };
  /** {@link lastLevel}'s context files `present` taken, the first one's stat being `stats`. */
  const takeFromLastLevel = (
    dir: string,
    rel: string,
    rules: IgnoreRules | undefined,
    lists: readonly YourList[],
    present: Present[],
    stats: Stats,
    clone: boolean,
  ): Promise<void> | undefined => {
    const first = { name: (present[0] as Present).name, stats };
    // One look-up per file system: whether it ignores case does not change from folder to folder.
    let blind = caseBlind.get(first.stats.dev);
    if (blind === undefined) {
      blind = ignoresCase(dir, first.name, first.stats);
      caseBlind.set(first.stats.dev, blind);
    }
    const stated = (file: string) => {
      const s = statOrUndefinedSync(join(dir, file), false);
      return s !== undefined && !s.isDirectory() && !s.isSymbolicLink();
    };
    if (!blind) {
      const files = ignoreFilesWhere(stated);
      if (files.length === 0) {
        take(rel, present, rules, lists, clone);
        return undefined;
      }
      return withIgnoreFiles(dir, rel, rules, files).then((r) =>
        take(rel, present, r, lists, clone),
      );
    }
    return (async () => {
      const none = () => undefined;
      const own = statOrUndefinedSync(dir, false);
      const checked = own?.isDirectory() ? own : undefined;
      const { entries } =
        listFolderAtOnce(dir, own?.size, entryCap, none, checked, realOf(rel)) ??
        (await listInBatches(dir, entryCap, signal, none, checked, realOf(rel)));
      const exact = present.filter((p) => entries.some((e) => e.name === p.name));
      if (exact.length === 0) return;
      const files = ignoreFilesWhere(
        (file) => entries.some((e) => e.name === file) && stated(file),
      );
      take(rel, exact, await withIgnoreFiles(dir, rel, rules, files), lists, clone);
    })();
  };

  const queue: Pending[] = [
    {
      dir: root,
      rel: "",
      depth: 0,
      rules: inherited,
      yours,
      clone: otherThanNamesProject(root, repo, options.contextNamesProject),
    },
  ];
  for (let next = 0; next < queue.length; next++) {
    const { dir, rel, depth, agents } = queue[next] as Pending;
    let rules = (queue[next] as Pending).rules;
    let lists = (queue[next] as Pending).yours;
    let clone = (queue[next] as Pending).clone;
    const turn = nextTurn(signal);
    if (turn) await turn;
    if (depth >= listDepth && depth === deepest) {
      const read = lastLevel(dir, rel, rules, lists, clone, agents);
      if (read) await read;
      continue;
    }
    const info = statOrUndefinedSync(dir, false);
    // Every folder below the root was a folder when its parent was listed (or
    // when the memo of its parent was made), but it may be a link now: the
    // entry swapped since, or a cache file edited by hand. Listing it would
    // follow the link; so a folder is listed only while lstat (taken anyway)
    // still calls it one. The root itself may be a link (a linked cwd). A
    // folder of the last level is only asked for an AGENTS.md and gets no
    // lstat of its own: that is a probe per folder, and a prompt session
    // would walk again whenever such a folder gained a file; a link named
    // there by a hand-edited cache file costs an AGENTS.md path, never opened.
    if (depth > 0 && info !== undefined && !info.isDirectory()) continue;
    // Below the shown levels a folder is read for its subfolders and its
    // AGENTS.md. One with no subfolders (a link count of 2: ext4, xfs and
    // tmpfs count each subfolder's `..`; btrfs says 1 and is read) needs only
    // the AGENTS.md look-up of the last level.
    if (depth >= listDepth && info?.isDirectory() && info.nlink === 2) {
      const read = lastLevel(dir, rel, rules, lists, clone);
      if (read) await read;
      continue;
    }
    const shown = depth < listDepth;
    const base = rel === "" ? prefix : `${prefix}${rel}/`;
    const ownBase = rel === "" ? own : `${own}${rel}/`;
    const folders: ListedEntry[] = [];
    // A subfolder met in a listing or a memo: shown when this folder is, and
    // queued to be read in its turn (one of the last level only when it
    // holds a context file).
    const subfolder = (
      name: string,
      rules: IgnoreRules | undefined,
      yours: readonly YourList[],
    ): void => {
      const last = depth + 1 >= listDepth && depth + 1 === deepest;
      if (byYou(yours, `${ownBase}${name}/`) || byHg(childRel(rel, name))) return;
      if (outOfReach?.(childRel(rel, name))) return;
      if (shown || !last) {
        if (isIgnoredInKeptFolder(rules, `${base}${name}/`)) return;
        if (shown) folders.push({ name, kind: "dir" });
        if (depth < deepest) {
          queue.push({
            dir: childPath(dir, name),
            rel: childRel(rel, name),
            depth: depth + 1,
            rules,
            yours,
            clone,
          });
        }
        return;
      }
      // A folder of the last level counts only for its context files, and
      // most have none: look for them before asking the ignore rules about
      // the folder, and without a queue entry of its own per folder. One that
      // has some waits in the queue like the rest, so that its ignore files
      // are read after those of every shallower folder (see walkTree).
      const sub = childPath(dir, name);
      const present = contextFilesIn(sub, names);
      if (present && !isIgnoredInKeptFolder(rules, `${base}${name}/`)) {
        queue.push({
          dir: sub,
          rel: childRel(rel, name),
          depth: depth + 1,
          rules,
          yours,
          clone,
          agents: present,
        });
      }
    };
    // This folder's own context files, as its listing named them: regular
    // files, and links to one (never opened); a dangling or looping link is
    // no instruction file. No look-up unless the listing holds a link.
    const ownContextFiles = (
      context: readonly string[],
      rules: IgnoreRules | undefined,
      yours: readonly YourList[],
    ) => {
      if (depth < 1 || context.length === 0) return;
      const present: Present[] = [];
      for (const name of names) {
        if (context.includes(`f${name}`)) present.push({ name, link: false });
        else if (context.includes(`l${name}`)) {
          const stats = statOrUndefinedSync(childPath(dir, name), true);
          if (stats?.isFile()) present.push({ name, stats, link: true });
        }
      }
      if (present.length > 0) take(rel, present, rules, yours, clone);
    };

    // A folder whose stat is the one of a listing kept in the cache is not
    // listed again (see _listing-cache.ts); one the tree shows needs a memo
    // that holds its other entries too.
    let memo = info?.isDirectory() ? options.listingCache?.get(root, rel, info, shown) : undefined;
    let capped = false;
    const readCap = Math.min(entryCap, Math.max(0, totalLeft));
    if (!memo && readCap === 0) {
      // The walk's total is spent: the folder is shown, read in part (none of it).
      capped = true;
      totalCut++;
      memo = memoOfListing([], shown, nameSet);
    } else if (!memo) {
      // Unreadable or gone since its parent was listed: shown without children.
      const onUnreadable = () => unreadable.push(rel === "" ? "." : rel);
      // The very folder lstat saw (a link swapped in since is not listed); the root may be a link.
      const checked = info?.isDirectory() ? info : undefined;
      const real = realOf(rel);
      const listing =
        listFolderAtOnce(dir, info?.size, readCap, onUnreadable, checked, real) ??
        (await listInBatches(dir, readCap, signal, onUnreadable, checked, real));
      capped = listing.capped;
      if (capped && readCap < entryCap) totalCut++;
      memo = memoOfListing(listing.entries, shown, nameSet);
      if (info?.isDirectory() && !capped && listing.entries.length > 0) {
        options.listingCache?.put(root, rel, info, memo);
      }
    }
    totalLeft -= memo.dirs.length + memo.context.length + (memo.rest?.length ?? 0);
    // git never follows a symlinked .gitignore; neither does the memo (regular files only).
    const files = ignoreFilesWhere((file) => memo.ignoreFiles.includes(file));
    if (files.length > 0) rules = await withIgnoreFiles(dir, rel, rules, files);
    // A repository of its own below the root (a clone, a submodule): its exclude file, as the door reads it.
    const hg = rel !== "" && memo.ignoreFiles.includes(".hg");
    if (hg || (rel !== "" && memo.ignoreFiles.includes(".git"))) {
      lists = [...lists, ...(await nestedLists(dir, rel, hg))];
      // Its folders are that repository's: the working folder's settings name none of its files.
      clone = true;
    }
    for (const name of memo.dirs) {
      // The listing itself was a checkpoint; then a turn offered before each subfolder, whose
      // ignore verdict tests every pattern in force at its full path's length.
      const later = nextTurn(signal);
      if (later) await later;
      subfolder(name, rules, lists);
    }
    ownContextFiles(memo.context, rules, lists);
    if (shown) {
      const unchecked = (memo.rest ?? []).map(entryOfMemo);
      const folderRules = rules;
      const folderLists = lists;
      const keep = (e: ListedEntry) =>
        !isIgnoredInKeptFolder(folderRules, base + e.name) &&
        !byYou(folderLists, ownBase + e.name) &&
        !byHg(childRel(rel, e.name));
      listed.set(rel, { folders, unchecked, keep, capped, readCap });
    }
  }
  const { agentsMd, leftOut } = await eachFileOnce(root, found, options);
  for (const [path, rules] of hgFiles) {
    if (rules.cut !== undefined) budget.cuts.push({ path, kept: 0, dropped: 0, unread: rules.cut });
  }
  return listingOf(
    listed,
    {
      agentsMd,
      agentsMdLeftOut: leftOut,
      unreadable,
      ignoreCuts: budget.cuts,
      markersRefused,
      entryCap,
      totalCut,
    },
    signal,
  );
}

/** A context file the walk takes: its path below the root, and what the look-up knew of it. */
interface Found extends Present {
  path: string;
}

/**
 * The context files of `dir` among `names` (regular files, or links to one),
 * in the names' order; undefined when there are none. One lstat per name
 * (as cheap as a stat for the usual missing name), and a stat for a link.
 */
function contextFilesIn(dir: string, names: readonly string[]): Present[] | undefined {
  let present: Present[] | undefined;
  for (const name of names) {
    const path = childPath(dir, name);
    const own = statOrUndefinedSync(path, false);
    if (!own) continue;
    const link = own.isSymbolicLink();
    const stats = link ? statOrUndefinedSync(path, true) : own;
    if (!stats?.isFile()) continue;
    present ??= [];
    present.push({ name, stats, link });
  }
  return present;
}

/** A context file's link the list leaves out: its path below the root, and why the door would not read it. */
export interface LeftOutLink {
  path: string;
  refusal: Refusal;
}

/**
 * The paths of `found` (shallower folders first), each real path once: a
 * symlink to a file named before it (a CLAUDE.md linking to the AGENTS.md of
 * a folder above) is not named again. The walk never enters a linked folder,
 * so a file that is no link is at its own real path; only links are resolved,
 * and nothing is when there are none. A file of more than one name (a hard
 * link: {@link namesRefusal}) is `leftOut`, as the door and on-touch delivery
 * refuse it (decided, review rev96a F1). The model is told to read and
 * follow these, and its own read tool follows a link: a name is listed only
 * when the door would read it there. One another user put where anyone may
 * write (their `ww/evil/AGENTS.md`, the door's `Reach.planted`) is not named
 * (rev64a F1), nor a link the door refuses (`a/AGENTS.md -> ~/.ssh/id_ed25519`,
 * `-> /proc/self/environ`; untrusted, `-> ../.env`), checked as on-touch
 * delivery checks it, in the project of its own folder ({@link linkReaches}):
 * those are `leftOut` (rev66a F2).
 */
async function eachFileOnce(
  root: string,
  found: readonly Found[],
  options: Pick<WalkOptions, "trusted" | "home" | "ceilingDir" | "signal" | "contextNamesProject">,
): Promise<{ agentsMd: string[]; leftOut: LeftOutLink[] }> {
  const out: string[] = [];
  const leftOut: LeftOutLink[] = [];
  if (found.length === 0) return { agentsMd: out, leftOut };
  const native = (rel: string) => rel.split("/").join(sep);
  const realRoot = await realpath(root).catch(() => root);
  const planted = plantedCheck();
  let reachOf: ReturnType<typeof linkReaches> | undefined;
  const seen = new Set<string>();
  for (const f of found) {
    const own = childPath(realRoot, native(f.path));
    // A link whose real path cannot be found (too long, its target gone) is no file at its own path.
    const real = f.link ? await realpath(childPath(root, native(f.path))).catch(unresolved) : own;
    if (typeof real !== "string") {
      leftOut.push({ path: f.path, refusal: real });
      continue;
    }
    if (seen.has(real)) continue;
    // A name `.gemini/settings.json` set leading into a hidden folder is refused trusted or not,
    // first, as on touch and in the rules step (rev101a F2; its words name no trust: rev104a F5).
    const hidden = settingsNamed(f.path, own, real, options.contextNamesProject);
    if (hidden !== undefined) {
      leftOut.push({ path: f.path, refusal: hidden });
      continue;
    }
    // A file of more than one name, which the door does not read (review rev96a F1): not listed.
    // One lstat a context file found (the listing gave its kind only), none a link's target.
    const stats = f.stats ?? statOrUndefinedSync(own, false);
    if (!f.link) {
      const names = stats && namesRefusal(stats, real);
      if (names !== undefined) leftOut.push({ path: f.path, refusal: names });
      else {
        seen.add(real);
        if (planted(real) === undefined) out.push(f.path);
      }
      continue;
    }
    reachOf ??= linkReaches(realRoot, options);
    // A refused link names its file for no one: a deeper link to the same file may still be listed.
    // The door's order: where it leads first, then its target's names (rev104a F4).
    const refusal = await listedRefusal(own, real, stats ?? ONE_NAME, await reachOf(own));
    if (refusal !== undefined) leftOut.push({ path: f.path, refusal });
    else {
      seen.add(real);
      out.push(f.path);
    }
  }
  return { agentsMd: out, leftOut };
}

/**
 * The refusal of a file found by a name the settings of the project at
 * `namesProject` set (no name of {@link NESTED_CONTEXT_NAMES}) whose path or
 * real path has a hidden name below that project's top
 * ({@link settingsNamedHidden}), or undefined.
 */
function settingsNamed(
  rel: string,
  own: string,
  real: string,
  namesProject: string | undefined,
): Refusal | undefined {
  if (namesProject === undefined || NESTED_CONTEXT_NAMES.includes(posix.basename(rel))) return;
  const hidden = settingsNamedHidden(own, real, namesProject);
  if (hidden === undefined) return undefined;
  return { reason: "private", code: "file-private", message: settingsNamedWords(hidden) };
}

/** A file whose names could not be counted: judged by where it leads only. */
const ONE_NAME = { nlink: 1 };

/** The refusal of a link whose real path the system could not give (rev67a F1: the door refuses it too). */
function unresolved(error: unknown): Refusal {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    reason: "outside",
    code: "file-outside-project",
    message: `where it leads cannot be found${code ? ` (${code})` : ""}, so it is not followed`,
  };
}

/**
 * The reach a link found at `own` (a real path below the walk's real root) is
 * checked in: the project of the walk's root, or, for a link inside a
 * repository of its own below it (a clone), that repository's, as on-touch
 * delivery checks a file in the project of its own folder. Built on the first
 * link, one reach a repository.
 */
function linkReaches(
  realRoot: string,
  o: Pick<WalkOptions, "trusted" | "home" | "ceilingDir" | "signal">,
): (own: string) => Promise<Reach> {
  const home = o.home ?? homeFolder();
  const trusted = o.trusted !== false;
  const walkReach = projectReach({
    start: realRoot,
    home,
    trusted,
    ceiling: o.ceilingDir,
    signal: o.signal ?? NO_DEADLINE,
  });
  const clones = new Map<string, Promise<Reach>>();
  return async (own) => {
    const reach = await walkReach;
    const clone = await reach.nested(own);
    if (clone === undefined) return reach;
    let theirs = clones.get(clone);
    if (theirs === undefined) {
      theirs = projectReach({
        start: clone,
        root: clone,
        home,
        trusted,
        signal: o.signal ?? NO_DEADLINE,
      });
      clones.set(clone, theirs);
    }
    return theirs;
  };
}

/**
 * Whether the file system holding `dir` ignores case: its file `name` (whose
 * stat is `found`) is also reached with its letters' case changed
 * (`agents.md`). A case-sensitive one finds no such file, or another one.
 */
function ignoresCase(dir: string, name: string, found: Stats): boolean {
  const lower = name.toLowerCase();
  const other = lower !== name ? lower : name.toUpperCase();
  // A name without letters tells nothing: taken as it is.
  if (other === name) return false;
  const stats = statOrUndefinedSync(childPath(dir, other), true);
  return stats !== undefined && stats.ino === found.ino && stats.dev === found.dev;
}

/** `dir`'s child: plain concatenation, as `dir` is already normalised (join costs more per call). */
/**
 * What a folder's listing holds that the walk needs, as the listing cache
 * keeps it: its other entries (`rest`) only for a folder the tree shows.
 */
function memoOfListing(
  entries: readonly Dirent[],
  shown: boolean,
  names: ReadonlySet<string>,
): FolderMemo {
  const memo: FolderMemo = { dirs: [], context: [], ignoreFiles: [] };
  const rest: string[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith(".")) {
      // A FIFO, socket or device so named is there too (read as not read whole); a folder or a link is none.
      if (
        (IGNORE_FILES as readonly string[]).includes(name) &&
        !entry.isDirectory() &&
        !entry.isSymbolicLink()
      ) {
        memo.ignoreFiles.push(name);
      }
      // A repository's top, of any kind (a submodule's `.git` is a file), or a Mercurial working copy's.
      if (name === ".git" || name === ".hg") memo.ignoreFiles.push(name);
      continue;
    }
    if (name === "node_modules") continue;
    // A name that is not UTF-8 comes as U+FFFD, three bytes where git matches its one (`sec?`
    // ignores `sec\xff`): no verdict on it is git's, and the name opens nothing. Left out (rev51a F5).
    if (name.includes(NOT_UTF8)) continue;
    if (entry.isDirectory()) {
      memo.dirs.push(name);
      continue;
    }
    const kind = entry.isFile() ? "f" : entry.isSymbolicLink() ? "l" : "o";
    if (kind !== "o" && names.has(name)) memo.context.push(kind + name);
    if (shown) rest.push(kind + name);
  }
  if (shown) memo.rest = rest;
  return memo;
}

/** What a listing gives for bytes of a name that are not UTF-8. */
const NOT_UTF8 = "\uFFFD";

const KIND_OF_LETTER: Record<string, EntryKind> = { f: "file", l: "link", o: "other" };

/** An entry of a memo's `rest` as the tree lists it. */
function entryOfMemo(entry: string): ListedEntry {
  return { name: entry.slice(1), kind: KIND_OF_LETTER[entry.charAt(0)] ?? "other" };
}

function childPath(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

function childRel(rel: string, name: string): string {
  return rel === "" ? name : `${rel}/${name}`;
}

/**
 * Your own ignore lists in force at `root` ({@link yourIgnoreLists}: the
 * exclude file git reads for `repo` and your global excludes), less any that
 * names `root` itself: you are working there, and a tree of nothing helps no
 * one (the door still refuses those files' bytes).
 */
async function yourListsAt(
  root: string,
  repo: string | undefined,
  own: string,
  options: Pick<WalkOptions, "env" | "home">,
  signal: AbortSignal | undefined,
  budget: PatternBudget,
): Promise<YourList[]> {
  const lists = await yourIgnoreLists(repo, repo ?? root, {
    cuts: budget.cuts,
    ...(options.env ? { env: options.env } : {}),
    ...(options.home !== undefined ? { home: options.home } : {}),
  });
  const kept: YourList[] = [];
  for (const rules of lists) {
    if (own === "" || !(await isIgnoredPaced(rules, own, signal))) kept.push({ rules, at: "" });
  }
  return kept;
}

/**
 * The ignore rules that already hold at `root`: those of the ignore files
 * between the repository root `repo` (the nearest ancestor holding a `.git`
 * git would use) and `root` (the exclude file is one of your own lists, see
 * {@link yourListsAt}). Paths are then checked as
 * `prefix + path below root`, `prefix` being `root` relative to the repository.
 * Outside a repository, or in a folder the repository ignores, only the files
 * at and below `root` count.
 */
async function inheritedRules(
  root: string,
  repo: string | undefined,
  budget: PatternBudget,
  signal: AbortSignal | undefined,
): Promise<{ prefix: string; rules?: IgnoreRules }> {
  if (repo === undefined || repo === root) return { prefix: "" };
  let rules: IgnoreRules | undefined;
  const prefix = `${posixRelative(repo, root)}/`;
  const chain: string[] = [];
  for (let dir = dirname(root); dir !== repo; dir = dirname(dir)) chain.unshift(dir);
  chain.unshift(repo);
  const files = chain.flatMap((dir) =>
    IGNORE_FILES.map((file) => ({ dir, path: join(dir, file) })),
  );
  const reads = await Promise.all(files.map((f) => readIgnoreBytes(f.path)));
  reads.forEach((read, i) => {
    const file = files[i];
    if (file !== undefined) {
      const base = posixRelative(repo, file.dir);
      rules = addIgnoreFile(rules, read, file.path, base, budget, MAX_IGNORE_BYTES);
    }
  });
  if (!rules) return { prefix };
  // A root in a folder the repository ignores (a scratch or vendored folder):
  // git would list nothing there, which helps no one; the rules found at and
  // below the root still apply.
  // Paced: every pattern is tested at each of the root's folders, hundreds deep in a hostile repository.
  if (await isIgnoredPaced(rules, prefix, signal)) return { prefix: "" };
  return { prefix, rules };
}

/**
 * The door's home-folder rule for the walk (rev82a F3): with the home folder
 * inside the walk's root (`HOME=$PWD/home`), a project above it never reaches
 * it, so the tree does not list it either, nor anything below it. Asked of
 * the door's own function ({@link placeRefusal} on the reach {@link reachOf}
 * gives the root), a folder's real path taken as the root's real path and its
 * path below (the walk follows no link into a folder). Undefined when the
 * root holds no home folder (nearly always): nothing is asked then.
 */
async function homeOutOfReach(
  root: string,
  home: string | undefined,
): Promise<((rel: string) => boolean) | undefined> {
  const [realRoot, realHome] = await Promise.all([
    realpathOrSelf(root),
    realpathOrSelf(home ?? homeFolder()),
  ]);
  const reach = reachOf({
    start: root,
    realStart: realRoot,
    found: root,
    realFound: realRoot,
    home: home ?? homeFolder(),
    realHome,
    nested: () => () => Promise.resolve(undefined),
    planted: () => undefined,
  });
  if (reach.excluded.length === 0) return undefined;
  return (rel) => {
    const native = rel.split("/").join(sep);
    return placeRefusal(join(root, native), join(realRoot, native), reach, false) !== undefined;
  };
}

async function findRepository(
  root: string,
  ceilingDir: string | undefined,
): Promise<string | undefined> {
  for (let dir = root; ; ) {
    // A `.git` git would not use (an empty file, a link to nowhere: a tarball's) is no repository:
    // the rules of the one around it still hold here, as git's walk of that one goes on into it.
    if ((await statOf(join(dir, ".git"), false)) && (await holdsUsableGit(dir))) return dir;
    const up = dirname(dir);
    if (up === dir || !isBelowCeiling(up, ceilingDir)) return undefined;
    dir = up;
  }
}

/**
 * Whether the walk's root `root` (a real path; `repo`, its repository's top)
 * lies outside `project`, the project whose settings set the walk's context
 * names, or inside a repository of its own below it: then its folders are
 * searched for the default names only (`folderContextNames`).
 */
function otherThanNamesProject(
  root: string,
  repo: string | undefined,
  project: string | undefined,
): boolean {
  if (project === undefined) return false;
  if (!isWithin(root, project)) return true;
  return repo !== undefined && repo !== project && isWithin(repo, project);
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

/** `stat` (following links) or `lstat`; undefined for anything that fails. */
export async function statOf(path: string | Buffer, follow: boolean): Promise<Stats | undefined> {
  await pace();
  return statOrUndefinedSync(path, follow);
}

/** The tree reads an ignore file up to 1 MiB; past it, what was read counts and the cut is said. */
const MAX_IGNORE_BYTES = MAX_TEXT_FILE_BYTES;

/**
 * An ignore file as the door reads it ({@link readIgnoreFile}): bytes, regular files only, never
 * through a link, a FIFO never opened to block. Not its decoded text: decoding made each CR a
 * line end, so `!secrets.yml\r\r` took back `secrets.yml` in the tree (rev71a F4), and a NUL made
 * the file binary and none. One there but not read (a FIFO) is a cut the tree says (fx77d).
 */
async function readIgnoreBytes(path: string): Promise<IgnoreFileRead> {
  await pace();
  return readIgnoreFile(path, MAX_IGNORE_BYTES);
}
