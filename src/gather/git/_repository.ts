import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { lstat, readlink, realpath, stat } from "../../_io.js";
import { homeFolder, isBelowCeiling, isWithin } from "../../_paths.js";
import { readCappedText } from "../../repo-files/capped-read.js";
import {
  gitDirNamed,
  MAX_GITFILE_BYTES,
  namesBack,
  readPathFile,
} from "../../repo-files/git-file.js";
import type { Diagnostic } from "../../types.js";
import { type GitBudget, linkLeaving, MAX_GIT_ENTRIES, MAX_LOOSE_OBJECTS } from "./_links.js";

/** The repository the git section describes, every path real (links resolved). */
export interface Repository {
  /** The `.git` entry, as found (not resolved). */
  dotGit: string;
  /** The folder that holds `.git`: git's work tree. */
  top: string;
  /** Where the repository's own files are: `top/.git`, or where a `.git` file or link leads. */
  gitDir: string;
  /** Where its shared files are (refs, objects, config): a worktree's main `.git`, else `gitDir`. */
  commonDir: string;
}

export type Located =
  | { kind: "none" }
  | { kind: "found"; repository: Repository }
  | { kind: "refused"; diagnostic: Diagnostic };

export interface LocateOptions {
  /** No folder above this one is looked at for `.git` (as for the project root). */
  ceilingDir?: string;
  /** Real paths of git folders outside the project that the user allows (`gitDirs`). */
  allowed: readonly string[];
  /**
   * Aborted: the look stops between two file-system calls and the
   * repository is refused (`git-timeout`). A repository decides how long each
   * call takes (a link's target can be thousands of characters, each
   * resolution a walk of it), so only time bounds the look.
   */
  signal?: AbortSignal;
}

/** A submodule of a submodule of…: deeper than this is not followed. */
const MAX_SUPERPROJECTS = 16;

/** Which override lets a refused git folder be read, for the messages. */
const HOW_TO_ALLOW = "to read it anyway, allow that folder with --allow-git-dir (allowGitDirs)";

/**
 * The repository git would use from `cwd`, found as git finds it (the
 * nearest folder, `cwd` included, that holds a `.git` entry, none above the
 * ceiling), or why it is not used. A `.git` can be a folder, a link, or a
 * file `gitdir: <path>` (a linked worktree, a submodule, `git init
 * --separate-git-dir`): what it names is accepted only when it lies inside
 * the folder that holds `.git`, is a worktree whose admin folder links back
 * to this `.git`, is a submodule's folder inside the `.git` of the
 * repository around it, or is a folder the user allowed. Its `commondir`
 * and every link among its files must stay inside the same places. Anything
 * else would put another repository's branches and commits in the prompt.
 */
export async function locateRepository(cwd: string, options: LocateOptions): Promise<Located> {
  return locateFrom(cwd, options, 0, { left: MAX_GIT_ENTRIES, signal: options.signal });
}

async function locateFrom(
  start: string,
  options: LocateOptions,
  depth: number,
  budget: GitBudget,
): Promise<Located> {
  const dir = await nearestDotGit(start, options.ceilingDir);
  if (dir === undefined) return { kind: "none" };
  return resolveAt(dir, options, depth, budget);
}

async function nearestDotGit(start: string, ceiling: string | undefined) {
  for (let current = start; ; ) {
    const found = await lstat(join(current, ".git")).then(
      () => true,
      // Missing, or a parent we may not search: no `.git` here.
      () => false,
    );
    if (found) return current;
    const up = dirname(current);
    if (up === current || !isBelowCeiling(up, ceiling)) return undefined;
    current = up;
  }
}

/**
 * The git folders the `.git` in `dir` leads to, or why none may be used: the one test every
 * reader of a repository's git files applies (the git section, the exclude file the tree and the
 * door read). What a `.git` file, a link or a `commondir` names is accepted only when it lies
 * inside the folder holding `.git`, is a worktree whose admin folder links back to this `.git`
 * ({@link isWorktreeOf}), is a submodule's folder inside the git folder of the repository around
 * it (`outer`: that repository's folders, as the reader finds them) whose `core.worktree` names
 * this folder back (review rev102a F1), or is a folder the user allowed; where it leads is judged
 * before whether it exists (a missing folder outside is refused alike, rev102a F4); anything else (`gitdir: /home/you/priv/.git`) is another repository's, and no file in
 * it is read (review rev99a F7: the exclude file's reader resolved it on its own, with no test).
 */
