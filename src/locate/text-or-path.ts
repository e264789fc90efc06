// fs.promises, not node:fs/promises: loaded at first use in the CLI bundle (see _safe-write.ts).
import { promises as fsp } from "node:fs";
import { isAbsolute } from "node:path";
import { readTextFile } from "../_fs.js";
import {
  intoProjectAsNamed,
  leavesIntoTree,
  linkOutPlace,
  namedPlace,
  repositoryPlace,
  walkHeld,
} from "../_output-target.js";
import { expandHome, homeFolder, resolveUserPath } from "../_paths.js";
import { projectReach, type Reach, readRepoText } from "../repo-files/index.js";
import { SyspromptError } from "../types.js";

/**
 * An option or flag value that is text or a path. A one-line value with a
 * space is a path only when it is spelled as one: it starts with `./`, `../`,
 * `/`, `~/` (or `.\`, `..\`, `\`, `~\`, a drive `C:\`). Any other (a
 * sentence: `Be concise.`, `Always follow AGENTS.md`) is the text, decided on
 * its letters alone and never looked up: relative to the working folder it
 * would name whatever file the project put there under that name. A relative
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
 * Otherwise an existing
 * readable file is read; an existing path that
 * is not a readable text file is a usage error (the caller named it
 * explicitly). A value that names no file is the text itself, unless it looks
 * like a path (one line that starts like one above, or one word that contains
 * `/` or `\`, starts with `~`, or ends in `.md` / `.txt`): then it is most
 * likely a mistyped file name, and using it as the prompt would pass in
 * silence, so it is a usage error too. A value with a line break is always
 * text. A leading `~` means `home`. `repository` is true when the value named
 * the project's file (read through the door): that text is the repository's
 * wherever text is judged by owner (dedupe, escaping, the budget), not the user's.
 */
export async function readTextOrPath(
  value: string,
  cwd: string,
  what: string,
  home: string = homeFolder(),
  trusted = true,
  signal?: AbortSignal,
): Promise<{ text: string; path?: string; repository?: true }> {
  // Multi-line values are prompt text, never paths; skip the file system.
  if (value.includes("\n") || value.trim() === "") return { text: value };
  // So is a line of prose (a space, and nothing of a path's look): looked up in the working
  // folder, a file of that name is the project's to plant (a link "Be concise." to ~/.ssh/id_rsa).
  if (isProse(value)) return { text: value };
  const path = resolveUserPath(value, cwd, home);
  let isFile: boolean;
  try {
    isFile = (await fsp.stat(path)).isFile();
  } catch {
    // Not an existing path (or not a possible one, like ENAMETOOLONG).
    if (!looksLikePath(value)) return { text: value };
    throw new SyspromptError(
      "bad-argument",
      `${what}: "${value}" looks like a file name but there is no file at ${path}; fix the path, or, to use the value as text, give it a line break (text with a line break is never read as a path)`,
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
  const doored = await namedProjectPath(path, { absolute, cwd, home, trusted, signal });
  const read =
    doored !== undefined
      ? await readRepoText(doored.path, { reach: doored.reach })
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
  const { absolute, cwd, home, trusted, signal } = o;
  // Absolute and `~` paths count only into a project that neither is nor holds the home folder.
  const counts = (reach: Reach) =>
    !absolute || (reach.home === undefined && reach.excluded.length === 0);
  // A link met on the way that lies in another repository (a kit's, reached through your link, or
  // cloned in your project) leads only within it: its file, read through the door rooted at it.
  const walked = await walkHeld(path, { cwd, home, signal });
  const held = async (place: { path: string; tree: { root: string } }) => ({
    path: place.path,
    reach: await projectReach({ start: place.tree.root, home, trusted, root: place.tree.root }),
  });
  if (walked.kind === "link-out") return held(linkOutPlace(walked));
  const near = await projectReach({ start: cwd, home, trusted });
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
    return nested === undefined ? { path: into, reach: near } : held(nested);
  }
  const place = await namedPlace(path, { cwd, home, signal });
  if (into !== undefined && counts(near) && place.tree?.kind !== "repository")
    return { path: into, reach: near };
  if (place.tree === undefined) return undefined;
  const root = place.tree.root;
  const reach = await projectReach({ start: root, home, trusted, root });
  if (!counts(reach)) return undefined;
  return place.tree.kind === "shared"
    ? { path: place.path, reach, around: true }
    : { path: place.path, reach };
}

/** How a path starts: `~`, `./`, `../`, `/`, `\`, a drive (`C:\`). */
const PATH_START = /^(~|\.{0,2}[/\\]|[A-Za-z]:[/\\])/;

/** How a path of several words starts: {@link PATH_START}, with `~` only as the home folder's. */
const SPACED_PATH_START = /^(~[/\\]|\.{0,2}[/\\]|[A-Za-z]:[/\\])/;

/**
 * A one-line value that looks like a path: spelled as one when it has a space
 * ({@link isProse}); a single word that starts like one, contains `/` or `\`,
 * or ends in `.md` / `.txt`.
 */
function looksLikePath(value: string): boolean {
  const v = value.trim();
  if (/\s/.test(v)) return SPACED_PATH_START.test(v);
  return PATH_START.test(v) || /\.(md|txt)$/i.test(v) || /[/\\]/.test(v);
}

/**
 * A one-line value of prose (a space, and not spelled as a path: `Be
 * concise.`, `Always follow AGENTS.md`, `Prefer pnpm/yarn.`): always text,
 * never looked up in the working folder, where a file of that name would be
 * the project's. Decided on the value's letters alone, so a user can tell
 * which it is; a file `my notes.md` is named `./my notes.md`.
 */
export function isProse(value: string): boolean {
  const v = value.trim();
  return !value.includes("\n") && /\s/.test(v) && !SPACED_PATH_START.test(v);
}
