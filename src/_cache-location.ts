import { lstatSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { userInfo } from "node:os";
import { basename, dirname, join, relative, sep } from "node:path";
import { othersMayWrite } from "./_others-write.js";
import { homeFolder, isWithin, xdgFolder } from "./_paths.js";
import { realpathSyncLinear } from "./_realpath.js";
import { makeFolderPath, realFolder, writeTempFileSync } from "./_safe-write.js";
import { sharedOnTheWaySync } from "./_shared-way.js";
import { globalInstructionPlaces, placeHolds, samePathKey } from "./hook/snippet.js";
import { findProjectRootSync, holdsRepositorySync } from "./repo-files/project-root.js";

/**
 * Where one of sysprompt's cache files lives. `parents`: whether the folders
 * above the file may be created; false for a file in the agent dir, which is
 * never created (only its `cache/` folder is).
 */
export interface CacheLocation {
  path: string;
  parents: boolean;
}

/**
 * The cache file `name` (`env`, `tree`): `<agentDir>/cache/sysprompt-<name>.json`
 * when the user named an agent dir (`agentDir` here is that explicit one, or
 * undefined), else `$XDG_CACHE_HOME/sysprompt/<name>.json` when that is an
 * absolute path (the XDG spec ignores a relative one), else
 * `~/.cache/sysprompt/<name>.json`. A render on a machine without pi creates no `~/.pi`.
 */
export function cacheLocation(
  name: string,
  options: {
    agentDir?: string | undefined;
    env: Readonly<Record<string, string | undefined>>;
    home: string;
  },
): CacheLocation {
  if (options.agentDir !== undefined) {
    return { path: join(options.agentDir, "cache", `sysprompt-${name}.json`), parents: false };
  }
  return { path: join(cacheRoot(options.env, options.home), `${name}.json`), parents: true };
}

/**
 * A cache folder refused for what it is or where it lies: `message` says why,
 * then `advice`, its one way out when it has one. A caller that knows another
 * (`export --out`) adds it to this one (`advice, or …`), one that has none
 * adds its own only when `advice` is undefined, so no refusal says two
 * (review fx78a's leftover: `export` printed `set XDG_CACHE_HOME to a folder
 * of yours; pass --out with a path of yours`).
 */
export class CacheFolderRefused extends Error {
  constructor(
    why: string,
    readonly advice?: string,
  ) {
    super(advice === undefined ? why : `${why}: ${advice}`);
  }
}

/** The name of sysprompt's own folder in the cache folder. */
export const CACHE_FOLDER = "sysprompt";

/**
 * sysprompt's cache folder: `$XDG_CACHE_HOME/sysprompt` when that is an
 * absolute path (the XDG spec ignores a relative one), else
 * `~/.cache/sysprompt`.
 */
export function cacheRoot(env: Readonly<Record<string, string | undefined>>, home: string): string {
  return join(xdgFolder(env, "XDG_CACHE_HOME") ?? join(home, ".cache"), CACHE_FOLDER);
}

/**
 * Makes `folder` ready to write into: every folder from sysprompt's cache
 * folder (the `sysprompt` folder above `folder`, else `folder` itself) down to
 * it is created where missing (0700, with the folders above the cache folder),
 * and each must be a real folder of this user's, never a link. The cache
 * folder is where you named it, and a project can be there: `XDG_CACHE_HOME`
 * set to a folder in a checkout (as CI jobs do) made the project's
 * `.cache/sysprompt`, a link to `~/.ssh`, the place of `env.json`, `export/`
 * and the sandboxes. The folders above the cache folder are yours as named
 * (`~/.cache` may be a link). Returns the real path `folder` has when nothing
 * was swapped since (that of the folder above the cache folder, and the names
 * checked below it), for a write to check its file against. Throws an Error
 * naming the folder.
 */
export function readyCacheFolder(folder: string): string {
  const root = basename(dirname(folder)) === CACHE_FOLDER ? dirname(folder) : folder;
  // Nothing made below a folder others may write in; each made checked before anything is made in it.
  checkWayUp(folder);
  checkPlace(root);
  for (const at of root === folder ? [folder] : [root, folder]) {
    makeFolderPath(at, 0o700);
    checkOwnFolder(at);
  }
  return realFolder(folder, dirname(root));
}

/**
 * Throws unless no folder from `/` down to `folder` (each a look-up of its
 * path passes through, links followed: {@link sharedOnTheWaySync}, the PATH
 * search's and `export --out`'s walk) may be written by another user, or is
 * owned by one (neither you nor root): the cache folder of yours below a team's `root:team 2775`
 * share was taken, and a team member renamed `me/` away and put his own
 * `export/codex/…/instructions.md` at the path codex reads as its system
 * prompt, his `env.json` and session files at theirs (review rev71d F6).
 */
function checkWayUp(folder: string): void {
  // Another user's folder on the way is refused too, whatever its mode: its owner may rename
  // any entry in it (review rev77d F5), as the PATH search holds (rev71d F1).
  const shared = sharedOnTheWaySync(folder, { folder: "written", owners: true });
  if (shared !== undefined) {
    throw new CacheFolderRefused(
      `${shared}, on the way to sysprompt's cache folder ${folder}; sysprompt writes and reads its caches and export files only below folders no one else can write in or owns`,
      "set XDG_CACHE_HOME to a folder of yours",
    );
  }
}

/**
 * Throws unless sysprompt's cache folder `root` (as written) is in a place of
 * yours that no agent loads. When it lies in a project (the nearest repository
 * top above it, as the door finds one; your home folder kept in git is none
 * here: `~/.cache` is yours as named), every folder from the project's root
 * down to it must be a real folder, never a link, as `-o` holds the way in a
 * project: the project names those folders, and a checkout shipping `.cache`
 * as a link to `~/Documents/Cline/Rules`, with `XDG_CACHE_HOME` set to
 * `$CI_PROJECT_DIR/.cache` as CI jobs set it, had `export`, `explain
 * --simulate`, `snapshot` and the hook write the repository's text into
 * Cline's global rules (review rev104d F1). And wherever it is, its real path
 * (that of the nearest folder there, with the names still to be made) must not
 * be in, or hold, a global instructions file or folder an agent loads by itself
 * (`~/Documents/Cline/Rules`, `~/.gemini/GEMINI.md`: {@link
 * globalInstructionPlaces}, as `--out` holds), in your home folder by its name
 * and its real path, or in the home folder of the user you are.
 */
function checkPlace(root: string): void {
  const advice = "set XDG_CACHE_HOME to a folder of yours";
  const home = homeFolder();
  const way = linkInProject(root, home);
  if (way !== undefined) {
    const [where, what] = way.working
      ? ["the working folder", "in the folder you work in"]
      : ["the project", "in a project"];
    throw new CacheFolderRefused(
      `${way.at}: ${way.kind} in ${where} ${way.project}, on the way to sysprompt's cache folder ${root}; ${what}, every folder down to the cache folder must be a real folder (the repository may ship a link that leads anywhere)`,
      advice,
    );
  }
  const real = realOfNamed(root);
  const key = samePathKey(real);
  const homes = new Set([home, realOr(home)]);
  try {
    const own = userInfo().homedir;
    if (own) homes.add(own).add(realOr(own));
  } catch {
    // No user entry: the home folder alone.
  }
  for (const place of globalInstructionPlaces([...homes], [], process.env)) {
    const at = { ...place, path: realOfNamed(place.path) };
    const holds = samePathKey(at.path).startsWith(`${key.replace(/\/$/, "")}/`);
    if (placeHolds(at, key) || placeHolds(place, key) || holds) {
      throw new CacheFolderRefused(
        `${root}: sysprompt's cache folder would be at ${real}, ${holds ? "above" : "in"} ${place.agent}'s own instructions ${place.folder ? "folder" : "file"} ${place.file}, which it loads by itself in every project: the export files and the projects' copies written there would be read as your words`,
        advice,
      );
    }
  }
}

/**
 * The project root above `dir` (its nearest repository top, as the door finds one), or undefined
 * (none, or your home folder kept in git). Not searched above your home folder (its path and real
 * path) when `dir` lies in it: a repository above your home is not your `~/.cache`'s project
 * (review rev105e F4).
 */
function projectAbove(dir: string, home: string): string | undefined {
  const realHome = realOr(home);
  const ceiling = [home, realHome].find((h) => isWithin(dir, h));
  const project = findProjectRootSync(dir, ceiling);
  if (project === home || project === realHome) return undefined;
  // findProjectRootSync gives `dir` back when it finds none: a project only by a marker there.
  return project === dir && !holdsRepositorySync(dir) ? undefined : project;
}

/**
 * The first entry from the project root above `root` (excluded) down to `root`'s own folder that
 * is no real folder. Each folder on the way is lstat'ed from the top down, and a link is judged
 * from the folder above it, before any marker is tested through it: the project's `.cache ->
 * ../other` (a repository), `.cache -> .` or a link to a folder holding `.hg` made the search
 * find the project at the link itself, and the cache was written through it (review rev105e F3).
 * With no project found, the process's working folder stands for one (`working`): a cache never
 * lives through a link below the folder you render, and a markerless checkout's `.cache ->
 * ~/.claude/rules` was written through (review rev107e F2); not when the working folder is your
 * home folder or holds it. A link out of any project (your own `~/.cache -> /data/cache`) is
 * followed.
 */
function linkInProject(
  root: string,
  home: string,
): { at: string; kind: string; project: string; working?: true } | undefined {
  const working = workingFolderBelowHome(home);
  const start = dirname(root);
  const parts = start.split(sep).filter((p) => p !== "");
  let at = start.startsWith(sep) ? sep : "";
  for (const part of parts) {
    at = join(at, part);
    const s = lstatSync(at, { throwIfNoEntry: false });
    if (s === undefined) return undefined; // made below as a real folder
    if (s.isDirectory()) continue;
    const kind = s.isSymbolicLink() ? "a symbolic link" : "not a folder";
    const project = projectAbove(dirname(at), home);
    if (project !== undefined) return { at, kind, project };
    if (working !== undefined && at !== working && isWithin(at, working)) {
      return { at, kind, project: working, working: true };
    }
  }
  return undefined;
}

/**
 * The process's working folder, unless it is gone, your home folder (by its path or real path)
 * or a folder holding it (`/`, `/home`): there every link of yours would be below it.
 */
function workingFolderBelowHome(home: string): string | undefined {
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return undefined;
  }
  const holdsHome = [home, realOr(home)].some((h) => h === cwd || isWithin(h, cwd));
  return holdsHome ? undefined : cwd;
}

