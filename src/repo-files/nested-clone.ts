import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { statOrUndefinedSync } from "../_io.js";
import { isWithin } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import {
  coreBareSync,
  coreWorktreeSync,
  gitDirNamedSync,
  isGitFolder,
  isGitFolderSync,
  namesBack,
  pathLineSync,
  samePath,
} from "./git-file.js";
import { gitFolders, holdsGit, holdsOtherClone, holdsOtherCloneSync } from "./project-root.js";

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
 * `plugins/mine.git`, whose `config` holds your remote URL), whatever else
 * it holds, unless it is the root's own `.git` folder or a submodule's or
 * worktree's git folder in it ({@link inOwnGitFolder}), and the top of a
 * working copy of another version-control system ({@link holdsOtherClone}: a
 * Mercurial, Jujutsu or Subversion clone, which no root's `.git` makes its
 * part). The check walks up from the path's folder to the root, one `lstat`
 * of `.git`, one of `HEAD` and one of each other kind's folder a folder,
 * each folder's verdict kept for the checker's life: nothing below the root
 * is listed. A root with no `.git` (a tarball) holds no repository as its
 * part.
 */
export function nestedClones(realRoot: string): NestedCheck {
  const verdicts = new Map<string, Promise<string | undefined>>();
  let rootGit: Promise<RootParts> | undefined;
  const of = (dir: string): Promise<string | undefined> => {
    if (dir === realRoot || !isWithin(dir, realRoot)) return Promise.resolve(undefined);
    let verdict = verdicts.get(dir);
    if (verdict === undefined) {
      verdict = (async () => {
        if (await holdsGit(dir)) {
          rootGit ??= rootParts(realRoot);
          if (!partOf(dir, await gitFolders(dir), await rootGit)) return dir;
        }
        // A git folder is a repository of its own whatever else it holds (a `.git` placed in it).
        if ((await isGitFolder(dir)) && !inOwnGitFolder(dir, realRoot)) return dir;
        if (await holdsOtherClone(dir)) return dir;
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
  let rootGit: RootParts | undefined;
  for (let dir = dirname(real); dir !== realRoot && isWithin(dir, realRoot); dir = dirname(dir)) {
    if (statOrUndefinedSync(join(dir, ".git"), false) !== undefined) {
      rootGit ??= rootPartsSync(realRoot);
      if (!partOf(dir, gitFoldersSync(dir), rootGit)) return dir;
    }
    if (isGitFolderSync(dir) && !inOwnGitFolder(dir, realRoot)) return dir;
    if (holdsOtherCloneSync(dir)) return dir;
  }
  return undefined;
}

/**
 * Whether the git folder `dir` (below `realRoot`) is the root's own `.git`
 * folder, or a submodule's or worktree's git folder in it that says so the
 * way git writes one ({@link madeByGit}). A git folder anywhere else in the
 * tree is not the root's, nor one that merely lies in `.git/modules` or
 * `.git/worktrees` (your bare clone made through a link the tree ships,
 * `plugins -> .git/modules`).
 */
function inOwnGitFolder(dir: string, realRoot: string): boolean {
  const own = join(realRoot, ".git");
  const inside = ["modules", "worktrees"].some((part) => isWithin(dir, join(own, part)));
  if (dir !== own && !inside) return false;
  if (statOrUndefinedSync(own, false)?.isDirectory() !== true) return false;
  return dir === own || madeByGit(dir, realRoot);
}

/**
 * Whether the git folder `dir` inside the root's `.git` names back a work
 * tree as git writes it: a worktree's admin folder (`…/worktrees/<name>`)
 * whose `commondir` names the git folder it sits in and whose `gitdir` names
 * a `.git` that names it ({@link namesBack}); any other, a submodule's,
 * not bare, whose `core.worktree` names a folder inside the root whose
 * `.git` names it. A bare repository has neither.
 */
function madeByGit(dir: string, realRoot: string): boolean {
  const leadsHere = (dotGit: string) => {
    const named = gitDirNamedSync(dotGit, dirname(dotGit));
    return named !== undefined && samePath(named, dir);
  };
  if (basename(dirname(dir)) === "worktrees") {
    const common = pathLineSync(join(dir, "commondir"));
    const back = pathLineSync(join(dir, "gitdir"));
    if (common === undefined || back === undefined) return false;
    if (!samePath(resolve(dir, common), dirname(dirname(dir)))) return false;
    const dotGit = resolve(dir, back);
    return namesBack(dir, dotGit) && leadsHere(dotGit);
  }
  const tree = coreWorktreeSync(dir);
  if (typeof tree !== "string" || tree === "unsure" || coreBareSync(dir) !== false) return false;
  const work = resolve(dir, tree);
  if (work === realRoot || !isWithin(work, realRoot)) return false;
  return namesBack(dir, join(work, ".git")) && leadsHere(join(work, ".git"));
}

/** The git folders whose parts are the root's ({@link partOf}); `submodulesOnly`: only their submodules' git folders. */
type RootParts = { folders: readonly string[]; submodulesOnly: boolean };

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
async function rootParts(realRoot: string): Promise<RootParts> {
  const dotGit = join(realRoot, ".git");
  if (statOrUndefinedSync(dotGit, false)?.isDirectory()) {
    return { folders: await gitFolders(realRoot), submodulesOnly: false };
  }
  return partsNamed(await gitFolders(realRoot), dotGit, realRoot);
}

/** Synchronous twin of {@link rootParts}. */
function rootPartsSync(realRoot: string): RootParts {
  const dotGit = join(realRoot, ".git");
  const folders = gitFoldersSync(realRoot);
  if (statOrUndefinedSync(dotGit, false)?.isDirectory()) return { folders, submodulesOnly: false };
  return partsNamed(folders, dotGit, realRoot);
}

/** {@link rootParts} of a root whose `.git` (a file or a link) names `folders`. */
function partsNamed(folders: string[], dotGit: string, realRoot: string): RootParts {
  if (folders.some((f) => namesBack(f, dotGit))) return { folders, submodulesOnly: false };
  if (!standalone(folders, realRoot)) return { folders: [], submodulesOnly: false };
  return { folders: folders.map((f) => join(f, "modules")), submodulesOnly: true };
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
 * Whether the repository at `dir` is part of the root whose parts are
 * `around`: its own git folder lies strictly inside one of them, and `dir`
 * itself does not (a root whose `.git` names `plugins/` or `/` holds no
 * repository by that). Of a standalone git folder's `modules/`, a
 * submodule's git folder alone: not a worktree's admin folder (a `gitdir`
 * or `commondir` file in it, or a `worktrees` step below `modules/`), which
 * a worktree of one of your submodules placed in the tree has.
 */
function partOf(dir: string, own: readonly string[], around: RootParts): boolean {
  const inside = (d: string, o: string) =>
    d !== o && isWithin(d, o) && (!around.submodulesOnly || submoduleFolder(d, o));
  return around.folders.some((o) => !isWithin(dir, o) && own.some((d) => inside(d, o)));
}

/** Whether `d`, inside a git folder's `modules/`, is a submodule's git folder, not a worktree's admin folder. */
function submoduleFolder(d: string, modules: string): boolean {
  if (relative(modules, d).split(sep).includes("worktrees")) return false;
  return !["gitdir", "commondir"].some((n) => statOrUndefinedSync(join(d, n), false));
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
