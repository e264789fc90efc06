import { basename, join, resolve } from "node:path";
import type { CacheLocation } from "../../_cache-location.js";
import { ignoreCutDiagnostics, type PatternCut } from "../../_gitignore.js";
import { stat } from "../../_io.js";
import { parseNow } from "../../_time.js";
import { type RefusedRootMarker, rootMarkerRefusedDiagnostics } from "../../repo-files/index.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { lookedUpContextNames } from "../context-names.js";
import { DEFAULT_DEADLINE_MS } from "../deadline.js";
import { realWorkingFolder } from "../roots.js";
import { type ListingCache, openListingCache } from "./_listing-cache.js";
import { type LayoutLimits, layoutTree, type TreeLine } from "./_tree-layout.js";
import { MAX_WALK_ENTRIES, type TreeListing, walkTree } from "./_tree-walk.js";

/** Levels of entries shown below the root. */
export const DEFAULT_TREE_DEPTH = 3;
/** Entries shown per folder; more become `… K more`. */
export const DEFAULT_TREE_ENTRIES = 12;
/** Lines in the whole tree, the root and the elision marker included. */
export const DEFAULT_TREE_LINES = 120;
/**
 * The deepest AGENTS.md listed, counted like tree entries: `a/b/c/d/AGENTS.md`
 * (in a folder four deep, as oh-my-pi lists them) is at depth 5. The root's
 * own is at depth 1 and never listed (it is a context file already).
 */
export const AGENTS_MD_DEPTH = 5;
/** AGENTS.md paths listed at most. */
export const MAX_AGENTS_MD = 200;

export interface WorkspaceTreeOptions {
  /** No folder above this one is looked at for `.git` or `.gitignore`. Default: none. */
  ceilingDir?: string;
  /** Levels of entries shown below the root. Default: 3. */
  maxDepth?: number;
  /** Entries shown per folder. Default: 12. */
  maxEntries?: number;
  /** Lines in the rendered tree. Default: 120. */
  maxLines?: number;
  /**
   * One time shown for every entry instead of its own mtime: a Date, epoch
   * milliseconds or an ISO 8601 string (UTC unless it has an offset). Entries
   * then order by name alone, so a checked-out fixture (whose mtimes are the
   * checkout's) gives the same tree on every machine. Default: each entry's
   * own mtime.
   */
  mtime?: Date | string | number;
  /**
   * Stops the work early: nothing more is read and the promise rejects with
   * the signal's reason. Without one, a render's default deadline (5 s)
   * stops the walk the same way (a `TimeoutError`).
   */
  signal?: AbortSignal;
  /**
   * A file where what the walk found in the folders below the shown levels
   * is kept between walks, so an unchanged folder is not listed again (see
   * `cacheLocation`); the tree is the same with it or without. Default: none.
   */
  cache?: CacheLocation;
  /**
   * The context file names looked for in the folders below the root, in
   * precedence (one file per folder, the first there). Default: AGENTS.md,
   * CLAUDE.md and GEMINI.md with their variants (`NESTED_CONTEXT_NAMES`).
   */
  contextNames?: readonly string[];
  /**
   * The real top of the project whose `.gemini/settings.json` set
   * `contextNames` (the working folder's): a root outside it, or inside a
   * repository of its own below it, is searched for the default names only,
   * as every such repository met in the walk is (`folderContextNames`).
   * Default: none (the names hold in every root, but in such repositories).
   */
  contextNamesProject?: string;
  /** Names the agent loads itself in a nested folder: such a folder names none of its files. Default: none. */
  agentLoads?: readonly string[];
  /** Where your global git excludes are found (`XDG_CONFIG_HOME`). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The home folder, where your global git excludes are found otherwise. Default: `homeFolder()`. */
  home?: string;
  /**
   * False: a nested context file that is a link to a private file of the
   * project (`.git/`, hidden, ignored) is not listed, as one that leads out
   * of the project never is (see `agentsMdLeftOut`). Default: true.
   */
  projectTrusted?: boolean;
}

