import { dirname, isAbsolute, join, parse, resolve, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { lstatKindOrMissing, readlink } from "../_io.js";
import { isWithin, toPosix } from "../_paths.js";
import { isGitFolder } from "./git-file.js";
import { holdsRepository } from "./project-root.js";
import type { Refusal } from "./reach.js";

/**
 * Whether `dir` is a repository's root: a repository's top
 * ({@link holdsRepository}: a `.git` entry, or a Mercurial, Jujutsu or
 * Subversion working copy), or a git folder itself (a bare clone). The one
 * "is a repository here" test of {@link heldLinks}.
 */
export async function isRepositoryRoot(dir: string): Promise<boolean> {
  return (await holdsRepository(dir)) || (await isGitFolder(dir));
}

/** A link met on a path's way that lies in a repository not the user's own and leads out of it. */
export interface LinkOut {
  kind: "link-out";
  /** The link, spelled under its real folder. */
  link: string;
  /** The names after the link on the path's way. */
  rest: string[];
  /** The real root of the repository the link lies in. */
  repository: string;
  /** Where the link leads (its real path, or as written when it leads nowhere). */
  leads: string;
}

/** The path walked to its end: its real path (the missing names kept as written) and the repository it lies in, if one not the user's own. */
export interface HeldEnd {
  kind: "end";
  real: string;
  repository?: string;
  /** The real folders of the links followed on the way, in order. */
  linksIn: string[];
}

/** The walk of {@link heldLinks}. */
export type HeldWalk = (path: string) => Promise<LinkOut | HeldEnd>;

/** The door's refusal of a path whose way meets another repository's link out of it ({@link LinkOut}). */
export function linkOutRefusal(out: LinkOut): Refusal {
  return {
    reason: "outside",
    code: "file-outside-project",
    message: `it leads through ${toPosix(out.link)}, a link of the repository ${toPosix(out.repository)}, to ${toPosix(out.leads)}, out of that repository, and a repository's link (one not of your home's or working folder's repository) leads only within it; name the file itself`,
  };
}

/** Links followed on one path before the walk gives up (as the kernel's ELOOP). */
const MAX_LINKS = 40;

/**
 * The rule "a link that lies inside a repository leads only within that
 * repository, when it is not your own", for a path the user names (or an
 * import of a file of theirs): the path is walked link by link, and each
 * link met is judged in the innermost repository that holds its REAL folder
 * (a folder holding `.git`, or a git folder: {@link isRepositoryRoot}). A
 * repository is the user's own when it holds one of the folders in `own`
 * (the working folder, whose project keeps its own rules, and the home
 * folder: a dotfiles repository; all real paths), and the links of a folder
 * outside any repository are the user's (`~/kit -> ~/src/prompt-kit`); any
 * other repository's link (a prompt kit's committed `base.md ->
 * ../.ssh/id_rsa`, reached through your link to it, to its subfolder, to its
 * file, or inside your project) that leads out of it is returned. Otherwise
 * the real path it ends at, with the repository not the user's own that
 * holds it (whose door reads it). Each folder's repository is looked up once
 * per checker.
 */
export function heldLinks(own: readonly string[]): HeldWalk {
  const roots = new Map<string, Promise<string | undefined>>();
  // The innermost repository holding the real folder `dir` (a git folder inside a `.git`: its work tree's).
  const innermost = (dir: string): Promise<string | undefined> => {
    let found = roots.get(dir);
    if (found === undefined) {
      found = (async () => {
        if (await isRepositoryRoot(dir)) return ownerOfGitFolder(dir);
        const up = dirname(dir);
        return up === dir ? undefined : innermost(up);
      })();
      roots.set(dir, found);
    }
    return found;
  };
  const notOwn = async (dir: string) => {
    const repository = await innermost(dir);
    if (repository === undefined || own.some((o) => isWithin(o, repository))) return undefined;
    return repository;
  };
  // The walk's end: `real`, in the real folder `folder` (itself, or the deepest one that exists).
  const end = async (folder: string, real: string, linksIn: string[]): Promise<HeldEnd> => {
    const repository = await notOwn(folder);
    return repository === undefined
      ? { kind: "end", real, linksIn }
      : { kind: "end", real, repository, linksIn };
  };
  return async (path) => {
    const file = resolve(path);
    let current = parse(file).root;
    let names = namesOf(file);
    const linksIn: string[] = [];
    while (names.length > 0) {
      const [name, ...rest] = names;
      names = rest;
      if (name === undefined || name === ".") continue;
      if (name === "..") {
        current = dirname(current);
        continue;
      }
      const next = join(current, name);
      const kind = await lstatKindOrMissing(next).catch(() => undefined);
      if (kind === undefined) return end(current, join(next, ...names), linksIn); // missing: made below
      if (kind !== "link") {
        current = next;
        continue;
      }
      if (linksIn.length >= MAX_LINKS) return end(current, join(next, ...names), linksIn);
      let target: string;
      try {
        target = await readlink(next);
      } catch {
        return end(current, join(next, ...names), linksIn);
      }
      const repository = await notOwn(current);
      if (repository !== undefined) {
        const leads = await realpathOrSelf(resolve(current, target));
        if (!isWithin(leads, repository)) {
          return { kind: "link-out", link: next, rest: names, repository, leads };
        }
      }
      linksIn.push(current);
      if (isAbsolute(target)) current = parse(target).root;
      names = [...namesOf(target), ...names];
    }
    return end(current, current, linksIn);
  };
}

/** A git folder inside a `.git` folder (its submodules' and worktrees' too) is its work tree's; any other folder is itself. */
function ownerOfGitFolder(dir: string): string {
  const names = dir.split(sep);
  const at = names.indexOf(".git");
  return at > 0 ? names.slice(0, at).join(sep) || sep : dir;
}

/** The names of a path, none empty. */
function namesOf(path: string): string[] {
  return path
    .slice(parse(path).root.length)
    .split(/[\\/]/)
    .filter((n) => n !== "");
}
