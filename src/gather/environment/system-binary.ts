import type { Stats } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { pushAll } from "../../_arrays.js";
import { realpath, stat } from "../../_io.js";
import { othersMayWrite } from "../../_others-write.js";
import { homeFolder, isWithin, PROCESS_RELATIVE } from "../../_paths.js";
import { sharedOnTheWay } from "../../_shared-way.js";
import {
  findProjectRoot,
  holdsGit,
  insideRepository,
  madeFrom,
  owningRepository,
} from "../../repo-files/project-root.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface FindSystemBinaryOptions {
  /**
   * Folders a binary may not come from, nor a `PATH` entry lie in: the working
   * folder, the project root, the workspace roots — everything a repository
   * controls. Compared as given and by real path.
   */
  exclude?: readonly string[];
  /** Default: `process.platform`. */
  platform?: string;
  /** The home folder: no folder that is it or holds it counts as a project root. Default: `os.homedir()`. */
  home?: string;
}

/** `PATH` (`Path` on Windows, where the name is case-insensitive). */
function pathVariable(env: Env): string {
  if (env.PATH !== undefined) return env.PATH;
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH");
  return key === undefined ? "" : (env[key] ?? "");
}

/**
 * The entries of `env`'s PATH that may hold a system binary: absolute, not
 * inside an excluded folder (by the path as written), not under `/proc` or
 * `/dev/fd` ({@link PROCESS_RELATIVE}), and not a package's
 * `node_modules/.bin`. An empty entry means the current folder to a shell and
 * a relative one is read from it, so both are dropped: whatever folder the
 * process is in, a project's file would be run.
 */
export function systemPathEntries(env: Env, options: FindSystemBinaryOptions = {}): string[] {
  const exclude = [...(options.exclude ?? []), ...PROCESS_RELATIVE];
  const entries: string[] = [];
  for (const raw of pathVariable(env).split(delimiter)) {
    const entry = raw.trim();
    if (entry === "" || !isAbsolute(entry) || entry.includes("\0")) continue;
    if (entry.split(/[\\/]/).includes("node_modules")) continue;
    if (exclude.some((folder) => isWithin(entry, folder))) continue;
    if (!entries.includes(entry)) entries.push(entry);
  }
  return entries;
}

/**
 * The folders a project controls, as `exclude` for {@link findSystemBinary}
 * and {@link systemPathEntries}: each of `folders`, this process's working
 * folder unless it is `/`, the home folder or a folder holding it (a `PATH`
 * entry such as `/proc/self/cwd/bin` leads into it), and
 * each folder above them that holds a `.git` (the project root, and a
 * submodule's or nested clone's surrounding repositories) and one of the
 * paths `near` (the `PATH` entries that might be taken from it; by the path
 * as written or its real path), never the home folder itself (a dotfiles
 * repository around a clone of its own does not make `~/bin` the project's)
 * but past it (a checkout holding it), the deepest folder holding one of
 * them and one of `near`, `.git` or not (see {@link rootsAbove}), and the
 * folders around the home folder that are the project's ({@link projectHome}:
 * the home folder when it is the checkout). A `PATH` entry into the project root
 * from a folder below it (`uv run`, direnv's `PATH_add bin`) is then left out
 * as one into the working folder is. Only folders that hold one of `near` are
 * looked at, so a working folder thousands of folders deep costs no look-up
 * more than a shallow one; {@link projectHome} walks up from it only when it
 * lies in a home folder that holds a `.git`, or shares with the home folder a
 * folder the system did not make.
 */
export async function projectFolders(
  folders: readonly string[],
  near: readonly string[],
  home: string = homeFolder(),
  signal?: AbortSignal,
): Promise<string[]> {
  let cwd: string[] = [];
  try {
    // The file system's root names no project: left out, it would leave out every PATH entry.
    // Nor does the home folder, or a folder holding it, where a shell starts: from `~`,
    // `render --cwd ~/proj` took every PATH entry under it (`~/.local/bin`'s git) for the
    // project's (rev53d F3). A home folder that is the checkout is still the project's,
    // by `projectHome` below, as for the folders above.
    cwd = [process.cwd()].filter((dir) => parse(dir).root !== dir && !isWithin(resolve(home), dir));
  } catch {
    // Deleted under the process: no folder, so nothing in it to leave out.
  }
  return projectRoots([...folders, ...cwd], near, home, signal);
}