export interface BuiltWorkspaceTree {
  /** The tree as text, one entry per line, root first. */
  rendered: string;
  /** True when entries were left out: a folder's `… K more`, or lines the line cap dropped. */
  truncated: boolean;
  /** The same lines with their depth (0: the root and the closing marker), for re-laying the tree out under a token budget. */
  lines: TreeLine[];
  /**
   * AGENTS.md files down to depth 5 (`a/AGENTS.md` … `a/b/c/d/AGENTS.md`; never the
   * root's own), as relative POSIX paths, sorted, at most 200.
   */
  agentsMd: string[];
  /** AGENTS.md files found beyond the 200 in `agentsMd` (deeper ones first); 0 when all are listed. */
  agentsMdOmitted: number;
  /**
   * Nested context files left out of `agentsMd` because they are links the
   * door would not follow there (out of the project, into a clone of its
   * own; untrusted, to a private file): relative POSIX paths, sorted, with
   * why. The model's own read tool would follow them. Absent when none is.
   */
  agentsMdLeftOut?: { path: string; why: string }[];
  /** Folders that could not be listed (shown without entries), relative POSIX paths, sorted; "." for the root. */
  unreadable: string[];
  /** Ignore files whose patterns were not all kept (over 2,000 in one file or 10,000 in all); absent when none was cut. */
  ignoreCuts?: PatternCut[];
  /** `.hg` markers passed over (another user's, or in a folder other users may write to): their `.hgignore` hides nothing. Absent when none was. */
  markersRefused?: RefusedRootMarker[];
  /** Folders read in part, or not at all, once the walk had kept its total of entries (500,000); absent when none was. */
  totalCut?: number;
}

/**
 * A compact listing of the folder `root` for the prompt, and the AGENTS.md
 * files below it.
 *
 * - Entries are ordered newest mtime first, ties by name (case-insensitive
 *   first, `_` before `-`, the same on every machine). A folder's own mtime
 *   orders it (it changes when entries are added, removed or renamed in it);
 *   nothing below it is consulted, so ordering never needs a deeper walk.
 * - Folders end in `/`; files show a compact size (`512B`, `1.5KB`, `2.3MB`);
 *   symlinks show `-> target` and are never followed; every entry shows its
 *   mtime as absolute UTC `YYYY-MM-DD HH:MM`, so the text is the same on every
 *   run over the same files. A name is one line: control characters and line
 *   breaks are escaped (`\u000a`), bytes that are not UTF-8 show as U+FFFD.
 * - A folder with more than `maxEntries` entries shows its newest
 *   `maxEntries - 1`, a `… K more` line and its oldest entry. A folder with
 *   more than 1,000 entries is ordered by name instead, so that only the
 *   entries shown are looked at, and its line says so. Of one folder at most
 *   200,000 entries are read.
 * - Over `maxLines`, the deepest lines are dropped first (the latest among
 *   equally deep ones), never the root or depth-1 lines, and a final line says
 *   that deeper entries were left out. (Levels the cap would drop whole are
 *   never read, so their lines are not counted.) `truncated` is true then, and
 *   when a folder's entries were elided.
 * - Hidden entries, `node_modules` and whatever git would ignore (the
 *   `.gitignore` files of the repository down to `root` and below it, with
 *   git's precedence) or a `.ignore` file (ripgrep's
 *   convention) hides are skipped and never walked, and so is whatever your
 *   own lists name, as the door refuses it whatever a `.gitignore` takes
 *   back: the exclude file git reads for the repository (and for each
 *   repository of its own below the root) and your global git excludes
 *   (`~/.config/git/ignore`). Patterns are capped (2,000 per file, 10,000 in
 *   all), and {@link treeDiagnostics} names the files cut.
 *
 * - With `mtime`, every entry shows that time and ties by name decide the order.
 *
 * The walk reads no entry deeper than the tree and the AGENTS.md search need
 * (depth 5 by default: folders 0–3 deep are read, those 4 deep are only
 * asked for an AGENTS.md). `signal` is heard between reads and every few
 * entries of a loop, so an abort stops the work within a slice. Throws
 * {@link SyspromptError} when `root` is not a folder, a limit is not a
 * positive integer or `mtime` is not a time.
 */
export async function buildWorkspaceTree(
  root: string,
  options: WorkspaceTreeOptions = {},
): Promise<BuiltWorkspaceTree> {
  if (options.signal === undefined) {
    return buildWorkspaceTree(root, {
      ...options,
      signal: AbortSignal.timeout(DEFAULT_DEADLINE_MS),
    });
  }
  const cache = options.cache ? openListingCache(options.cache, cacheNames(options)) : undefined;
  let walked: WalkedTree;
  try {
    walked = await walkWorkspaceTree(root, options, undefined, cache);
  } catch (error) {
    // Cut short (the signal): what was listed is kept for the next walk.
    cache?.save({ partial: true });
    throw error;
  }
  cache?.save();
  return (await layOutWorkspaceTree(walked)).tree;
}

