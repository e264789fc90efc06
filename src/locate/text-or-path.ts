// fs.promises, not node:fs/promises: loaded at first use in the CLI bundle (see _safe-write.ts).
import { promises as fsp } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { readTextFile } from "../_fs.js";
import {
  intoProjectAsNamed,
  leavesIntoTree,
  linkOutPlace,
  namedPlace,
  repositoryPlace,
  walkHeld,
} from "../_output-target.js";
import { expandHome, homeFolder, isWithin, resolveUserPath } from "../_paths.js";
import { sharedOnTheWay } from "../_shared-way.js";
import { realWorkingFolder } from "../gather/roots.js";
import {
  isRepositoryRoot,
  NO_DEADLINE,
  projectReach,
  type Reach,
  readRepoText,
  sudoUser,
} from "../repo-files/index.js";
import { SyspromptError } from "../types.js";

/**
 * An option or flag value that is text or a path. It is a path only when it
 * is spelled as one ({@link isText}): it starts with `./`, `../`, `/`, `~/`
 * (or `.\`, `..\`, `\`, `~\`, a drive `C:\`); or, one word, it contains `/`
 * or `\`, or ends in a file extension (`.md`, `.txt`, any `.` and 1-8 letters
 * or digits). Any other value (`Terse`, `-`, `Be concise.`, `Always follow
 * AGENTS.md`) is the text, decided on its letters alone and never looked up:
 * relative to the working folder it would name whatever file the project put
 * there under that name (a planted file `Terse` took the place of
 * `--append-system-prompt Terse`, rev53d F5). A relative
 * path into the project is the project's file and is read through the door (a
 * link out of the project is refused, and with `trusted` false a link to its
 * private files); so is an absolute or `~` path into a project that neither
 * is nor holds the home folder. The project is the one a named output file is
 * checked in (`namedPlace`): from a folder nested in a tree (a submodule, a
 * worktree or clone inside the checkout, a tarball's subfolder, your own clone
 * in a tarball's `services/`) a path back into the tree is the tree's file;
 * so is a path out of a repository into a folder around it that is no one's
 * own (`../sibling/x.md` from `~/work/p` is `~/work`'s, as `render -o` takes
 * it). Paths into the user's own folders (`~/notes/x.md`) are theirs.
 * Otherwise an existing readable file is read. A path that names no file (a
 * mistyped file name: using it as the prompt would pass in silence), a link
 * loop, or an existing path that is not a readable text file is a usage error
 * (the caller named it explicitly). A leading `~/` means `home`. `repository`
 * is true when the value named the project's file (read through the door):
 * that text is the repository's wherever text is judged by owner (dedupe,
 * escaping, the budget), not the user's.
 */