export async function gitFoldersAt(
  dir: string,
  o: {
    allowed: readonly string[];
    outer: (up: string) => Promise<Repository | undefined>;
    budget?: GitBudget;
    /** How the reader lets a refused git folder be read, added to the refusal. */
    hint?: string;
  },
): Promise<Repository | Refusal | "late" | "too-many"> {
  const dotGit = join(dir, ".git");
  const refuse = (code: string, message: string, path = dotGit, line?: number): Refusal => ({
    refused: { code, message, path, ...(line !== undefined ? { line } : {}) },
  });
  const how = o.hint === undefined ? "" : ` (${o.hint})`;
  if (o.budget?.signal?.aborted) return "late";
  const top = await realpath(dir).catch(() => undefined);
  if (top === undefined) return refuse("git-gitfile", "the folder holding .git cannot be resolved");
  const allowed = (path: string) => o.allowed.some((a) => isWithin(path, a));
  const outside = (path: string, line?: number) =>
    refuse(
      "git-outside",
      `.git leads to ${shown(path)}, a git folder outside this project that is neither a worktree linking back here nor a submodule of the repository around it: its branches and commits are another repository's${how}`,
      dotGit,
      line,
    );
  // Where `.git` leads is judged before whether it exists: a missing folder outside the project
  // is refused as an existing one is, or each render tells whether any path exists (rev102a F4).
  const away = async (path: string) => {
    const place = await whereLeads(path, { left: MAX_LINK_HOPS });
    return isWithin(place, top) || allowed(place) ? undefined : place;
  };
  const named = await gitDirNamed(dotGit, dir);
  if (!named.ok) {
    const link = await lstat(dotGit).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    const place = link ? await away(dotGit) : undefined;
    if (place !== undefined) return outside(place);
    return refuse("git-gitfile", named.problem, dotGit, named.line);
  }
  const line = named.line;
  if (o.budget?.signal?.aborted) return "late";
  const gitDir = await realDir(named.path);
  if (gitDir === undefined) {
    const place = await away(named.path);
    if (place !== undefined) return outside(place, line);
    return refuse(
      "git-gitfile",
      `.git names ${shown(named.path)}, which is not a folder that can be read`,
      dotGit,
      line,
    );
  }
  if (!isWithin(gitDir, top) && !allowed(gitDir) && !isWorktreeOf(gitDir, top)) {
    const ok = await isSubmoduleOf(gitDir, dir, o.outer);
    if (!ok && o.budget !== undefined && o.budget.left <= 0) return "too-many";
    if (!ok && o.budget?.signal?.aborted) return "late";
    if (!ok) return outside(gitDir, line);
  }
  const common = await commonDirOf(gitDir);
  const sharedOutside = (path: string) =>
    refuse(
      "git-outside",
      `its commondir leads to ${shown(path)}, outside this project, and ${shown(gitDir)} is not one of its worktrees: the branches and commits there are another repository's${how}`,
      join(gitDir, "commondir"),
      1,
    );
  if (!common.ok) {
    // Likewise a missing `commondir` folder outside (rev102a F4).
    const place = common.named === undefined ? undefined : await away(common.named);
    if (place !== undefined) return sharedOutside(place);
    return refuse("git-gitfile", common.problem, join(gitDir, "commondir"), common.line);
  }
  const commonDir = common.path;
  if (o.budget?.signal?.aborted) return "late";
  const sharedWith = join(commonDir, "worktrees", basename(gitDir));
  if (
    commonDir !== gitDir &&
    sharedWith !== gitDir &&
    !isWithin(commonDir, top) &&
    !allowed(commonDir)
  ) {
    return sharedOutside(commonDir);
  }
  return { dotGit, top, gitDir, commonDir };
}

