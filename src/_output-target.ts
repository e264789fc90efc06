import { dirname, resolve } from "node:path";
import { realpathOrSelf } from "./_fs.js";
import { isWithin } from "./_paths.js";
import {
  findProjectRoot,
  holdsGit,
  intoProject,
  projectReach,
  type Reach,
} from "./repo-files/index.js";

/** Where a user-named output file is written, and the folder below which no folder on its way may be a link. */
export interface OutputTarget {
  /** The path to write: as given, or spelled under the project's real root (see {@link intoProject}). */
  path: string;
  /** `within` for `writeIfChanged`: the folders from it down to the file's own must be real folders. */
  within?: string;
}

/**
 * The one rule for a file (or folder) the user names on the command line for
 * sysprompt to write in (`render -o`, `export --out`, `watch --export --out`,
 * `snapshot DIR --update`), never through a link: a project is the
 * repository's, so none of its folders on the way may be a link, however the
 * path is spelled. A path into the project of the working folder (`cwd`; or of
 * the render's `--cwd`, `renderCwd`; the outermost repository around it) is
 * checked from the project's root down,
 * whether it is relative, `../` from a subfolder, absolute, or through a link
 * of the user's to the checkout (decided on real folders): from `p/src`,
 * `-o ../build/x.md` with the project's `build` a link to the home folder is
 * refused, as `-o build/x.md` is from `p`. A project that is the home folder
 * or holds it (a dotfiles repository, `/`) has the working folder stand for
 * its root: a path under it is checked from it down, any other only at its
 * own folder, since the user's own folders above may be links of theirs; a
 * repository with the home folder strictly below its root (a CI job's
 * `HOME=$PWD/.home`) stays the project (see {@link repositoryReach}). A
 * path outside the project is the user's: only its own folder is checked (it
 * must exist and not be a link). Without a `.git` around the working folder,
 * a path out of it is checked from the folder both share (see
 * {@link sharedWithoutRepository}).
 */
export async function outputTarget(
  path: string,
  o: { cwd: string; home: string; renderCwd?: string | undefined },
): Promise<OutputTarget> {
  const starts =
    o.renderCwd === undefined || o.renderCwd === o.cwd ? [o.cwd] : [o.cwd, o.renderCwd];
  for (const start of starts) {
    const found = await inProjectOf(path, start, o.home);
    if (found !== undefined) return found;
  }
  for (const start of starts) {
    const shared = await sharedWithoutRepository(path, start, o.home);
    if (shared !== undefined) return { path, within: shared };
  }
  return { path };
}

/**
 * For a project without a `.git` around `start` (a tarball, a zip, a copy),
 * whose extent nothing tells: the deepest folder `path`'s folder shares with
 * `start`, unless that folder is the home folder or holds it (there the
 * folders on the way are the user's own), so from `p/src`,
 * `-o ../build/x.md` is checked from `p` down, as it is from `p`. Undefined
 * otherwise (a repository around `start`: {@link inProjectOf} decided).
 */
async function sharedWithoutRepository(
  path: string,
  start: string,
  home: string,
): Promise<string | undefined> {
  if (await holdsGit(await findProjectRoot(start))) return undefined;
  const folder = dirname(resolve(path));
  let shared = resolve(start);
  while (!isWithin(folder, shared)) shared = dirname(shared);
  if (shared === folder) return undefined;
  const [realShared, realHome] = await Promise.all([realpathOrSelf(shared), realpathOrSelf(home)]);
  const holdsHome = isWithin(resolve(home), shared) || isWithin(realHome, realShared);
  return holdsHome ? undefined : shared;
}

/** {@link outputTarget} for the project of one working folder, or undefined when `path` is not into it. */
async function inProjectOf(
  path: string,
  start: string,
  home: string,
): Promise<OutputTarget | undefined> {
  const under = path !== start && isWithin(path, start) ? { path, within: start } : undefined;
  const reach = await outermostReach(start, home);
  if (reach.home !== undefined || reach.excluded.length > 0) return under;
  const into = await intoProject(path, reach);
  if (into === undefined) return under;
  const within = isWithin(into, reach.root) ? reach.root : reach.realRoot;
  // The root itself is a folder, not a file to write: refused as one, without a `within`.
  return into === within ? under : { path: into, within };
}

/**
 * The reach of `start`'s project, widened to the project around it while
 * there is one (a submodule, a nested repository, or a `.git` the outer
 * repository planted in a subfolder: from `p/src` with a `p/src/.git`,
 * `-o ../build/x.md` is still into the repository `p`), up to one the
 * home-folder rule narrows. Trusted: the private-path checks are for reads;
 * only the root and the home-folder rule count here.
 */
async function outermostReach(start: string, home: string): Promise<Reach> {
  let reach = await repositoryReach(start, home, await findProjectRoot(start));
  for (;;) {
    if (reach.home !== undefined || reach.excluded.length > 0) return reach;
    const up = dirname(reach.root);
    if (up === reach.root) return reach;
    const outer = await findProjectRoot(up);
    if (!(await holdsGit(outer))) return reach;
    const wider = await repositoryReach(start, home, outer);
    // Narrowed by the home-folder rule (the outer one is the home folder or holds it): not widened.
    if (wider.root !== outer) return reach;
    reach = wider;
  }
}

/**
 * {@link projectReach} of `start` with `root` found, but a repository with the
 * home folder strictly below it (a CI job's `HOME=$PWD/.home`) stays the
 * project for output paths, as it does for git's global config: its folders
 * are the checkout's, never the user's. A repository that is the home folder
 * (a dotfiles repository), or `/`, is narrowed by the home-folder rule as before.
 */
async function repositoryReach(start: string, home: string, root: string): Promise<Reach> {
  const reach = await projectReach({ start, home, trusted: true, root });
  if (reach.root === root || dirname(root) === root || !(await holdsGit(root))) return reach;
  const [realRoot, realHome] = await Promise.all([realpathOrSelf(root), realpathOrSelf(home)]);
  const below = (h: string, r: string) => h !== r && isWithin(h, r);
  const homeBelow = below(resolve(home), resolve(root)) || below(realHome, realRoot);
  return homeBelow ? { root, realRoot, excluded: [] } : reach;
}