/** A folder walked for its tree, ready to be laid out under any line cap. */
export interface WalkedTree {
  dir: string;
  /** What the root line names: the folder's own name by default. */
  rootName: string;
  listing: TreeListing;
  limits: LayoutLimits;
}

/**
 * The walk of {@link buildWorkspaceTree}, checks of `root` and the limits
 * included; `rootName` (default: the folder's name) is what the root line
 * shows. `cache` is the opened `options.cache`, which the caller saves.
 */
export async function walkWorkspaceTree(
  root: string,
  options: WorkspaceTreeOptions = {},
  rootName?: string,
  cache?: ListingCache,
): Promise<WalkedTree> {
  const maxDepth = positive(options.maxDepth, DEFAULT_TREE_DEPTH, "maxDepth");
  const maxEntries = positive(options.maxEntries, DEFAULT_TREE_ENTRIES, "maxEntries");
  const maxLines = positive(options.maxLines, DEFAULT_TREE_LINES, "maxLines");
  const mtimeMs =
    options.mtime === undefined
      ? undefined
      : parseNow(options.mtime, "buildWorkspaceTree: mtime").getTime();
  const signal = options.signal;
  const shown = resolve(root);
  await assertFolder(shown);
  // Walked from its real folder, whose repository's ignore and exclude rules hide what git hides
  // (a root named through a link into a repository's subfolder listed its ignored files: rev57a F3).
  const home = options.home;
  const dir = await realWorkingFolder(shown, { signal, ...(home !== undefined ? { home } : {}) });
  const ceilingDir =
    options.ceilingDir === undefined
      ? undefined
      : await realWorkingFolder(resolve(options.ceilingDir), {
          signal,
          what: "ceilingDir",
          ...(home !== undefined ? { home } : {}),
        });
  const listing = await walkTree(dir, {
    listDepth: maxDepth,
    agentsDepth: AGENTS_MD_DEPTH,
    ...(signal ? { signal } : {}),
    ...(ceilingDir !== undefined ? { ceilingDir } : {}),
    ...(cache ? { listingCache: cache } : {}),
    ...(options.contextNames ? { contextNames: options.contextNames } : {}),
    ...(options.contextNamesProject !== undefined
      ? { contextNamesProject: options.contextNamesProject }
      : {}),
    ...(options.agentLoads ? { agentLoads: options.agentLoads } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.home !== undefined ? { home: options.home } : {}),
    ...(options.projectTrusted === false ? { trusted: false } : {}),
  });
  return {
    dir,
    rootName: rootName ?? (basename(shown) || shown),
    listing,
    limits: {
      maxDepth,
      maxEntries,
      maxLines,
      ...(mtimeMs !== undefined ? { mtimeMs } : {}),
      ...(signal ? { signal } : {}),
    },
  };
}

/**
 * A walked folder's tree, at most `maxLines` lines (default: the walk's own
 * limit); `cut` says the line cap left lines out. Laying out again under
 * another cap reads only the entries shown.
 */
export async function layOutWorkspaceTree(
  walked: WalkedTree,
  maxLines = walked.limits.maxLines,
): Promise<{ tree: BuiltWorkspaceTree; cut: boolean }> {
  const { dir, rootName, listing } = walked;
  const capped = await layoutTree(dir, rootName, listing, { ...walked.limits, maxLines });
  return {
    tree: {
      rendered: capped.lines.map((l) => l.text).join("\n"),
      truncated: capped.truncated,
      lines: capped.lines,
      agentsMd: pickAgentsMd(listing.agentsMd),
      agentsMdOmitted: Math.max(0, listing.agentsMd.length - MAX_AGENTS_MD),
      ...(listing.agentsMdLeftOut.length > 0
        ? {
            agentsMdLeftOut: listing.agentsMdLeftOut
              .map((l) => ({ path: l.path, why: l.refusal.message }))
              .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
          }
        : {}),
      unreadable: [...listing.unreadable].sort(),
      ...(listing.ignoreCuts.length > 0 ? { ignoreCuts: listing.ignoreCuts } : {}),
      ...(listing.markersRefused.length > 0 ? { markersRefused: listing.markersRefused } : {}),
      ...(listing.totalCut > 0 ? { totalCut: listing.totalCut } : {}),
    },
    cut: capped.cut,
  };
}

