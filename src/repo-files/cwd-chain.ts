import { basename, dirname, sep } from "node:path";
import { pushAll } from "../_arrays.js";
import { realpathOrSelf } from "../_fs.js";
import { lstatKind } from "../_io.js";
import { checkpoint } from "../_pace.js";
import { toPosix } from "../_paths.js";
import type { Diagnostic } from "../types.js";
import { holdsProjectRoot, type RefusedRootMarker } from "./project-root.js";

/**
 * Most folders below a project root, down to cwd, whose files the context,
 * rule and skills steps look at, and most folders one touched path is
 * searched in: the nearest ones to cwd are kept. Each look-up on a folder
 * walks its whole path in the kernel, so a cwd 1,000 folders deep (2 KB
 * paths, under PATH_MAX) would cost each step a million path steps.
 */
export const MAX_CHAIN_FOLDERS = 256;

/**
 * `chain` (a folder and its ancestors, outermost first, as `ancestorsOf`
 * gives them) with at most {@link MAX_CHAIN_FOLDERS} folders below `root`:
 * the root and the folders above it are kept, then the nearest ones to the
 * chain's last folder. `skipped` counts the folders left out, just below the
 * root. A `root` outside the chain keeps the chain's last folders.
 */
export function capChain(
  chain: readonly string[],
  root: string,
): { folders: string[]; skipped: number } {
  const top = chain.indexOf(root) + 1;
  const below = chain.length - top;
  if (below <= MAX_CHAIN_FOLDERS) return { folders: [...chain], skipped: 0 };
  const skipped = below - MAX_CHAIN_FOLDERS;
  return { folders: [...chain.slice(0, top), ...chain.slice(top + skipped)], skipped };
}

/** The warning of a chain cut by {@link capChain}: it names cwd, the root and what was not looked at. */
export function chainCutDiagnostic(
  cwd: string,
  root: string,
  skipped: number,
  what: string,
): Diagnostic {
  return {
    level: "warning",
    code: "cwd-too-deep",
    message: `cwd is ${skipped + MAX_CHAIN_FOLDERS} folders below the project root ${toPosix(root)}: ${what} are looked for in the ${MAX_CHAIN_FOLDERS} nearest cwd only; the ${skipped} folders just below the root were not looked at`,
    path: toPosix(cwd),
  };
}

/** One folder of a chain, with its project root and its real path. */
export interface ChainFolder {
  dir: string;
  /** Its project root, as `findProjectRoot` finds it. */
  root: string;
  /** Its real path. */
  real: string;
}

/**
 * For each folder of `folders` (a chain outermost first, as {@link capChain}
 * leaves it: from `/` or the ceiling down, maybe with a gap below a root),
 * its project root and real path, answered top-down with two look-ups a
 * folder: `findProjectRoot` and `realpath` on each folder would walk the
 * chain again from it. A gap holds no repository's top (it lies between a
 * folder and its nearest root); below one, the next real path is asked once.
 * With `refused`, a marker passed over is added to it when a folder of the
 * chain below it is no root of its own, whose root it then changes (one
 * with a root of yours just below it changes none).
 */
export async function chainFolders(
  folders: readonly string[],
  signal?: AbortSignal,
  refused?: RefusedRootMarker[],
): Promise<ChainFolder[]> {
  const out: ChainFolder[] = [];
  let nearest: string | undefined;
  let parent: ChainFolder | undefined;
  let passed: RefusedRootMarker[] = [];
  for (const dir of folders) {
    await checkpoint(signal);
    const here: RefusedRootMarker[] = [];
    const isRoot = await holdsProjectRoot(dir, here);
    if (isRoot) nearest = dir;
    else if (refused !== undefined) pushAll(refused, passed);
    passed = here;
    const follows = parent !== undefined && dirname(dir) === parent.dir;
    // The kind alone (see lstatKind): the folder's times move with every entry added to it.
    const own = follows ? await lstatKind(dir).catch(() => undefined) : undefined;
    const real =
      parent !== undefined && own !== undefined && own !== "link"
        ? `${parent.real}${parent.real.endsWith(sep) ? "" : sep}${basename(dir)}`
        : await realpathOrSelf(dir);
    parent = { dir, root: nearest ?? dir, real };
    out.push(parent);
  }
  return out;
}
