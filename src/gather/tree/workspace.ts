import { pushAll } from "../../_arrays.js";
import { stat } from "../../_io.js";
import { toPosix } from "../../_paths.js";
import type { Diagnostic } from "../../types.js";
import { DEFAULT_DEADLINE_MS } from "../deadline.js";
import { type ListingCache, openListingCache } from "./_listing-cache.js";
import {
  type BuiltWorkspaceTree,
  cacheNames,
  DEFAULT_TREE_LINES,
  layOutWorkspaceTree,
  MAX_AGENTS_MD,
  treeDiagnostics,
  type WalkedTree,
  type WorkspaceTreeOptions,
  walkWorkspaceTree,
} from "./tree.js";

/**
 * Extra roots shown with a tree at most. Each tree keeps its root and
 * top-level lines whatever its share of the line budget, so past a handful
 * of roots the trees would only grow the prompt; the others are still
 * listed by path (the `workspace_roots` section) and say why they have none.
 */
export const MAX_ROOT_TREES = 10;

/** One extra workspace root and its tree. */
export interface RootTree {
  /** The root, absolute, as given (a link to a folder is not resolved). */
  path: string;
  /** Its tree; null when it could not be shown (`problem` says why). */
  tree: BuiltWorkspaceTree | null;
  problem?: string;
  /** True for a root past the first {@link MAX_ROOT_TREES}: listed, never walked. */
  overCap?: boolean;
}

/** The working directory's tree and each extra root's, under one line budget. */
export interface BuiltWorkspace {
  /** The working directory's tree (its `agentsMd` is the tree's own, before the shared cap). */
  tree: BuiltWorkspaceTree;
  /** The extra roots in the order given, each with its tree. */
  roots: RootTree[];
  /** AGENTS.md files in folders 1 to 4 deep below the working directory, relative POSIX paths, sorted. */
  agentsMd: string[];
  /** The same in the extra roots, absolute POSIX paths, by root then path. */
  rootAgentsMd: string[];
  /** AGENTS.md files found beyond the {@link MAX_AGENTS_MD} that both lists hold together. */
  agentsMdOmitted: number;
  /** Context files of every tree left out of both lists as links the door does not follow (each tree's `agentsMdLeftOut`). */
  agentsMdLeftOut: number;
}

/**
 * The tree of the working directory `cwd` and of each extra root, as
 * {@link buildWorkspaceTree} builds one, within ONE line budget
 * (`maxLines`, default 120, for all the trees together). The budget is split
 * fairly (max-min): every tree is offered an equal share; a tree that needs
 * fewer lines than its share keeps only what it needs and the rest is shared
 * again among the others; what an uneven division leaves over goes to the
 * first tree still wanting lines (the working directory's, unless it fits).
 * A cut tree is cut as one tree is (deepest lines first), and each tree keeps
 * its root and top-level lines, so many wide roots may pass the budget.
 *
 * A root's root line is its absolute path, so the model can tell the trees
 * apart and name files by absolute path. Each root is walked as cwd is: no
 * link below it is followed, the same caps. A root that is not a folder by
 * the time it is walked (gone, a file, a dangling link) gets no tree and a
 * `problem`; the other trees are unaffected. Only the first
 * {@link MAX_ROOT_TREES} roots get a tree. A problem with `cwd` itself, a
 * bad limit or the signal throws, as for {@link buildWorkspaceTree}.
 */