/**
 * {@link projectFolders} without this process's working folder: the folders
 * a project controls around `folders`, for a file the process's folder says
 * nothing about (a config file or agent dir in a home folder the process
 * happens to run in is still yours).
 */
export async function projectRoots(
  folders: readonly string[],
  near: readonly string[],
  home: string = homeFolder(),
  signal?: AbortSignal,
): Promise<string[]> {
  const given = [...folders];
  const absolute = near.filter((p) => isAbsolute(p)).map((p) => resolve(p));
  const [realFolders, realNear] = await Promise.all(
    [given, absolute].map((paths) => Promise.all(paths.map(realOrUndefined))),
  );
  const candidates = [...new Set([...absolute, ...(realNear ?? [])])].filter(
    (p) => p !== undefined,
  );
  const walked = [...new Set([...given, ...(realFolders ?? [])])].filter((p) => p !== undefined);
  const [above, around] = await Promise.all([
    rootsAbove(walked, candidates, home),
    projectHome(given, home, signal),
  ]);
  return [...new Set([...given, ...above, ...around])];
}

/**
 * Whether a path lies in one of `folders`, as written or by the real path
 * of it or of its deepest folder that exists (a missing file is judged by
 * where it would be); a path that cannot be resolved (a loop, a folder that
 * may not be searched) is taken as the project's.
 */
export function projectOwns(folders: readonly string[]): (path: string) => Promise<boolean> {
  const real = Promise.all(folders.map((f) => realpath(f).catch(() => f)));
  return async (path) => {
    const within = (p: string, list: readonly string[]) => list.some((f) => isWithin(p, f));
    if (within(path, folders)) return true;
    let at = resolve(path);
    for (;;) {
      try {
        const found = await realpath(at);
        return within(join(found, relative(at, resolve(path))), await real);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(at) === at) return true;
        at = dirname(at);
      }
    }
  };
}

/**
 * Where an agent dir that lies in the project is taken to be: a path that
 * is missing, as a missing agent dir is (nothing said of it), and that no
 * user can make (the kernel's `/proc` on Linux; a folder of `/` elsewhere,
 * which only root makes), so no layer, rule, context file, skill, template
 * or config of it is read.
 */
export const UNREAD_AGENT_DIR = "/proc/sysprompt-agent-dir-in-project";

/**
 * Where an agent dir another user could fill is taken to be (see
 * `sharedAgentDir`): missing, as {@link UNREAD_AGENT_DIR} is, so nothing of
 * it is read; its own warning says why.
 */
export const SHARED_AGENT_DIR = "/proc/sysprompt-agent-dir-shared";

/** Whether `agentDir` is one of the folders that stand for an agent dir not read ({@link UNREAD_AGENT_DIR}, {@link SHARED_AGENT_DIR}). */
export const agentDirUnread = (agentDir: string): boolean =>
  agentDir === UNREAD_AGENT_DIR || agentDir === SHARED_AGENT_DIR;

/**
 * Whether the agent dir lies in the project around `cwd`: `cwd` itself or
 * a folder above it that holds a `.git` and the agent dir (a missing one:
 * where it would be), never the home folder itself but past it (a home
 * inside a checkout, as a CI job may set it, leaves the checkout the
 * project's, from a folder inside the home folder too), as written or by
 * real path, and the folders around the home folder that are the project's
 * ({@link projectHome}: the home folder when it is the checkout). There the
 * project wrote it: its links, followed anywhere as yours, would bring any
 * file of yours (`~/.ssh/id_rsa`) into the prompt of an untrusted project.
 */
export async function agentDirInProject(
  agentDir: string,
  cwd: string,
  home: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const top = resolve(home);
  const [realCwd, realAgent] = await Promise.all([cwd, agentDir].map(realOrUndefined));
  const folders = [cwd, ...(realCwd === undefined ? [] : [realCwd])];
  // Only a folder with a .git counts above cwd: an agent dir beside a tarball's folders is yours.
  for (const from of [...folders]) {
    for (const path of [agentDir, ...(realAgent === undefined ? [] : [realAgent])]) {
      const start = commonFolder(resolve(from), resolve(path));
      // Past the home folder (never itself): a checkout holding it is the project's.
      for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
        if (dir !== top && !folders.includes(dir) && (await holdsGit(dir))) folders.push(dir);
      }
    }
  }
  pushAll(folders, await projectHome([cwd], home, signal));
  return projectOwns(folders)(agentDir);
}