/** Why {@link gitFoldersAt} refused a `.git`: a diagnostic's code, words and place. */
export interface Refusal {
  refused: { code: string; message: string; path: string; line?: number };
}

async function resolveAt(
  dir: string,
  options: LocateOptions,
  depth: number,
  budget: GitBudget,
): Promise<Located> {
  const refuse = (code: string, message: string, path: string, line?: number): Located => ({
    kind: "refused",
    diagnostic: {
      level: "warning",
      code,
      message: `${message}; the git section is left out`,
      path,
      ...(line !== undefined ? { line } : {}),
    },
  });
  const late = () =>
    refuse(
      "git-timeout",
      "the repository's git files could not be checked for links leading out of it in the time given (each link is resolved, and a repository can make that slow)",
      join(dir, ".git"),
    );
  const tooMany = (path: string) =>
    refuse(
      "git-refused",
      `the repository's git files (refs, top-level files, alternates, the repositories around a submodule) are more than ${MAX_GIT_ENTRIES} entries, too many to check for links leading out of it (git pack-refs --all packs loose refs into one file)`,
      path,
    );
  const outer = async (up: string) => {
    if (depth >= MAX_SUPERPROJECTS || !isBelowCeiling(up, options.ceilingDir)) return undefined;
    const found = await locateFrom(up, options, depth + 1, budget);
    return found.kind === "found" ? found.repository : undefined;
  };
  const found = await gitFoldersAt(dir, {
    allowed: options.allowed,
    outer,
    budget,
    hint: HOW_TO_ALLOW,
  });
  if (found === "late") return late();
  if (found === "too-many") return tooMany(join(dir, ".git"));
  if ("refused" in found) {
    const r = found.refused;
    return refuse(r.code, r.message, r.path, r.line);
  }
  const { dotGit, top, gitDir, commonDir } = found;
  const roots = [top, gitDir, commonDir, ...options.allowed];
  const leaving = await linkLeaving([...new Set([gitDir, commonDir])], roots, budget);
  if (leaving.kind === "link") {
    return refuse(
      "git-outside",
      `a link among the repository's files leads to ${shown(leaving.target)}, outside this project and its git folders: git would read another repository's data through it (${HOW_TO_ALLOW})`,
      leaving.path,
    );
  }
  if (leaving.kind === "special") {
    return refuse(
      "git-refused",
      `it is ${leaving.what}, or a link to one, among the repository's files: git would wait on it or read it without end`,
      leaving.path,
    );
  }
  if (leaving.kind === "too-many" && leaving.loose) {
    return refuse(
      "git-refused",
      `the repository holds more than ${MAX_LOOSE_OBJECTS} loose objects, too many to check for links leading out of it (git gc packs them)`,
      join(commonDir, "objects"),
    );
  }
  if (leaving.kind === "too-many") return tooMany(join(commonDir, "refs"));
  if (leaving.kind === "late") return late();
  const objects = join(commonDir, "objects");
  const lent = await alternateLeaving(objects, roots, new Set(), 0, budget);
  if (lent === "too-many") return tooMany(join(objects, "info", "alternates"));
  if (lent === "late") return late();
  if (lent !== undefined) {
    return refuse(
      "git-outside",
      lent.target === undefined
        ? `its objects/info/alternates cannot be checked (${lent.problem}): git would read objects from where it names`
        : `its objects/info/alternates lends it the objects of ${shown(lent.target)}, outside this project and its git folders: git would read another repository's commits through it (${HOW_TO_ALLOW})`,
      lent.path,
    );
  }
  return { kind: "found", repository: { dotGit, top, gitDir, commonDir } };
}

const UNREADABLE = {
  missing: "it cannot be found",
  "not-file": "it is not a regular file",
  binary: "it holds NUL bytes",
  unreadable: "it cannot be read",
} as const;

/** How deep git follows alternates of alternates (its own limit). */
const MAX_ALTERNATE_DEPTH = 5;

