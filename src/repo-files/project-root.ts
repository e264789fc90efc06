import { dirname, join, sep } from "node:path";
import { lstatKindOrMissing, realpath } from "../_io.js";
import { isBelowCeiling, isWithin } from "../_paths.js";
import { gitDirNamed, namesBack } from "./git-file.js";

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
  // The kind alone: git adds entries to .git with every command, which must not look like a change.
  const kind = await lstatKindOrMissing(`${dir}${dir.endsWith(sep) ? "" : sep}.git`).catch(
    // A parent we may not search: no `.git` here either.
    () => undefined,
  );
  return kind !== undefined;
}

/**
 * The repository the one at `root` (a folder holding a `.git`) is part of:
 * while its git folder lies inside the git folder of the nearest repository
 * around it (a submodule's `.git` file into `p/.git/modules/…`, a worktree
 * made in `p/.git/worktrees/…`), that repository, outward; else `root`. A
 * nested clone (a `.git` folder of its own) and a worktree of a repository
 * elsewhere are their own. Compared as written and by real path; a `.git`
 * that cannot be read (a link, a file that names no folder) stops the walk.
 */
export async function owningRepository(root: string): Promise<string> {
  let inner = root;
  for (;;) {
    const up = dirname(inner);
    if (up === inner) return inner;
    const outer = await findProjectRoot(up);
    if (!(await holdsGit(outer)) || !(await gitFolderWithin(inner, outer))) return inner;
    inner = outer;
  }
}

/**
 * Whether the git folder of the repository at `root` lies inside that of the
 * repository at `other` (a submodule's, or a worktree's made from it,
 * wherever the worktree is), as written or by real path.
 */
export async function gitFolderWithin(root: string, other: string): Promise<boolean> {
  const [own, around] = await Promise.all([gitFolders(root), gitFolders(other)]);
  return own.some((dir) => around.some((o) => dir !== o && isWithin(dir, o)));
}

/**
 * {@link gitFolderWithin}, when the git folder of `root` also names `root`
 * back ({@link namesBack}: a worktree's `gitdir` file, a submodule's
 * `core.worktree`), as git writes them: a repository at `root` made from the
 * one at `other`, wherever it lies. A `.git` a tree wrote itself (`gitdir:
 * ~/.git/modules/w`, a link to `~/.git/hooks`) does not make it one.
 */
export async function madeFrom(root: string, other: string): Promise<boolean> {
  if (!(await gitFolderWithin(root, other))) return false;
  return (await gitFolders(root)).some((dir) => namesBack(dir, join(root, ".git")));
}

/** The git folder `root`'s `.git` names, as written and by real path; none when it names none. */
export async function gitFolders(root: string): Promise<string[]> {
  const named = await gitDirNamed(join(root, ".git"), root);
  if (!named.ok) return [];
  const real = await realpath(named.path).catch(() => named.path);
  return real === named.path ? [named.path] : [named.path, real];
}