/**
 * The folders around the home folder that are the project's of `folders`
 * (the working folder, the project root), in a list, else none:
 * - the home folder, when the repository `folders` are part of is the home
 *   folder (a checkout cloned as the home folder, a dev container's
 *   `HOME=$PWD`), that repository being the nearest one, or the one a
 *   submodule or worktree nearer lies in ({@link owningRepository}), or a
 *   worktree of it made elsewhere: from any
 *   folder of it, the home folder's files and `PATH` entries (`~/bin`,
 *   `~/.local/bin`) are the repository's, as they are from its root. A
 *   repository of its own nearer the folder (a clone in `~/proj`) leaves the
 *   home folder yours; a dotfiles repository run from a folder with no nearer
 *   repository counts as the project (the system's binaries, not `~/bin`'s);
 * - the home folder, with no repository around a folder (a tarball, a copy,
 *   a package build that sets `HOME=$PWD/debian/…`), when the deepest folder
 *   that holds both lies above the home folder (never is it: `~/notes` is
 *   yours) and is neither the file system's root, nor one of
 *   {@link systemFolder}'s (`/home`, `/tmp`, `/usr`), nor a folder root made
 *   for a user that is not root (`/data` holding `/data/home/u` and
 *   `/data/scratch`; {@link madeByRoot}): nothing tells where such a project
 *   ends, and the home folder lies in what may be it.
 * By path as written and by real path.
 */
export async function projectHome(
  folders: readonly string[],
  home: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const top = resolve(home);
  const realHome = await realOrUndefined(top);
  const homes = [top, ...(realHome === undefined || realHome === top ? [] : [realHome])];
  const out = new Set<string>();
  for (const folder of folders) {
    const at = resolve(folder);
    const real = await realOrUndefined(at);
    const pairs: [string, string][] = [[at, top]];
    if (real !== undefined && realHome !== undefined) pairs.push([real, realHome]);
    // Cheap tests first: a folder thousands deep is walked up only where the answer may be yes.
    // The repository a folder is part of can be the home folder only when that holds a .git.
    const under = pairs.some(([from, to]) => holds(to, from));
    if (await holdsGit(top)) {
      const root = await owningRepository(await findProjectRoot(at, undefined, signal));
      if (await holdsGit(root)) {
        const isHome =
          homes.includes(root) || homes.includes((await realOrUndefined(root)) ?? root);
        // A worktree of the home folder's repository, made elsewhere, is part of it too: when
        // its git folder names it back, as git writes one (a tree's own `.git` naming
        // `~/.git/modules/w` is not, and leaves your agent dir yours).
        if (isHome || (!under && (await madeFrom(root, top)))) out.add(top);
        continue;
      }
    }
    if (under) continue;
    let shares = false;
    for (const [from, to] of pairs) {
      const shared = commonFolder(from, to);
      if (parse(shared).root === shared || systemFolder(shared)) continue;
      if (!(await madeByRoot(shared))) shares = true;
    }
    if (shares && !(await insideRepository(at, undefined, signal))) out.add(top);
  }
  return [...out];
}

/**
 * Whether `dir` is root's and this process is not: a folder the system made
 * (a cluster's `/data` holding the home folders and the scratch space), not
 * one a project you unpacked could be, since a user's `tar` gives its
 * folders to that user. Root's own process sees every folder as root's:
 * false there, so only {@link systemFolder}'s names count.
 */
async function madeByRoot(dir: string): Promise<boolean> {
  const me = process.getuid?.();
  if (me === undefined || me === 0) return false;
  const stats = await stat(dir).catch(() => undefined);
  return stats?.uid === 0;
}

/**
 * Folders that hold the system's own binary folders (`/usr/bin`,
 * `/usr/local/bin`, `/opt/<vendor>/bin`) and a working folder too
 * (`/usr/src/linux`, `/opt/app`), the temporary folders every user makes
 * their own folders in, and those that hold the users' home folders (`/home`,
 * `/Users`): never a project's, whatever lies in them. By name,
 * not by a mode a tarball could give its own top folder (a sticky bit).
 */
function systemFolder(dir: string): boolean {
  if (SYSTEM_FOLDERS.includes(dir) || dir === tmpdir()) return true;
  // Windows' C:\Users, in any case, on any drive.
  return sep === "\\" && /^[A-Za-z]:\\users$/i.test(dir);
}