/**
 * The first alternate object folder (`objects/info/alternates`, one path a
 * line, relative to the objects folder) that lies outside `roots`, followed
 * as git follows them; or a file that cannot be checked. Undefined: none,
 * or every one inside.
 */
async function alternateLeaving(
  objects: string,
  roots: readonly string[],
  seen: Set<string>,
  depth: number,
  budget: GitBudget,
): Promise<{ path: string; target?: string; problem?: string } | "too-many" | "late" | undefined> {
  const path = join(objects, "info", "alternates");
  const read = await readCappedText(path, MAX_GITFILE_BYTES);
  if (!read.ok && read.reason === "missing") return undefined;
  if (!read.ok) return { path, problem: UNREADABLE[read.reason] };
  if (read.omitted > 0) return { path, problem: `it is over ${MAX_GITFILE_BYTES} bytes` };
  for (const line of read.text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    if (--budget.left < 0) return "too-many";
    if (budget.signal?.aborted) return "late";
    // A quoted path is unquoted by git (C escapes): not modelled, so refused.
    if (line.startsWith('"')) return { path, problem: "it holds a quoted path" };
    const named = isAbsolute(line) ? resolve(line) : resolve(objects, line);
    const real = await realpath(named).catch(() => undefined);
    // git skips an alternate that does not exist.
    if (real === undefined) continue;
    if (!roots.some((r) => isWithin(real, r))) return { path, target: real };
    // Each folder once: a file of 1,000 lines naming one folder is not 1,000^5 reads.
    if (depth + 1 >= MAX_ALTERNATE_DEPTH || seen.has(real)) continue;
    seen.add(real);
    const deeper = await alternateLeaving(real, roots, seen, depth + 1, budget);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** How many links and folders {@link whereLeads} follows before it takes a path as written. */
const MAX_LINK_HOPS = 64;

/**
 * Where `path` leads, whether or not it exists: its real path, else the real path of the nearest
 * folder above it that exists with the rest of it joined on, a link on the way (one that leads
 * nowhere included) followed to where it points. Past `hops` steps, the path as written.
 */
async function whereLeads(path: string, hops: { left: number }): Promise<string> {
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined) return real;
  const up = dirname(path);
  if (up === path || --hops.left < 0) return path;
  const above = await whereLeads(up, hops);
  const link = await lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
  const target = link ? await readlink(path).catch(() => undefined) : undefined;
  if (target === undefined) return join(above, basename(path));
  return whereLeads(resolve(above, target), hops);
}

/** The real path of `path` when it is a folder. */
async function realDir(path: string): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return undefined;
  const s = await stat(real).catch(() => undefined);
  return s?.isDirectory() ? real : undefined;
}

/**
 * A linked worktree (`git worktree add`): its admin folder is
 * `<common>/worktrees/<name>`, and git keeps there a file `gitdir` naming
 * the worktree's `.git` file (relative to the admin folder with git 2.48's
 * `worktree.useRelativePaths`): only the repository that made the worktree
 * has that link back ({@link namesBack}, which the nested-repository check
 * shares).
 */
function isWorktreeOf(gitDir: string, top: string): boolean {
  return basename(dirname(gitDir)) === "worktrees" && namesBack(gitDir, join(top, ".git"));
}

/**
 * A submodule: its `.git` file names `<git folder of the repository
 * around it>/modules/<name>`, whose `config` names this folder as its
 * work tree. The repository around it is found (and checked) by `outer`,
 * from the folder above.
 */
async function isSubmoduleOf(
  gitDir: string,
  dir: string,
  outer: (up: string) => Promise<Repository | undefined>,
): Promise<boolean> {
  const up = dirname(dir);
  if (up === dir) return false;
  const around = await outer(up);
  if (around === undefined) return false;
  const { gitDir: outerGit, commonDir: outerCommon } = around;
  const inModules = [outerGit, outerCommon].some((d) =>
    gitDir.startsWith(join(d, "modules") + sep),
  );
  // Below `modules/` is not enough: any folder could name any submodule's git folder (your
  // dotfiles home's `~/.git/modules/.private`, review rev102a F1). Git writes where the
  // submodule's work tree is in its config (`core.worktree`): only that folder is its.
  return inModules && namesBack(gitDir, join(dir, ".git"));
}

