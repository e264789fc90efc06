import { dirname, isAbsolute, relative, sep } from "node:path";
import { lstat } from "../_io.js";

/**
 * The project root of `dir`: its nearest ancestor (itself included) that holds
 * a `.git` entry (a folder, or the file of a worktree or submodule), else
 * `dir` itself. `dir` must be absolute. With `ceiling` (a folder at or above
 * `dir`), no folder above it is looked at, as git's GIT_CEILING_DIRECTORIES.
 */
export async function findProjectRoot(dir: string, ceiling?: string): Promise<string> {
  let current = dir;
  for (;;) {
    if (await exists(`${current}${current.endsWith(sep) ? "" : sep}.git`)) return current;
    const up = dirname(current);
    if (up === current || !isBelowCeiling(up, ceiling)) return dir;
    current = up;
  }
}

/** True when `ceiling` is not given, or `path` is at or below it. */
export function isBelowCeiling(path: string, ceiling: string | undefined): boolean {
  return ceiling === undefined || isWithin(path, ceiling);
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    // Missing, or a parent we may not search: either way no `.git` here.
    return false;
  }
}

/** True when `path` is `folder` or lies below it (compared as written; resolve links first). */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  if (rel === "") return true;
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