export async function readTextOrPath(
  value: string,
  cwd: string,
  what: string,
  home: string = homeFolder(),
  trusted = true,
  signal?: AbortSignal,
): Promise<{ text: string; path?: string; repository?: true }> {
  // Text unless spelled as a path, never looked up: in the working folder, a file of that name
  // is the project's to plant (a link "Be concise." to ~/.ssh/id_rsa, a file `Terse`).
  if (isText(value)) return { text: value };
  const path = resolveUserPath(value, cwd, home);
  let isFile: boolean;
  try {
    isFile = (await fsp.stat(path)).isFile();
  } catch (error) {
    // A link loop on the way is not a missing file: say which it is.
    const loop = (error as NodeJS.ErrnoException).code === "ELOOP";
    throw new SyspromptError(
      "bad-argument",
      loop
        ? `${what}: "${value}" is a link loop at ${path} (a link that leads back to itself); fix the link, or name the file itself`
        : `${what}: "${value}" looks like a file name but there is no file at ${path}; fix the path, or, to use the value as text, give it a line break (text with a line break is never read as a path)`,
    );
  }
  if (!isFile) {
    throw new SyspromptError(
      "bad-argument",
      `${what}: "${value}" exists but is not a file; pass a text file or the prompt text itself`,
    );
  }
  // A value into the working folder's project names a file of it (its README may say
  // "--system-prompt prompts/base.md"; a wrapper "$PWD/prompts/base.md"; from its submodule
  // "../prompts/base.md"): read through the door, so that a link out of the project (to
  // ~/.aws/credentials) is refused, and in an untrusted project a link to its git-ignored files
  // (.env). Absolute and `~` paths count only into a project that neither is nor holds the home
  // folder (from ~ or /, ~/.config/x.md stays yours). A path out of it into a folder around it
  // is that folder's (a tarball around a clone of yours), into the user's own folders theirs.
  // "Into the project" is decided on real folders when the path leaves the working folder's
  // at a folder of the user's: `$PWD/prompts/base.md` or `~/work/…` may reach the checkout
  // through a link of theirs (~/work -> /data/work). Out into a folder that is no one's own
  // as written, it is that folder's, whatever its links lead to (see `leavesIntoTree`).
  const absolute = isAbsolute(expandHome(value, home));
  // The reach's private-path checks hear the render's signal: once it fires the file is refused,
  // named, as a link walk stopped by it refuses it (fx92d: they ran on past it, 3.6 s at 300 ms).
  const late = (error: unknown): never => {
    if (signal?.aborted !== true) throw error;
    throw new SyspromptError(
      "bad-argument",
      `${what}: cannot use "${value}": the render's deadline passed while it was checked against the project's ignore rules; name it again with a longer deadline, or trust the project`,
    );
  };
  const doored = await namedProjectPath(path, { absolute, cwd, home, trusted, signal }).catch(late);
  // Your own file is yours only where no other user could have put his in its place: his file, or
  // one below a folder he owns or may write (the PATH search's walk; review rev77d F2: another
  // user's /tmp/f2n/notes.md was appended as your text).
  const shared =
    doored === undefined
      ? await sharedOnTheWay(path, { owners: true, entry: true, alsoYou: sudoUser() })
      : undefined;
  if (shared !== undefined) {
    throw new SyspromptError(
      "bad-argument",
      `${what}: "${value}" is not read as your text: ${shared}, so another user could put his own text there; copy the file into a folder of yours that only you may write to, and name it there`,
    );
  }
  const read =
    doored !== undefined
      ? await readRepoText(doored.path, { reach: doored.reach }).catch(late)
      : await readTextFile(path);
  if (!read.ok) {
    // Out of the working folder's own project: say why a folder of the user's may be taken for a tree.
    const around =
      doored?.around === true
        ? ` (a path out of the working folder's project into ${doored.reach.root} is that folder's file, as an unpacked tree's would be, and none of its links is followed; to read the file a link of yours there leads to, name that file)`
        : "";
    throw new SyspromptError(
      "bad-argument",
      `${what}: cannot use "${value}": ${read.diagnostics[0]?.message ?? read.reason}${around}`,
    );
  }
  return { text: read.text, path, ...(doored ? { repository: true } : {}) };
}

/**
 * The project's file (or folder) a path the user named is, spelled for the
 * door, with the reach it is read in; undefined when the path names the
 * user's own (`absolute`: it was written absolute or from `~`). First the
 * working folder's own project (the nearest repository, or the working folder
 * itself); then the tree the rule of a named output file places it in
 * ({@link namedPlace}): the outermost repository around the working folder (a
 * submodule's or a nested worktree's `../` into the checkout), or, out of it
 * or with no repository around it, the deepest folder it shares with the
 * working folder (a tarball's `../prompts/base.md` from its `src/`, or from
 * your clone in its `services/mine`, `../../prompts/base.md`; `../sibling/x.md`
 * from `~/work/p` alike, as nothing on disk tells `~/work` from a tarball).
 * Only a path into the user's own folders (the home folder or above, `/`) stays theirs.
 * `around`: the tree is such a shared folder, not a repository.
 */

/**
 * How long the reach's checks of a path you name run at least, whenever the
 * render's deadline fires: an ordinary path's checks take a few milliseconds,
 * so a short deadline (`--deadline 0`, whose signal may fire before or while
 * they run) refuses no ordinary file you name; past it, they stop at the
 * render's signal, and a stall (the ignore files of 40 nested Mercurial
 * copies, 3.6 s) stops there (fx92d).
 */
export const NAMED_GRACE_MS = 100;

/** A signal that fires when `signal` does, but not before {@link NAMED_GRACE_MS} from now. */
function afterGrace(signal: AbortSignal): AbortSignal {
  const later = new AbortController();
  const until = performance.now() + NAMED_GRACE_MS;
  const fire = () => {
    const wait = until - performance.now();
    if (wait <= 0) later.abort(signal.reason);
    else setTimeout(() => later.abort(signal.reason), wait).unref();
  };
  if (signal.aborted) fire();
  else signal.addEventListener("abort", fire, { once: true });
  return later.signal;
}