/** The real path of `path`: that of its nearest existing folder, with the names below it. */
function realOfNamed(path: string): string {
  for (let at = path; ; at = dirname(at)) {
    try {
      const real = realpathSyncLinear(at);
      return at === path ? real : join(real, relative(at, path));
    } catch {
      if (dirname(at) === at) return path;
    }
  }
}

function realOr(path: string): string {
  try {
    return realpathSyncLinear(path);
  } catch {
    return path;
  }
}

/**
 * Whether the cache file at `path` may be read: its folder is a real folder of
 * this user's that no one else may write in, and none on its way up to `/`
 * may be ({@link checkWayUp}); false too when the folder is not there
 * (nothing to read). Every cache read asks this first (`env.json`'s GPU
 * answer, the hook's session files, `export-names-*.json`): another user who
 * could put a file there would choose what sysprompt trusts.
 */
export function cacheFileReadable(path: string): boolean {
  const folder = dirname(path);
  try {
    checkOwnFolder(folder);
    checkWayUp(folder);
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws unless `at` is a real folder (not a link) of this user's that no one
 * else may write in: another user who could would replace the export file an
 * agent reads, or a cache sysprompt trusts. Refused, not tightened: the mode
 * is the user's to change. A folder writable by its group is taken when that
 * group is the user's alone (user private groups, umask 002, make every
 * folder so): {@link othersMayWrite}, the door's rule too.
 */
function checkOwnFolder(at: string): void {
  const me = process.getuid?.();
  const s = lstatSync(at);
  if (!s.isDirectory()) {
    throw new CacheFolderRefused(
      `${at}: ${s.isSymbolicLink() ? "a symbolic link" : "not a folder"}; sysprompt's cache folder and the folders in it are never written through a link`,
    );
  }
  if (me !== undefined && s.uid !== me) {
    throw new CacheFolderRefused(
      `${at}: owned by another user (uid ${s.uid}); sysprompt writes its caches only in a folder of its user's`,
    );
  }
  if (othersMayWrite(s)) {
    throw new CacheFolderRefused(
      `${at}: writable by other users (mode ${(s.mode & 0o7777).toString(8).padStart(4, "0")}); sysprompt writes its caches and export files only in a folder no one else can write in`,
      "run chmod go-w on it",
    );
  }
}

/**
 * Makes the folder of the cache file at `location` ready to write into: with
 * `parents`, {@link readyCacheFolder}; else (the agent dir's `cache/`) it is
 * created when missing, never the agent dir above it, and must be a real
 * folder of this user's too: an agent dir you named inside a checkout may hold
 * a `cache` that links to `~/.ssh`. Returns the real folder checked; throws an Error naming the folder.
 */
export function readyCacheFileFolder(location: CacheLocation): string {
  const folder = dirname(location.path);
  if (location.parents) return readyCacheFolder(folder);
  checkWayUp(folder);
  checkPlace(folder);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    // There already: checked below. A missing agent dir stays missing: the check says so.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  checkOwnFolder(folder);
  return realpathSyncLinear(folder);
}

/**
 * Writes `text` to the cache file at `location` atomically: a temporary file
 * (created exclusively, mode 0600) renamed over the old one, so a reader never
 * sees half a file and two writers never mix. The cache folder is created
 * (0700), and with `parents` the folders above it; a missing agent dir stays
 * missing ({@link readyCacheFileFolder}: never through a link). The
 * temporary file is checked where the kernel made it, as a project file's
 * write checks its own (`writeTempFileSync`): the cache folder in a project
 * (XDG_CACHE_HOME there) swapped for a link to `~/.ssh` between the folder's
 * checks and the creation leaves nothing there. Throws what failed, the
 * temporary file removed.
 */
export function writeCacheFile(location: CacheLocation, text: string): void {
  const { path } = location;
  const folder = dirname(path);
  const name = `${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const temp = join(folder, name);
  try {
    const expected = readyCacheFileFolder(location);
    writeTempFileSync(folder, expected, name, Buffer.from(text, "utf8"), 0o600);
    // Checked again right before the rename: a folder swapped for a link meanwhile is refused.
    if (realpathSyncLinear(folder) !== expected) {
      throw new Error(
        `${folder}: the folder changed while it was written; the cache is not written`,
      );
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
