import { dirname, sep } from "node:path";
import { lstatOrMissing } from "../_io.js";
import { isBelowCeiling } from "../_paths.js";

/**
 * The project root of `dir`: its nearest ancestor (itself included) that holds
 * a `.git` entry (a folder, or the file of a worktree or submodule), else
 * `dir` itself. `dir` must be absolute. With `ceiling` (a folder at or above
 * `dir`), no folder above it is looked at, as git's GIT_CEILING_DIRECTORIES.
 */
export async function findProjectRoot(dir: string, ceiling?: string): Promise<string> {
  let current = dir;
  for (;;) {
    if (await holdsGit(current)) return current;
    const up = dirname(current);
    if (up === current || !isBelowCeiling(up, ceiling)) return dir;
    current = up;
  }
}

/** True when `dir` holds a `.git` entry of any kind. */
export async function holdsGit(dir: string): Promise<boolean> {
  try {
    return (await lstatOrMissing(`${dir}${dir.endsWith(sep) ? "" : sep}.git`)) !== undefined;
  } catch {
    // Missing, or a parent we may not search: either way no `.git` here.
    return false;
  }
}