export async function namedProjectPath(
  path: string,
  o: {
    absolute: boolean;
    cwd: string;
    home: string;
    trusted: boolean;
    signal?: AbortSignal | undefined;
  },
): Promise<{ path: string; reach: Reach; around?: true } | undefined> {
  const { absolute, home, trusted, signal } = o;
  // A reach's checks hear the render's signal once they have had NAMED_GRACE_MS (as the walk hears
  // it past NAMED_GRACE): an ordinary file you name is not refused at a short deadline; a caller
  // with none (a command's own look-up) has no deadline.
  const reachSignal = signal === undefined ? NO_DEADLINE : afterGrace(signal);
  // A path inside the working folder as given is its file, judged from its real folder, as git
  // judges it: a cwd named through a link into a repository's subfolder found no repository, and
  // `--untrusted --append-system-prompt ./notes.md` read the link to a git-ignored file (rev56a F3).
  // So is a path inside its real folder (the file named by its real path: rev57a F6).
  // A path out of both (`../prompts/base.md`) leaves into a tree around it as given, as before.
  let cwd = resolve(o.cwd);
  // Not on the render's signal: the working folder is the render's own, already judged, and the
  // walk below hears the deadline and names the file (a raw abort here lost the name under load).
  const real = await realWorkingFolder(cwd, { home });
  if (isWithin(path, cwd)) {
    path = join(real, relative(cwd, path));
    cwd = real;
  } else if (isWithin(path, real)) cwd = real;
  // Absolute and `~` paths count only into a project that neither is nor holds the home folder.
  const counts = (reach: Reach) =>
    !absolute || (reach.home === undefined && reach.excluded.length === 0);
  // A link met on the way that lies in another repository (a kit's, reached through your link, or
  // cloned in your project) leads only within it: its file, read through the door rooted at it.
  // A package's file (an npm-installed kit's `base.md`, as its README names it) is the package's,
  // as a clone's is: its text the repository's, its links within it (rev54b F6).
  const walked = await walkHeld(path, { cwd, home, signal, packages: true });
  const held = async (place: { path: string; tree: { root: string } }) => ({
    path: place.path,
    reach: await projectReach({
      start: place.tree.root,
      home,
      trusted,
      root: place.tree.root,
      signal: reachSignal,
    }),
  });
  if (walked.kind === "link-out") return held(linkOutPlace(walked));
  // The working folder's project is found from its real folder, as everywhere (rev57a F3): from
  // the link's spelling a path named through another link of yours lost the repository's ignore
  // rules (rev58a F2). Only whether the path leaves into a tree around it is decided as written.
  const near = await projectReach({ start: real, home, trusted, signal: reachSignal });
  // Decided on the path as written first: out of the project into a tree around it (a tarball
  // around your clone), it is the tree's file even where the tree's link leads back into yours.
  const into = (await leavesIntoTree(path, { root: near.root, start: cwd, home }))
    ? undefined
    : await intoProjectAsNamed(path, near, { start: cwd, home });
  // Into your own folders as the home folder's project (from `~`, a dotfiles repository): the
  // home's, unless it enters a repository of its own there (`prompt-kit/base.md`, whose links
  // to your other files are its own: see `namedPlace`).
  const ownFolders = near.home !== undefined || near.excluded.length > 0;
  if (into !== undefined && counts(near) && !ownFolders) {
    // A repository of its own in the project (a kit cloned in `tools/`) is its own, as on touch.
    const nested = await repositoryPlace(walked, near.root, home);
    // A package in it (its `node_modules/kit`) stays its file, read by its door, which keeps its
    // ignore rules (a package's link within itself to a file the project ignores is refused untrusted).
    const project = nested === undefined || !(await isRepositoryRoot(nested.tree.root));
    return project ? { path: into, reach: near } : held(nested);
  }
  const place = await namedPlace(path, { cwd, home, signal, packages: true });
  if (into !== undefined && counts(near) && place.tree?.kind !== "repository")
    return { path: into, reach: near };
  if (place.tree === undefined) return undefined;
  const root = place.tree.root;
  const reach = await projectReach({ start: root, home, trusted, root, signal: reachSignal });
  if (!counts(reach)) return undefined;
  return place.tree.kind === "shared"
    ? { path: place.path, reach, around: true }
    : { path: place.path, reach };
}

/** How a path starts: `./`, `../`, `/`, `~/` (or with `\`), a drive (`C:\`). */
const PATH_START = /^(~[/\\]|\.{0,2}[/\\]|[A-Za-z]:[/\\])/;

/**
 * Whether a flag's value is text, never looked up as a file (see
 * {@link readTextOrPath}): empty, more than one line, or one line not spelled as
 * a path. A path starts with {@link PATH_START}; one word is a path too when it
 * contains `/` or `\` or ends in a file extension (`.md`, `.txt`, `.yaml`: `.`
 * and 1-8 letters or digits). Decided on the value's letters alone, so a user
 * can tell which it is: a file `Terse` is named `./Terse`, `my notes.md`
 * `./my notes.md`; `-` is the text `-`.
 */
export function isText(value: string): boolean {
  const v = value.trim();
  if (value.includes("\n") || v === "") return true;
  if (PATH_START.test(v)) return false;
  return /\s/.test(v) || !(/[/\\]/.test(v) || /\.[A-Za-z0-9]{1,8}$/.test(v));
}