/**
 * The `info/exclude` file git reads for the repository whose `.git` is in
 * `dir`, found as git finds it: in the git folder's common folder, which is
 * not `dir/.git` in a linked worktree (the main repository's `.git`) or a
 * submodule (`.git/modules/<name>` of the repository around it). Only the
 * `.git` file and `commondir` are read to find it, each a capped regular
 * file, never a link (as {@link locateRepository} reads them), and the git
 * folder they name must pass the git section's test ({@link gitFoldersAt}):
 * one outside the project that is no worktree linking back and no submodule
 * of the repository around it (`gitdir: /home/you/priv/.git`; a `git init
 * --separate-git-dir` clone too) is another repository's, its exclude file
 * no list of this project's: the refusal is given back, for the reader to
 * say (review rev99a F7: your own exclude file made the project's ignore
 * patterns, an oracle for your file names). `project`: the project a
 * repository of its own below its root lies in, whose folders are not out
 * of it. Undefined: no `.git` there, or one that names no folder.
 */
export async function gitExcludeFile(
  dir: string,
  project?: string,
  home?: string,
): Promise<string | Refusal | undefined> {
  const allowed = project === undefined ? [] : [await realpath(project).catch(() => project)];
  const yours = resolve(home ?? homeFolder());
  const homes = [yours, await realpath(yours).catch(() => yours)];
  const found = await ownGitFolders(dir, 0, allowed, homes);
  if (found === undefined) return undefined;
  // A `.git` that names no folder has no exclude file; one that names another repository's is said.
  if ("refused" in found) return found.refused.code === "git-outside" ? found : undefined;
  return join(found.commonDir, "info", "exclude");
}

/**
 * {@link gitFoldersAt} for a reader of git's own lists (no links checked; `allowed`: the real
 * folder of the project a nested repository lies in, whose bytes its git folder there is): the
 * repository around a submodule found the same way, from the nearest `.git` above it.
 */
async function ownGitFolders(
  dir: string,
  depth: number,
  allowed: readonly string[],
  homes: readonly string[],
): Promise<Repository | Refusal | undefined> {
  // From inside your home folder, not above it: the home folder is its ceiling (fx102c). A dotfiles
  // home is still the repository around its own submodule (rev102a), named back by it.
  const ceiling = homes.find((h) => isWithin(dir, h));
  const outer = async (up: string) => {
    if (depth >= MAX_SUPERPROJECTS || !isBelowCeiling(up, ceiling)) return undefined;
    const at = await nearestDotGit(up, ceiling);
    const around =
      at === undefined ? undefined : await ownGitFolders(at, depth + 1, allowed, homes);
    return around === undefined || "refused" in around ? undefined : around;
  };
  const found = await gitFoldersAt(dir, { allowed, outer });
  return typeof found === "string" ? undefined : found;
}

type Common =
  | { ok: true; path: string }
  /** `named`: the path `commondir` names when it is no folder that can be read. */
  | { ok: false; problem: string; line?: number; named?: string };

/** The folder a git folder's `commondir` file names (real path), or the git folder itself. */
async function commonDirOf(gitDir: string): Promise<Common> {
  const file = join(gitDir, "commondir");
  const present = await lstat(file).then(
    () => true,
    () => false,
  );
  if (!present) return { ok: true, path: gitDir };
  const read = await readPathFile(file, gitDir, { follow: false });
  if (!read.ok) return { ok: false, problem: `commondir not used: ${read.problem}`, line: 1 };
  const real = await realDir(read.path);
  if (real === undefined) {
    return {
      ok: false,
      problem: `commondir names ${shown(read.path)}, which is not a folder that can be read`,
      line: 1,
      named: read.path,
    };
  }
  return { ok: true, path: real };
}

/**
 * A path from the repository, for a message: raw, as every diagnostic holds
 * a name; its printer writes it one line, its literal `\u` marked there once
 * (review rev101e F4: written one line here, it was marked twice).
 */
function shown(path: string): string {
  return path;
}
