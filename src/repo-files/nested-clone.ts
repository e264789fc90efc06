import { basename, dirname, join } from "node:path";
import { statOrUndefinedSync } from "../_io.js";
import { isWithin } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import {
  coreWorktreeSync,
  gitDirNamedSync,
  isGitFolder,
  isGitFolderSync,
  namesBack,
} from "./git-file.js";
import { gitFolders, holdsGit } from "./project-root.js";

/**
 * The repository of its own that a real path inside a reach's real root lies
 * in (its folder's real path), or undefined: see {@link nestedClones}.
 */
export type NestedCheck = (real: string) => Promise<string | undefined>;

/**
 * The repositories below `realRoot` that are not part of it: a folder with a
 * `.git` of its own (a clone made inside the project, as a framework's
 * `plugins/` folder asks) whose git folder does not lie inside the root's
 * (a submodule's `.git/modules/…`, a worktree's `.git/worktrees/…`), and a
 * folder that is itself a git folder ({@link isGitFolder}: a bare clone,
 * `plugins/mine.git`, whose `config` holds your remote URL) unless it is
 * the root's own `.git` folder or a submodule's or worktree's git folder in
 * it. The check walks up from the path's folder to the root, one `lstat` of
 * `.git` and one of `HEAD` a folder, each folder's verdict kept for the
 * checker's life: nothing below the root is listed. A root with no `.git`
 * (a tarball) holds no repository as its part.
 */
export function nestedClones(realRoot: string): NestedCheck {
  const verdicts = new Map<string, Promise<string | undefined>>();
  let rootGit: Promise<string[]> | undefined;
  const of = (dir: string): Promise<string | undefined> => {
    if (dir === realRoot || !isWithin(dir, realRoot)) return Promise.resolve(undefined);
    let verdict = verdicts.get(dir);
    if (verdict === undefined) {
      verdict = (async () => {
        if (await holdsGit(dir)) {
          rootGit ??= rootParts(realRoot);
          if (!partOf(dir, await gitFolders(dir), await rootGit)) return dir;
        } else if ((await isGitFolder(dir)) && !inOwnGitFolder(dir, realRoot)) {
          return dir;
        }
        return of(dirname(dir));
      })();
      verdicts.set(dir, verdict);
    }
    return verdict;
  };
  return (real) => of(dirname(real));
}

/** Synchronous twin of {@link nestedClones}, one path at a time, for the door's synchronous reads. */
export function nestedCloneSync(real: string, realRoot: string): string | undefined {
  let rootGit: string[] | undefined;
  for (let dir = dirname(real); dir !== realRoot && isWithin(dir, realRoot); dir = dirname(dir)) {
    if (statOrUndefinedSync(join(dir, ".git"), false) === undefined) {
      if (isGitFolderSync(dir) && !inOwnGitFolder(dir, realRoot)) return dir;
      continue;
    }
    rootGit ??= rootPartsSync(realRoot);
    if (!partOf(dir, gitFoldersSync(dir), rootGit)) return dir;
  }
  return undefined;
}

/**
 * Whether the git folder `dir` (below `realRoot`) is the root's own `.git`
 * folder, or a submodule's or worktree's git folder in it (`.git/modules/…`,
 * `.git/worktrees/…`). A git folder anywhere else in the tree is not the
 * root's.
 */
function inOwnGitFolder(dir: string, realRoot: string): boolean {
  const own = join(realRoot, ".git");
  const inside = ["modules", "worktrees"].some((part) => isWithin(dir, join(own, part)));
  if (dir !== own && !inside) return false;
  return statOrUndefinedSync(own, false)?.isDirectory() === true;
}

/**
 * The git folders of `realRoot` that may hold its parts: its own `.git`
 * folder, or the git folder its `.git` file or link names when that folder
 * names the root back ({@link namesBack}: a worktree's `gitdir` file, a
 * submodule's `core.worktree`). A `.git` file or link a repository wrote
 * itself (`gitdir: /home`, a link to your clone's `.git`) names a folder
 * that does not name it back, and holds nothing as its part: your worktree
 * or clone placed inside such a tree stays your own. A git folder that names
 * no work tree and is no other's ({@link standalone}: `git init
 * --separate-git-dir`'s, a `.git` link to a git folder kept elsewhere, as
 * the repo tool makes) holds its submodules' (`modules/…`) alone: nothing
 * in it says which work tree is its own, so a worktree of it placed in a
 * tree whose `.git` names it is not that tree's.
 */
async function rootParts(realRoot: string): Promise<string[]> {
  const dotGit = join(realRoot, ".git");
  if (statOrUndefinedSync(dotGit, false)?.isDirectory()) return gitFolders(realRoot);
  return partsNamed(await gitFolders(realRoot), dotGit, realRoot);
}

/** Synchronous twin of {@link rootParts}. */
function rootPartsSync(realRoot: string): string[] {
  const dotGit = join(realRoot, ".git");
  const folders = gitFoldersSync(realRoot);
  if (statOrUndefinedSync(dotGit, false)?.isDirectory()) return folders;
  return partsNamed(folders, dotGit, realRoot);
}

/** {@link rootParts} of a root whose `.git` (a file or a link) names `folders`. */
function partsNamed(folders: string[], dotGit: string, realRoot: string): string[] {
  if (folders.some((f) => namesBack(f, dotGit))) return folders;
  return standalone(folders, realRoot) ? folders.map((f) => join(f, "modules")) : [];
}

/**
 * Whether the git folder a root's `.git` names (`folders`: as written and by
 * real path) belongs to no other work tree: a git folder outside the root,
 * not the `.git` of another folder (your clone's), not a worktree's admin
 * folder (a `gitdir` or `commondir` file in it), and with no `core.worktree`
 * (a submodule's names its own work tree: {@link namesBack}).
 */
function standalone(folders: readonly string[], realRoot: string): boolean {
  const real = folders.at(-1);
  if (real === undefined || !isGitFolderSync(real)) return false;
  // The root's own `.git` link, as the synchronous reader names it, is not the folder it leads to.
  const named = folders.filter((f) => f !== join(realRoot, ".git"));
  if (named.some((f) => basename(f) === ".git" || isWithin(f, realRoot))) return false;
  const admin = ["gitdir", "commondir"].some((n) => statOrUndefinedSync(join(real, n), false));
  return !admin && coreWorktreeSync(real) === null;
}

/**
 * Whether the repository at `dir` is part of the one whose git folders are
 * `around`: its own git folder lies strictly inside one of them, and `dir`
 * itself does not (a root whose `.git` names `plugins/` or `/` holds no
 * repository by that).
 */
function partOf(dir: string, own: readonly string[], around: readonly string[]): boolean {
  return around.some((o) => !isWithin(dir, o) && own.some((d) => d !== o && isWithin(d, o)));
}

/** The git folder `root`'s `.git` names, as written and by real path, read synchronously. */
function gitFoldersSync(root: string): string[] {
  const named = gitDirNamedSync(join(root, ".git"), root);
  if (named === undefined) return [];
  try {
    const real = realpathSyncLinear(named);
    return real === named ? [named] : [named, real];
  } catch {
    return [named];
  }
}