export async function buildWorkspaceTrees(
  cwd: string,
  roots: readonly string[],
  options: WorkspaceTreeOptions = {},
): Promise<BuiltWorkspace> {
  if (options.signal === undefined) {
    const signal = AbortSignal.timeout(DEFAULT_DEADLINE_MS);
    return buildWorkspaceTrees(cwd, roots, { ...options, signal });
  }
  const shown = roots.slice(0, MAX_ROOT_TREES);
  // One cache for all the walks, saved once they are all done, or cut short
  // (the signal): then what was listed is kept for the next walk.
  const cache = options.cache ? openListingCache(options.cache, cacheNames(options)) : undefined;
  const walks = Promise.all([
    walkWorkspaceTree(cwd, options, undefined, cache),
    ...shown.map((root) => walkRoot(root, options, cache)),
  ]);
  const [main, ...walked] = await walks.catch((error: unknown) => {
    cache?.save({ partial: true });
    throw error;
  });
  cache?.save();
  const total = main.limits.maxLines ?? DEFAULT_TREE_LINES;
  const trees: (WalkedTree | null)[] = [
    main,
    ...walked.map((w) => ("walked" in w ? w.walked : null)),
  ];
  // Each tree laid out with the whole budget first: how many lines it wants.
  const full = await Promise.all(trees.map((w) => (w ? layOutWorkspaceTree(w, total) : null)));
  const wants = full.map((f) =>
    f === null ? 0 : f.cut ? Number.POSITIVE_INFINITY : f.tree.lines.length,
  );
  const shares = fairShares(wants, total);
  const laid = await Promise.all(
    full.map(async (f, i) => {
      const w = trees[i];
      const share = shares[i] ?? total;
      if (!f || !w || f.tree.lines.length <= share) return f?.tree ?? null;
      return (await layOutWorkspaceTree(w, share)).tree;
    }),
  );
  const tree = laid[0] as BuiltWorkspaceTree;
  const rootTrees: RootTree[] = [
    ...shown.map((path, i) => {
      const w = walked[i];
      const built = laid[i + 1] ?? null;
      return w && "problem" in w ? { path, tree: null, problem: w.problem } : { path, tree: built };
    }),
    ...roots.slice(MAX_ROOT_TREES).map((path) => ({ path, tree: null, overCap: true })),
  ];
  return { tree, roots: rootTrees, ...listAgentsMd(cwd, tree, rootTrees) };
}

/**
 * Max-min fair shares of `total` lines for trees that want `wants` lines
 * (Infinity: more than the total). The remainder of an uneven split goes to
 * the first tree still open. Every share is at least 1.
 */
export function fairShares(wants: readonly number[], total: number): number[] {
  const shares = wants.map(() => 0);
  let open = wants.map((_, i) => i);
  let remaining = total;
  while (open.length > 0) {
    const fair = Math.floor(remaining / open.length);
    const met = open.filter((i) => (wants[i] ?? 0) <= fair);
    if (met.length === 0) {
      for (const i of open) shares[i] = Math.max(1, fair);
      const first = open[0] as number;
      shares[first] = Math.max(1, fair + remaining - fair * open.length);
      break;
    }
    for (const i of met) {
      shares[i] = Math.max(1, wants[i] ?? 0);
      remaining -= wants[i] ?? 0;
    }
    open = open.filter((i) => !met.includes(i));
  }
  return shares;
}

