import { homedir, userInfo } from "node:os";
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { trimRuns } from "./_text.js";
import { SyspromptError } from "./types.js";

/** The XDG base folders a program may read its settings and data from. */
const XDG_VARIABLES = [
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
] as const;

/**
 * `$name` (an XDG base folder) when it is an absolute path, else undefined.
 * The XDG Base Directory spec calls a relative value invalid, to be ignored:
 * read from the working folder it would be the project's (`XDG_CONFIG_HOME=cfg`
 * gave git, run in the project, its `cfg/git/config` as your own settings).
 */
export function xdgFolder(
  env: Readonly<Record<string, string | undefined>>,
  name: (typeof XDG_VARIABLES)[number],
): string | undefined {
  const value = env[name];
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

/** `env` without the XDG base folders {@link xdgFolder} ignores: what a program sysprompt starts is given. */
export function withoutRelativeXdg<T extends string | undefined>(
  env: Readonly<Record<string, T>>,
): Record<string, T> {
  const out = { ...env };
  for (const name of XDG_VARIABLES) {
    if (name in out && xdgFolder(env, name) === undefined) delete out[name];
  }
  return out;
}

/**
 * The home folder: `os.homedir()` (`$HOME`), or the user database's entry
 * for this user when that is not an absolute path. A relative `$HOME` would
 * be read from the working folder, which is the project's: its `home/.pi/agent`
 * became your agent dir (links followed anywhere, untrusted or not) and its
 * `home/.ssh` the hidden entries the home-folder rule keeps out. No entry:
 * `/`, a home that holds no project's files.
 */
export function homeFolder(): string {
  const home = homedir();
  if (isAbsolute(home)) return home;
  try {
    return userInfo().homedir || "/";
  } catch {
    return "/";
  }
}

/**
 * `process.cwd()`. When the folder the process is in was deleted or moved,
 * Node throws a bare ENOENT; this says what happened and what to do.
 *
 * @throws SyspromptError when there is no current folder.
 */
export function currentFolder(): string {
  try {
    return process.cwd();
  } catch (error) {
    throw new SyspromptError(
      "bad-option",
      "cwd: the current folder no longer exists (it was deleted or moved); change to an existing folder, or pass cwd",
      { cause: error },
    );
  }
}

/**
 * Why a path holding U+FFFD cannot name a folder: Node decodes a name that is
 * not UTF-8 so (process.cwd(), realpath), and that string no longer names the
 * folder: it opens nothing, or whatever else is named with U+FFFD.
 */
export const NOT_UTF8_PATH =
  "the path is not UTF-8 (a name in it has other bytes, shown as \uFFFD), so it cannot be opened by its name (rename the folder, or run from one whose path is UTF-8)";

/** The most bytes a path the system looks up may hold (with its final NUL), and a name in it: Linux's PATH_MAX and NAME_MAX. */
export const PATH_MAX = 4096;
export const NAME_MAX = 255;

/**
 * Why the system can never look `path` up (ENAMETOOLONG), or undefined: it is PATH_MAX bytes or
 * more, or a name in it is over NAME_MAX. Asked before a write makes any folder for it.
 */
export function tooLongToName(path: string): string | undefined {
  const bytes = Buffer.byteLength(path);
  if (bytes >= PATH_MAX) {
    return `the path is too long: ${bytes} bytes, where the system takes at most ${PATH_MAX - 1}`;
  }
  const long = path.split(sep).find((name) => Buffer.byteLength(name) > NAME_MAX);
  if (long === undefined) return undefined;
  return `a name in the path is too long: ${Buffer.byteLength(long)} bytes, where the system takes at most ${NAME_MAX}`;
}

/** A leading `~` (alone, or followed by a separator) means the home folder. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
  return path;
}

/** What {@link resolveUserPath} says when a relative path has no folder to be read from. */
export const NO_CURRENT_FOLDER =
  "the current folder no longer exists (it was deleted or moved); change to an existing folder, or give --cwd and other paths from /";

/**
 * Resolves `~`, `~/x` against `home` and anything else relative against `cwd`.
 * An absolute path needs neither; a relative one needs an absolute `cwd`, since
 * Node would read a relative one from `process.cwd()`, which throws from a
 * deleted folder (`cwd` is "" then: the CLI's $PWD was empty or relative).
 *
 * @throws SyspromptError when a relative path meets a `cwd` that is not absolute.
 */
export function resolveUserPath(path: string, cwd: string, home: string): string {
  const expanded = expandHome(path, home);
  if (isAbsolute(expanded)) return resolve(expanded);
  if (!isAbsolute(cwd)) {
    throw new SyspromptError(
      "bad-option",
      path === "." ? NO_CURRENT_FOLDER : `${path}: ${NO_CURRENT_FOLDER}`,
    );
  }
  return resolve(cwd, expanded);
}

/**
 * Forward slashes, so prompts read the same on every platform. Only where a backslash
 * separates folders (Windows): on POSIX it is an ordinary character of a file
 * name and must stay, or the path names another file. `separator` is the
 * platform's, injectable for tests.
 */
export function toPosix(path: string, separator: string = sep): string {
  return separator === "\\" ? path.replaceAll("\\", "/") : path;
}

/**
 * A relative path as it may be shown: one whose first name reads as a home
 * folder or a variable naming one (a repository's folder named `~`, `~alice`,
 * `$HOME`, `${HOME}`, `%USERPROFILE%`, or ` ~` after a blank) is written from
 * `./` (`./~/AGENTS.md`, `./$HOME/AGENTS.md`). Any other path is returned as it is.
 */
export function notHomeLike(relativePath: string): string {
  return /^\s*[~$%]/.test(relativePath) ? `./${relativePath}` : relativePath;
}

/**
 * A file name as a file system that folds case and drops a name's trailing dots and spaces
 * (macOS's APFS, Windows' NTFS: `.Claude` is `.claude`, `.git.` and `.envrc ` are `.git` and
 * `.envrc`) takes it: the key a list of names another program reads is compared by (rev58d F5).
 * `.` and `..` stay; a name of dots and spaces only is left as it is.
 */
export function nameKey(name: string): string {
  if (name === "." || name === "..") return name;
  const trimmed = trimRuns(name, ". ", "end");
  return (trimmed === "" ? name : trimmed).toLowerCase();
}

/** {@link nameKey} of each name of a path written with `/`. */
export function pathKey(path: string): string {
  return path.split("/").map(nameKey).join("/");
}

/**
 * Folders whose paths name a different place in each process that looks:
 * `/proc/self/cwd` is the folder of whoever reads it (git's, after `-C`, is
 * the project; an agent's, started in another folder, is that folder),
 * `/dev/fd/N` an open folder of its own. No system binary lives there, a
 * check made there says nothing of what a child finds, and a file written
 * there is not the file another process reads by that name: `PATH` entries
 * and `-o`/`--out` paths are never taken there (review rev71d F5).
 */
export const PROCESS_RELATIVE = ["/proc", "/dev/fd"];

/** True when `path` is `folder` or lies below it (compared as written; resolve links first). */
export function isWithin(path: string, folder: string): boolean {
  return !leavesFolder(relative(folder, path));
}

/**
 * Whether `rel`, a path as `path.relative` gives it, leads out of its folder:
 * `..`, `../…`, or absolute (another drive). Not a name that merely starts
 * with two dots (`..foo` is inside).
 */
export function leavesFolder(rel: string): boolean {
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/** True when `ceiling` is not given, or `path` is at or below it. */
export function isBelowCeiling(path: string, ceiling: string | undefined): boolean {
  return ceiling === undefined || isWithin(path, ceiling);
}

/**
 * Whether a search up from a project's root for what lies around it (the git repositories and
 * Mercurial working copies around it, the repository around a submodule) may look at `up`: not
 * above `ceiling` (when given, as git's GIT_CEILING_DIRECTORIES), nor the home folder or a folder
 * above it (`homes`: its path and its real path). A dotfiles repository is yours, as its rules
 * and its submodules' git folders: the home folder is never a project's root (fx102c's limit).
 */
export function looksAround(
  up: string,
  ceiling: string | undefined,
  homes: readonly string[],
): boolean {
  return isBelowCeiling(up, ceiling) && !homes.some((h) => isWithin(h, up));
}

/** `dir` and its ancestors (none above `ceiling`, when given), outermost first. */
export function ancestorsOf(dir: string, ceiling?: string): string[] {
  const out: string[] = [];
  const root = parse(dir).root;
  let at = dir;
  for (;;) {
    out.push(at);
    if (at === root) break;
    const up = dirname(at);
    if (up === at || !isBelowCeiling(up, ceiling)) break;
    at = up;
  }
  return out.reverse();
}

/**
 * `rel` (forward slashes, no `.` or `..`) below `dir` (absolute, normalised),
 * as `join` gives it. `join` rebuilds the whole path segment by segment: on a
 * path 1,000 folders deep that is a string of a thousand pieces, held while
 * its look-up waits (thousands wait at once in a deep cwd's steps).
 */
export function childPath(dir: string, rel: string): string {
  const tail = sep === "/" ? rel : rel.replaceAll("/", sep);
  return dir.endsWith(sep) ? `${dir}${tail}` : `${dir}${sep}${tail}`;
}