/** {@link systemFolder}'s folders by name: the system's, the temporary ones, and those of the users' homes. */
const SYSTEM_FOLDERS = [
  "/usr",
  "/usr/local",
  "/opt",
  "/tmp",
  "/var/tmp",
  "/dev/shm",
  "/home",
  "/Users",
];

/**
 * The folders at or above any of `folders` that hold a `.git` and one of
 * `paths`, never `home` itself but past it (a checkout that holds it), and
 * the deepest folder holding both a folder and a path, below the first that
 * is `home` or holds it, unless it is one of
 * {@link systemFolder}'s (`/usr`, `/opt`, `/tmp`): a project without a `.git` (a tarball, a zip, a
 * copy) is still the project, and the folder around the working folder that
 * also holds a `PATH` entry (its `bin/`, `.venv/bin`) is the one it came in.
 * The folders above a folder that hold a path are those at and above the
 * two's common folder: a few look-ups a path, however deep the folder.
 */
async function rootsAbove(
  folders: readonly string[],
  paths: readonly string[],
  home: string,
): Promise<string[]> {
  const top = resolve(home);
  const out: string[] = [];
  const looked = new Set<string>();
  for (const folder of folders) {
    for (const path of paths) {
      const start = commonFolder(resolve(folder), resolve(path));
      // Past the home folder, never itself: the folders that hold it are looked at for a .git
      // (a home folder inside a checkout, as a CI job may set it, leaves the checkout the project's,
      // from a folder inside the home folder too). The file system's root is never one (a
      // container's `COPY . /` may leave a /.git there).
      for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
        if (dir !== top && !looked.has(dir)) {
          looked.add(dir);
          // The deepest folder holding both counts with no .git too (a tarball's bin/ beside src/).
          const shared = dir === start && !holds(dir, top) && !systemFolder(dir);
          if (shared || (await holdsGit(dir))) out.push(dir);
        }
      }
    }
  }
  return out;
}

/** The deepest folder both absolute, resolved paths lie in. */
function commonFolder(a: string, b: string): string {
  const [x, y] = [a.split(sep), b.split(sep)];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(0, i).join(sep) || parse(a).root;
}

/** Whether `path` is `folder` or lies below it; both absolute and resolved (no `relative`: long paths). */
function holds(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** Names tried for `name` on Windows, where a command is found with its extension. */
function candidates(name: string, platform: string, env: Env): string[] {
  if (platform !== "win32" || /\.[^\\/.]+$/.test(name)) return [name];
  const pathext = (env.PATHEXT ?? ".COM;.EXE").split(";").filter((e) => /^\.[A-Za-z0-9]+$/.test(e));
  return pathext.map((ext) => `${name}${ext.toLowerCase()}`);
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    // Gone, or a folder on the way we may not search: not usable.
    return undefined;
  }
}

/**
 * The absolute path of the system binary `name` (`lspci`, `git`), or
 * undefined when there is none a repository cannot have planted: the first
 * of {@link systemBinaries}.
 *
 * `name` must be a bare command name; a path or an empty name is a
 * programming error.
 */
export async function findSystemBinary(
  name: string,
  env: Env,
  options: FindSystemBinaryOptions = {},
): Promise<string | undefined> {
  for await (const path of systemBinaries(name, env, options)) return path;
  return undefined;
}

/**
 * The files named `name` that may be run as a system binary, in `PATH`
 * order. Only absolute `PATH` entries are searched ({@link systemPathEntries})
 * that {@link childPathEntries} keeps: each folder from `/` down to the entry
 * and into it, by the entry as written and by every link on its way, neither
 * writable by other users nor owned by one ({@link sharedOnTheWay}: another
 * user who may rename a folder above a root-owned `tools/bin` swaps in his
 * own between the check and the run; review rev71d F1), and its real path
 * outside every excluded folder and every project root above them (a folder
 * holding `.git`, below the home folder; see {@link projectFolders}). A hit
 * must be a regular, executable file that no other user may write, owned by
 * root or by this user (another user could replace what they own), and the
 * same walk holds for its path and each link it leads through, whose real
 * path lies outside those folders too — a link from `/usr/local/bin` into
 * the project does not count. What is given is the path as found on `PATH`
 * (a multi-call binary such as busybox needs its own name; every folder on
 * that path's way was judged, so it names the file judged), so spawn it as
 * it is, with a neutral working folder ({@link runProbe} does).
 */