async function walkRoot(
  root: string,
  options: WorkspaceTreeOptions,
  cache: ListingCache | undefined,
): Promise<{ walked: WalkedTree } | { problem: string }> {
  // Checked here, not by the walk, to say what is wrong in words: the root
  // was a folder when the options were checked, and may not be any more.
  let isDir: boolean;
  try {
    isDir = (await stat(root)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    return {
      problem:
        code === "ENOENT" ? "there is no folder there (ENOENT)" : `it cannot be read (${code})`,
    };
  }
  if (!isDir) return { problem: "it is not a folder" };
  try {
    return { walked: await walkWorkspaceTree(root, options, toPosix(root), cache) };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const code = (error as { cause?: NodeJS.ErrnoException }).cause?.code ?? "unreadable";
    return { problem: `it could not be read (${code})` };
  }
}

/**
 * The AGENTS.md files of every tree, at most {@link MAX_AGENTS_MD} in all
 * (the shallowest below their own root; ties: cwd's first, then by root).
 * A folder's file is left out where it is a context file already (the
 * folder is cwd or a root) or another tree listed it (a root inside cwd).
 */
function listAgentsMd(
  cwd: string,
  tree: BuiltWorkspaceTree,
  roots: readonly RootTree[],
): Pick<BuiltWorkspace, "agentsMd" | "rootAgentsMd" | "agentsMdOmitted" | "agentsMdLeftOut"> {
  const base = toPosix(cwd);
  const own = new Set([base, ...roots.map((r) => toPosix(r.path))]);
  const folderOf = (abs: string) => abs.slice(0, abs.lastIndexOf("/")) || "/";
  const under = (rootPath: string, rel: string) =>
    rootPath.endsWith("/") ? rootPath + rel : `${rootPath}/${rel}`;
  const seen = new Set<string>();
  const found: { abs: string; shown: string; depth: number; tree: number }[] = [];
  const add = (rootPath: string, rels: readonly string[], index: number, absolute: boolean) => {
    for (const rel of rels) {
      const abs = under(rootPath, rel);
      if (seen.has(abs) || own.has(folderOf(abs))) continue;
      seen.add(abs);
      found.push({ abs, shown: absolute ? abs : rel, depth: rel.split("/").length, tree: index });
    }
  };
  add(base, tree.agentsMd, 0, false);
  roots.forEach((r, i) => {
    if (r.tree) add(toPosix(r.path), r.tree.agentsMd, i + 1, true);
  });
  let omitted =
    tree.agentsMdOmitted + roots.reduce((n, r) => n + (r.tree?.agentsMdOmitted ?? 0), 0);
  let kept = found;
  if (found.length > MAX_AGENTS_MD) {
    kept = [...found]
      .sort((a, b) => a.depth - b.depth || a.tree - b.tree || byCode(a.abs, b.abs))
      .slice(0, MAX_AGENTS_MD);
    omitted += found.length - MAX_AGENTS_MD;
  }
  const keep = new Set(kept);
  // Display order: each tree's own (sorted) order, cwd's first.
  const inOrder = found.filter((f) => keep.has(f));
  return {
    agentsMd: inOrder.filter((f) => f.tree === 0).map((f) => f.shown),
    rootAgentsMd: inOrder.filter((f) => f.tree > 0).map((f) => f.shown),
    agentsMdOmitted: omitted,
    agentsMdLeftOut: [tree, ...roots.map((r) => r.tree)].reduce(
      (n, t) => n + (t?.agentsMdLeftOut?.length ?? 0),
      0,
    ),
  };
}

function byCode(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What the trees have to say ({@link treeDiagnostics} for each, with its own
 * root), one note when the AGENTS.md lists are cut short, and a warning for
 * each root shown without a tree.
 */
export function workspaceDiagnostics(built: BuiltWorkspace, cwd: string): Diagnostic[] {
  // The working directory alone: its tree's own diagnostics, as they always were.
  if (built.roots.length === 0) return treeDiagnostics(built.tree, cwd);
  const quiet = (tree: BuiltWorkspaceTree) => ({ ...tree, agentsMdOmitted: 0 });
  const out: Diagnostic[] = [...treeDiagnostics(quiet(built.tree), cwd)];
  for (const root of built.roots) {
    if (root.tree) pushAll(out, treeDiagnostics(quiet(root.tree), root.path));
  }
  if (built.agentsMdOmitted > 0) {
    const listed = built.agentsMd.length + built.rootAgentsMd.length;
    out.push({
      level: "info",
      code: "agents-md-limit",
      message: `${listed + built.agentsMdOmitted} context files (AGENTS.md, CLAUDE.md, GEMINI.md…) in the folders below the working directory and the other workspace roots: the ${listed} shallowest are listed, and the prompt says the list is cut short`,
    });
  }
  const overCap = built.roots.filter((r) => r.overCap);
  const [first] = overCap;
  if (first !== undefined) {
    out.push({
      level: "info",
      code: "tree-roots-limit",
      message: `${built.roots.length} workspace roots: the first ${MAX_ROOT_TREES} are shown with a tree, the other ${overCap.length} by path alone`,
      path: first.path,
    });
  }
  for (const root of built.roots) {
    if (root.problem === undefined) continue;
    out.push({
      level: "warning",
      code: "tree-root-unreadable",
      message: `the workspace tree shows no tree for this workspace root: ${root.problem}`,
      path: root.path,
    });
  }
  return out;
}