/** Folders named in one diagnostic about unreadable folders; the rest are counted. */
const MAX_UNREADABLE_NAMED = 10;

/**
 * What a built tree has to say: AGENTS.md files beyond the list's cap, and
 * folders it could not list (shown without their entries, which may hide an
 * AGENTS.md), so neither is lost in silence. `root` is the folder the tree shows.
 */
export function treeDiagnostics(tree: BuiltWorkspaceTree, root: string): Diagnostic[] {
  const out: Diagnostic[] = [
    ...ignoreCutDiagnostics(tree.ignoreCuts ?? []),
    ...rootMarkerRefusedDiagnostics(tree.markersRefused ?? [], "hgignore"),
  ];
  if (tree.agentsMdOmitted > 0) {
    out.push({
      level: "info",
      code: "agents-md-limit",
      message: `${tree.agentsMd.length + tree.agentsMdOmitted} context files (AGENTS.md, CLAUDE.md, GEMINI.md…) in the folders below the working directory: the ${tree.agentsMd.length} shallowest are listed, and the prompt says the list is cut short`,
    });
  }
  if (tree.totalCut) {
    out.push({
      level: "warning",
      code: "tree-total-cut",
      message: `the workspace tree keeps ${MAX_WALK_ENTRIES} entries of all its folders at most: ${tree.totalCut === 1 ? "one folder was" : `${tree.totalCut} folders were`} read in part or not at all, and each says so`,
      path: root,
    });
  }
  const leftOut = tree.agentsMdLeftOut ?? [];
  const [link] = leftOut;
  if (link !== undefined) {
    const count = leftOut.length;
    const named = leftOut
      .slice(0, MAX_UNREADABLE_NAMED)
      .map((l) => l.path)
      .join(", ");
    const more = count - MAX_UNREADABLE_NAMED;
    out.push({
      level: "warning",
      code: "agents-md-link-refused",
      message: `${count === 1 ? "a context file below the working directory is a link" : `${count} context files below the working directory are links`} that sysprompt does not follow, so the prompt does not list ${count === 1 ? "it" : "them"} for the model to read: ${named}${more > 0 ? ` and ${more} more` : ""} (the first: ${link.why})`,
      path: join(root, link.path),
    });
  }
  const [first] = tree.unreadable;
  if (first !== undefined) {
    const named = tree.unreadable.slice(0, MAX_UNREADABLE_NAMED).join(", ");
    const more = tree.unreadable.length - MAX_UNREADABLE_NAMED;
    out.push({
      level: "warning",
      code: "tree-unreadable",
      message: `the workspace tree could not list ${tree.unreadable.length === 1 ? "this folder" : `${tree.unreadable.length} folders`} (no permission or an I/O error), shown without entries: ${named}${more > 0 ? ` and ${more} more` : ""}`,
      path: first === "." ? root : join(root, first),
    });
  }
  return out;
}

/** The shallowest {@link MAX_AGENTS_MD} paths (a shallower file governs more of the tree), sorted. */
function pickAgentsMd(paths: readonly string[]): string[] {
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  if (paths.length <= MAX_AGENTS_MD) return [...paths].sort(byName);
  // Each path's depth counted once, not in every comparison.
  const withDepth = paths.map((path) => ({ path, depth: path.split("/").length }));
  withDepth.sort((a, b) => a.depth - b.depth || byName(a.path, b.path));
  return withDepth
    .slice(0, MAX_AGENTS_MD)
    .map((p) => p.path)
    .sort(byName);
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new SyspromptError(
      "bad-option",
      `buildWorkspaceTree: ${name} must be a positive integer, got ${String(value)}`,
    );
  }
  return value;
}

async function assertFolder(dir: string): Promise<void> {
  let isDir = false;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch (error) {
    throw new SyspromptError("bad-option", `buildWorkspaceTree: cannot read folder ${dir}`, {
      cause: error,
    });
  }
  if (!isDir) throw new SyspromptError("bad-option", `buildWorkspaceTree: ${dir} is not a folder`);
}

/** The listing cache's options for a walk with `options`: the context names it looks up (`lookedUpContextNames`). */
export function cacheNames(options: WorkspaceTreeOptions): { contextNames?: readonly string[] } {
  return options.contextNames ? { contextNames: lookedUpContextNames(options.contextNames) } : {};
}