export async function* systemBinaries(
  name: string,
  env: Env,
  options: FindSystemBinaryOptions = {},
): AsyncGenerator<string> {
  if (name === "" || /[\\/\0]/.test(name) || name === "." || name === "..") {
    throw new TypeError(`findSystemBinary: "${name}" is not a bare command name`);
  }
  const platform = options.platform ?? process.platform;
  const seen = new Map<string, Stats | undefined>();
  const outside = await outsideProjects(options);
  for (const entry of systemPathEntries(env, options)) {
    if (!(await takenEntry(entry, platform, outside, seen))) continue;
    for (const file of candidates(name, platform, env)) {
      const path = join(entry, file);
      if (await usable(path, platform, outside, seen)) yield path;
    }
  }
}

/**
 * The `PATH` for a program sysprompt starts (git, a probe, the browser
 * opener), as its entries: those of {@link systemPathEntries} that
 * {@link systemBinaries} would take a binary from, so that what the program
 * runs in turn by name (xdg-open's `gio`, `grep`, `sed`) is a system binary
 * too (review rev71d F4: an entry another user owned and anyone could write
 * was handed on, and xdg-open ran his `gio` as you).
 */
export async function childPathEntries(
  env: Env,
  options: FindSystemBinaryOptions = {},
): Promise<string[]> {
  const seen = new Map<string, Stats | undefined>();
  const outside = await outsideProjects(options);
  const entries: string[] = [];
  for (const entry of systemPathEntries(env, options)) {
    if (await takenEntry(entry, options.platform ?? process.platform, outside, seen))
      entries.push(entry);
  }
  return entries;
}

/** Whether a path lies outside the excluded folders of `options` and every project root above them. */
async function outsideProjects(
  options: FindSystemBinaryOptions,
): Promise<(path: string) => Promise<boolean>> {
  const exclude = options.exclude ?? [];
  const realExclude = (await Promise.all(exclude.map(realOrUndefined))).filter(
    (p): p is string => p !== undefined,
  );
  const folders = [...exclude, ...realExclude];
  const home = options.home ?? homeFolder();
  // Outside the excluded folders, and outside every project root above them (a link from
  // /usr/local/bin into the project root, a PATH entry into it from a folder below).
  return async (path: string) =>
    !folders.some((folder) => isWithin(path, folder)) &&
    (await rootsAbove(folders, [path], home)).length === 0;
}

/**
 * Whether a binary may be taken from `entry` (one of {@link systemPathEntries}):
 * its real path is outside the project, and no folder from `/` into it may be
 * written by another user or is owned by one ({@link sharedOnTheWay}).
 */
async function takenEntry(
  entry: string,
  platform: string,
  outside: (path: string) => Promise<boolean>,
  seen: Map<string, Stats | undefined>,
): Promise<boolean> {
  const realEntry = await realOrUndefined(entry);
  if (realEntry === undefined || !(await outside(realEntry))) return false;
  if (platform === "win32") return true;
  return (await sharedOnTheWay(entry, { folder: "lookups", owners: true, seen })) === undefined;
}

async function usable(
  path: string,
  platform: string,
  outside: (path: string) => Promise<boolean>,
  seen: Map<string, Stats | undefined>,
): Promise<boolean> {
  const real = await realOrUndefined(path);
  if (real === undefined || !(await outside(real))) return false;
  try {
    const file = await stat(real);
    if (!file.isFile()) return false;
    if (platform === "win32") return true;
    // Any execute bit: whether it is ours to run is for spawn to say (EACCES is "failed").
    if ((file.mode & 0o111) === 0) return false;
    const me = process.getuid?.();
    // Git's and sudo's rule: another user (not root) who owns the binary may replace it; and so
    // may a group that is more than root or this user. The folders from `/` to it, by its path
    // and by each link it leads through: the same, with sharedOnTheWay.
    if (othersMayWrite(file) || (me !== undefined && file.uid !== me && file.uid !== 0))
      return false;
    return (await sharedOnTheWay(path, { owners: true, seen })) === undefined;
  } catch {
    // Vanished between the two calls, or unreadable: not a binary we can vouch for.
    return false;
  }
}
