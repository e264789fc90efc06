import { dirname, isAbsolute, relative, sep } from "node:path";
import { lstat } from "../_io.js";

/**
 * The project root of `dir`: its nearest ancestor (itself included) that holds
 * a `.git` entry (a folder, or the file of a worktree or submodule), else
 * `dir` itself. `dir` must be absolute.
 */
export async function findProjectRoot(dir: string): Promise<string> {
  let current = dir;
  for (;;) {
    if (await exists(`${current}${current.endsWith(sep) ? "" : sep}.git`)) return current;
    const up = dirname(current);
    if (up === current) return dir;
    current = up;
  }
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
