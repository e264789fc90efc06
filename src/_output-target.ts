import { dirname, join, parse, relative, resolve, sep } from "node:path";
import { realpathOrSelf } from "./_fs.js";
import { lstatKindOrMissing, realpath } from "./_io.js";
import { isWithin } from "./_paths.js";
import { UnsafePathError } from "./_safe-write.js";
import { processRelativeOnTheWay } from "./_shared-way.js";
import {
  type HeldEnd,
  heldLinks,
  type LinkOut,
  NAMED_GRACE,
  stopError,
} from "./repo-files/held-links.js";
import {
  enclosingRepositories,
  findProjectRoot,
  holdsGit,
  intoProject,
  isRepositoryRoot,
  NO_DEADLINE,
  nestedClones,
  projectReach,
  type Reach,
} from "./repo-files/index.js";

/** Where a user-named output file is written, and the folder below which no folder on its way may be a link. */
export interface OutputTarget {
  /** The path to write: as given, or spelled under the real folder its check starts from (see {@link intoProject}, {@link sharedFolder}). */
  path: string;
  /** `within` for `writeIfChanged`: the folders from it down to the file's own must be real folders. */
  within?: string;
}

/**
 * {@link OutputTarget}, and the tree the path was placed in, when it was (the
 * user's own folders, and a path under a working folder whose project the
 * home-folder rule narrowed, place it in none). `root` is the folder the
 * checks start from (spelled as `path` is); `kind`: `repository`, the
 * outermost repository around the working folder; `shared`, the deepest
 * folder the path shares with the working folder, out of its repository or
 * with none around it: whether that folder is a tarball around a clone of
 * yours or your own `~/work`, nothing on disk tells, so it is the same tree
 * to a write and to a read.
 */
export interface NamedPlace extends OutputTarget {
  tree?: { root: string; kind: "repository" | "shared" };
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
 * of the user's to the checkout (decided on real folders when the path leaves
 * the working folder's at a folder of the user's own, else as written: see
 * {@link leavesIntoTree}): from `p/src`,
 * `-o ../build/x.md` with the project's `build` a link to the home folder is
 * refused, as `-o build/x.md` is from `p`. A project that is the home folder
 * or holds it (a dotfiles repository, `/`) has the working folder stand for
 * its root: a path under it is checked from it down, any other only at its
 * own folder, since the user's own folders above may be links of theirs; a
 * repository with the home folder strictly below its root (a CI job's
 * `HOME=$PWD/.home`) stays the project (see {@link repositoryReach}). A
 * path out of the project (or, without a `.git` around the working folder,
 * out of the working folder) is checked from the deepest folder it shares
 * with the working folder, since nothing tells where a tarball, or a
 * repository planted in one, ends; when that folder is the user's own (the
 * home folder or above it, from a working folder in the home folder; `/`),
 * only the file's own folder is checked: it must exist and not be a link
 * (see {@link sharedFolder}).
 */
export async function outputTarget(
  path: string,
  o: { cwd: string; home: string; renderCwd?: string | undefined },
): Promise<OutputTarget> {
  const magic = processRelativeOnTheWay(path);
  if (magic !== undefined) {
    throw new UnsafePathError(
      "unsafe-target",
      path,
      `its way leads through ${magic}, which names another file in each process that reads it (an agent started elsewhere reads its own); name the file by its own path`,
    );
  }
  const { tree, ...target } = await namedPlace(path, o);
  if (tree?.kind !== "shared" || target.within === undefined) return target;
  return homeByItsRealPath(target as Required<OutputTarget>, o.home);
}

/**
 * A path placed in a shared tree, inside your home folder given through a
 * link (FreeBSD's `/home -> usr/home`, an automounted home): spelled under
 * your home folder's real path, so the folders on your home folder's own
 * path, yours, are checked as what they are (review rev52b F3: every `-o
 * $HOME/notes.md` from a working folder beside such a home was refused as
 * written through a link, HOME's own). The check still starts at the shared
 * folder, by its real path, when that holds your home folder's real path
 * (else at the root, every folder above it being real): links below your
 * home folder are refused as before, and a home inside an unpacked tree
 * stays that tree's (see `userLayer` in eject). A repository's tree
 * (`HOME=$PWD/.home` in a checkout) keeps its rule: its folders are the
 * checkout's.
 */
async function homeByItsRealPath(
  target: Required<OutputTarget>,
  home: string,
): Promise<OutputTarget> {
  const given = resolve(home);
  if (target.path === given || !isWithin(target.path, given)) return target;
  const realHome = await realpathOrSelf(home);
  if (realHome === given) return target;
  const realWithin = await realpathOrSelf(target.within);
  return {
    path: join(realHome, relative(given, target.path)),
    within: isWithin(realHome, realWithin) ? realWithin : parse(realHome).root,
  };
}

/**
 * The one rule of {@link outputTarget}, with the tree it placed `path` in: what
 * a named file's writes are checked from, and what says whether a file the
 * user names to be read (`--append-system-prompt`, `--system-prompt`, a skill
 * path) is the project's (see `readTextOrPath`). First, on real folders
 * ({@link walkHeld}): a link on the path's way that lies in a repository not
 * the user's own and leads out of it places the path in that repository
 * ({@link linkOutPlace}); a path that really ends in such a repository, placed
 * as written in none or in a tree around it, is that repository's
 * ({@link repositoryPlace}).
 */
export async function namedPlace(
  path: string,
  o: {
    cwd: string;
    home: string;
    renderCwd?: string | undefined;
    signal?: AbortSignal | undefined;
    packages?: boolean;
  },
): Promise<NamedPlace> {
  const walked = await walkHeld(path, o);
  if (walked.kind === "link-out") return linkOutPlace(walked);
  const place = await placeAsWritten(path, o);
  const shared = place.tree?.kind === "shared";
  return (await repositoryPlace(walked, place.tree?.root, o.home, shared)) ?? place;
}

/**
 * The walk of {@link heldLinks} for a named path: the links of a repository
 * that is neither the working folder's project (or one around it) nor the
 * home folder's own (or one holding it) lead only within it. With
 * `packages` (a path named to be read), a package folder (`node_modules/kit`
 * by its real names or by the names it is reached by) is such a repository.
 */
export async function walkHeld(
  path: string,
  o: {
    cwd: string;
    home: string;
    renderCwd?: string | undefined;
    signal?: AbortSignal | undefined;
    packages?: boolean;
  },
): Promise<LinkOut | HeldEnd> {
  const own = [o.cwd, o.home, ...(o.renderCwd === undefined ? [] : [o.renderCwd])];
  const walked = await heldLinks(await Promise.all(own.map((f) => realpathOrSelf(resolve(f)))), {
    signal: o.signal,
    grace: NAMED_GRACE,
    packages: o.packages === true,
  })(path);
  // A path whose links lead through folders too deep to check, or still checked at the
  // render's deadline (`signal`), is not taken.
  if (walked.kind === "stopped") throw stopError(walked);
  return walked;
}

/**
 * A path whose way meets another repository's link out of it (a prompt kit's
 * committed `base.md -> ../.ssh/id_rsa`, or `out -> ../../.config`, reached
 * through a link of yours to the kit, to its subfolder or its file, or inside
 * your project): that repository's file, spelled from the link's real folder,
 * so that the door rooted at it refuses the read and the writer the folder
 * link.
 */
export function linkOutPlace(walked: LinkOut): NamedPlace & { tree: object } {
  const tree = { root: walked.repository, kind: "repository" } as const;
  return { path: join(walked.link, ...walked.rest), within: walked.repository, tree };
}

/**
 * The repository not the user's own that a named path really ends in, when
 * the rule as written placed it in none (the user's own folders: `~/kitlink`,
 * `~/.config/sysprompt/kit` your links to a kit) or in a tree around it (the
 * working folder's project holding a kit cloned in `tools/prompt-kit`): the
 * path is that repository's, spelled by the name it was reached by there
 * ({@link HeldEnd.spelled}: its own links kept), and read through the door
 * rooted at it. Undefined when the path is placed at that repository
 * already, or in a tree that does not hold it (a tarball's link to your kit
 * stays the tarball's), or reached by a link that lies in that tree (the
 * project's link into a clone nested in it, refused by its door), save, in
 * a `shared` tree (no repository's) that holds your home folder, a link in
 * your home folder: yours (`~/.local/lib/node_modules/kit -> ~/Downloads/kit`
 * from a working folder beside your home).
 */
export async function repositoryPlace(
  walked: HeldEnd,
  placed: string | undefined,
  home: string,
  shared = false,
): Promise<(NamedPlace & { tree: object }) | undefined> {
  const root = walked.repository;
  if (root === undefined) return undefined;
  // A repository git does not know (an hg, jj or svn working copy, a git folder or a look-alike of
  // one) inside another is not a place of its own for a named path: the path stays where it was
  // placed, whose door refuses it as inside a repository of its own (a boundary only takes away).
  // Placed in none (your folders: your link to an hg kit inside a git tree), it is the clone's,
  // read through its door (which keeps the ignore rules around it): never as your own file,
  // which would follow the kit's links to its `.hg/hgrc`.
  // A folder holding a `.git` of any kind (one git would not use too: confinement is unchanged by
  // it, only the privacy rules around it hold there) is a place of its own, as before.
  if (
    placed !== undefined &&
    !(await holdsGit(root)) &&
    (await enclosingRepositories(root, home)).length > 0
  )
    return undefined;
  if (placed !== undefined) {
    const real = await realpathOrSelf(placed);
    if (root === real || !isWithin(root, real)) return undefined;
    // Reached by a link of the tree's own (the project's link into a repository nested in it): its rule.
    const yours = shared ? await realpathOrSelf(home) : undefined;
    const treeLink = (folder: string) =>
      isWithin(folder, real) &&
      !isWithin(folder, root) &&
      !(yours !== undefined && isWithin(folder, yours));
    if (walked.linksIn.some(treeLink)) return undefined;
  }
  const tree = { root, kind: "repository" } as const;
  // Spelled by the name it was reached by, not its real path: the repository's link `out.md ->
  // .git/config` (or `gitdir -> .git`) on the way stays a link, refused by the door and the writer.
  // (A spelling that leaves the repository is refused by both as outside it.)
  const path = walked.spelled;
  return path === root ? { path, tree } : { path, within: root, tree };
}

/** {@link namedPlace} by the path's folders as written (and the links of the user's and the working project). */
async function placeAsWritten(
  path: string,
  o: { cwd: string; home: string; renderCwd?: string | undefined },
): Promise<NamedPlace> {
  const starts =
    o.renderCwd === undefined || o.renderCwd === o.cwd ? [o.cwd] : [o.cwd, o.renderCwd];
  for (const start of starts) {
    const found = await inProjectOf(path, start, o.home);
    if (found !== undefined) return found;
  }
  for (const start of starts) {
    const shared = await sharedFolder(path, start, o.home);
    if (shared !== undefined) return shared;
  }
  for (const start of starts) {
    const entered = await enteredRepository(path, start, o.home);
    if (entered !== undefined) return entered;
  }
  return { path };
}

/**
 * For a path into folders of the user's own ({@link sharedFolder} found none
 * to check it from: it leaves the working folder's project at the home
 * folder, above it, or at `/`): the first repository it enters as written on
 * its way down from the folder it shares with the working folder (a folder
 * holding a `.git` entry, or a bare git folder), when that is neither the
 * home folder nor a folder holding it (a dotfiles repository is the user's
 * own); a link below the home folder on the way ends the search (a
 * tarball's link may lead into a repository's git folder). A prompt kit
 * cloned at `~/prompt-kit` is a repository like any other:
 * `~/prompt-kit/base.md` is its file, checked (and read, through the door)
 * from its root down, so its committed link `base.md -> ../.ssh/id_rsa`, or
 * a folder link `out -> ../.config`, is refused, as it is for the same clone
 * at `~/work/kit2` beside the working folder's project.
 */
async function enteredRepository(
  path: string,
  start: string,
  home: string,
): Promise<NamedPlace | undefined> {
  const file = resolve(path);
  const from = commonFolder(dirname(file), resolve(start));
  const names = relative(from, file)
    .split(sep)
    .filter((n) => n !== "");
  const realHome = await realpathOrSelf(home);
  for (let i = 1; i <= names.length; i++) {
    const dir = join(from, ...names.slice(0, i));
    // A link that lies below the home folder (`~/dl/t/prompts/base`, a tarball's) may lead into a
    // repository's git folder; only the user's links (in the home folder, or above it) are followed.
    const linked = (await lstatKindOrMissing(dir).catch(() => undefined)) === "link";
    if (linked && !isWithin(resolve(home), dirname(dir))) return undefined;
    if (!(await isRepositoryRoot(dir))) continue;
    // The home folder's own repository (or one holding it) is the user's: their links are theirs.
    if (isWithin(resolve(home), dir) || isWithin(realHome, await realpathOrSelf(dir))) continue;
    const tree = { root: dir, kind: "repository" } as const;
    // The repository itself named (a folder of templates, a scenario folder): nothing above to check.
    return dir === file ? { path: file, tree } : { path: file, within: dir, tree };
  }
  return undefined;
}

/**
 * For a path out of the project of `start` (or with no `.git` around it: a
 * tarball, a zip, a copy, whose extent nothing tells): the deepest folder the
 * file's folder shares with `start`, so from `p/src`, `-o ../build/x.md` is
 * checked from `p` down, as it is from `p`. The path is also tried as each of
 * its existing folders leads (their real paths), and the deepest folder shared
 * that way wins: `~/work/build/x.md` with `~/work` a link of yours to `p` is
 * checked from `p`, not from your home folder. Undefined (only the file's own
 * folder is checked) when the shared folder is yours ({@link usersOwn}).
 */
async function sharedFolder(
  path: string,
  start: string,
  home: string,
): Promise<NamedPlace | undefined> {
  const file = resolve(path);
  const [realStart, realHome] = await Promise.all([realpathOrSelf(start), realpathOrSelf(home)]);
  const written = commonFolder(dirname(file), resolve(start));
  const real = await realpathOrSelf(written);
  const ownWritten = ownAsWritten(written, real, { start, realStart, home, realHome });
  // A folder that is no one's own as written (a tarball around your clone) never leads into a
  // repository of its own inside it (your clone in its `plugins/mine`), as none of its links does.
  const nested = treeAsWritten(written, real, { start, realStart, home, realHome })
    ? nestedClones(real)
    : undefined;
  // So does no link that lies in such a folder (`~/ws/prompts/base/…`, `~/ws` your link to it).
  const bars = nested === undefined ? [] : [nested];
  const ways = { start, realStart, home, realHome };
  let best = { path: file, within: written, real, asWritten: true };
  const top = parse(file).root;
  const names = file
    .slice(top.length)
    .split(sep)
    .filter((n) => n !== "");
  let parent = top;
  for (let i = 1; i < names.length; i++) {
    let real: string;
    try {
      real = await realpath(join(top, ...names.slice(0, i)));
    } catch {
      break; // missing (made below the shared folder) or unreadable: nothing further to follow
    }
    const tree = real === join(parent, names[i - 1] ?? "") ? undefined : treeOfLink(parent, ways);
    if (tree !== undefined) bars.push(nestedClones(tree));
    parent = real;
    const led = join(real, ...names.slice(i));
    const within = commonFolder(dirname(led), realStart);
    if (depth(within) <= depth(best.real)) continue;
    if ((await Promise.all(bars.map((bar) => bar(led)))).some((c) => c !== undefined)) continue;
    best = { path: led, within, real: within, asWritten: false };
  }
  const own = best.asWritten ? ownWritten : usersOwn(best.real, realStart, realHome);
  if (own) return undefined;
  // A repository around the working folder changes nothing: your clone in a tarball's
  // `services/` is no marker of the folders around it (see `namedProjectPath`).
  const tree = { root: best.within, kind: "shared" } as const;
  // The file's own folder holds the working folder: checked alone, as it must not be a link.
  return best.within === dirname(best.path)
    ? { path: best.path, tree }
    : { path: best.path, within: best.within, tree };
}

/**
 * The folder whose link a link lying in the real folder `folder` is, when that
 * is a tree's ({@link treeAsWritten}, for the folder it shares with the
 * working folder): E's `prompts/base` for E around your clone; undefined for
 * a link of the user's (`~/work`, in the home folder or a folder above).
 */
function treeOfLink(
  folder: string,
  o: { start: string; realStart: string; home: string; realHome: string },
): string | undefined {
  const shared = commonFolder(folder, o.realStart);
  return treeAsWritten(shared, shared, o) ? shared : undefined;
}

/**
 * {@link intoProject}, but a path whose real folders enter the project only by
 * a link that lies in a tree around it ({@link treeOfLink}) is not into it:
 * `~/ws/prompts/base/config`, `~/ws` your link to a workspace E around your
 * clone and E's `prompts/base` a link to the clone's `.git`, is E's (its link
 * into a clone nested in it refused), not your clone's `.git/config`. A link of
 * yours to the checkout (`~/work` leading to `/data/work`) keeps it in.
 */
export async function intoProjectAsNamed(
  path: string,
  reach: Pick<Reach, "root" | "realRoot">,
  o: { start: string; home: string },
): Promise<string | undefined> {
  const into = await intoProject(path, reach);
  if (into === undefined || isWithin(path, reach.root)) return into;
  const [realStart, realHome] = await Promise.all([
    realpathOrSelf(o.start),
    realpathOrSelf(o.home),
  ]);
  const ways = { start: o.start, realStart, home: o.home, realHome };
  const top = parse(path).root;
  const names = path
    .slice(top.length)
    .split(sep)
    .filter((n) => n !== "");
  let parent = top;
  for (let i = 1; i < names.length; i++) {
    const real = await realpathOrSelf(join(top, ...names.slice(0, i)));
    if (isWithin(real, reach.realRoot)) {
      const linked = real !== join(parent, names[i - 1] ?? "");
      return linked && treeOfLink(parent, ways) !== undefined ? undefined : into;
    }
    parent = real;
  }
  return into;
}

/**
 * Whether `path`, out of the project rooted at `root` as it is written, leaves
 * it into a folder around the working folder `start` that is not the user's
 * own (see {@link sharedFolder}) and does not hold the home folder
 * ({@link treeAsWritten}): then it is that folder's file, whatever its real
 * path is. From your clone in a tarball's `plugins/mine`,
 * `../../prompts/base/config` with the tarball's `prompts/base` a link to your
 * clone's `.git` is the tarball's file (a link into a clone of yours, refused),
 * not your clone's `.git/config`; a path that leaves it only at a folder of
 * yours (`~/work/p/x.md` with `~/work` your link to the checkout) is decided on
 * its real folders.
 */
export async function leavesIntoTree(
  path: string,
  o: { root: string; start: string; home: string },
): Promise<boolean> {
  const file = resolve(path);
  if (isWithin(file, resolve(o.root))) return false;
  const written = commonFolder(dirname(file), resolve(o.start));
  const [real, realStart, realHome] = await Promise.all([
    realpathOrSelf(written),
    realpathOrSelf(o.start),
    realpathOrSelf(o.home),
  ]);
  return treeAsWritten(written, real, { start: o.start, realStart, home: o.home, realHome });
}

/**
 * Whether a path that leaves the working folder's project at `written` (real
 * path `real`) is that folder's as written: it is not the user's own, nor
 * does it hold the home folder (`/home` around `/home/you/work`, your link to
 * `/home/team/p`: what its real folders say, as for an absolute or `~` path
 * into such a folder a read takes it).
 */
function treeAsWritten(
  written: string,
  real: string,
  o: { start: string; realStart: string; home: string; realHome: string },
): boolean {
  if (ownAsWritten(written, real, o)) return false;
  return !(isWithin(resolve(o.home), written) || isWithin(o.realHome, real));
}

/** Whether the folder a path shares with the working folder as written (`written`, real path `real`) is the user's own. */
function ownAsWritten(
  written: string,
  real: string,
  o: { start: string; realStart: string; home: string; realHome: string },
): boolean {
  return (
    usersOwn(real, o.realStart, o.realHome) || usersOwn(written, resolve(o.start), resolve(o.home))
  );
}

/**
 * Whether folders from `shared` down are the user's own, not a project's: the
 * file system's root, or the home folder and what lies above it when the
 * working folder is in the home folder (`~/notes/x.md` from `~/dl/p/src`). A
 * folder that holds the home folder beside the working folder (`p` with
 * `HOME=p/.home`, as a CI job or debhelper sets it) is not: a tarball there
 * may have put its own links beside its `.home`.
 */
function usersOwn(shared: string, start: string, home: string): boolean {
  if (parse(shared).root === shared) return true;
  return isWithin(home, shared) && isWithin(start, home);
}

/** The deepest folder holding both `a` and `b` (absolute, resolved); on Windows, another drive's: its root. */
function commonFolder(a: string, b: string): string {
  let shared = b;
  while (!isWithin(a, shared) && dirname(shared) !== shared) shared = dirname(shared);
  return shared;
}

/** How many names deep a resolved path is. */
const depth = (path: string) => path.split(sep).filter((n) => n !== "").length;

/** {@link outputTarget} for the project of one working folder, or undefined when `path` is not into it. */
async function inProjectOf(
  path: string,
  start: string,
  home: string,
): Promise<NamedPlace | undefined> {
  const under = path !== start && isWithin(path, start) ? { path, within: start } : undefined;
  const reach = await outermostReach(start, home);
  // The home folder's project (a dotfiles repository, or none: the home folder itself) stands
  // for your own folders; a repository named in them is its own (`~/prompt-kit/base.md` from `~`).
  if (reach.home !== undefined || reach.excluded.length > 0)
    return under && ((await enteredRepository(path, start, home)) ?? under);
  // Out of it as written into a tree around it: that tree's path (see `sharedFolder`).
  if (await leavesIntoTree(path, { root: reach.root, start, home })) return under;
  const into = await intoProjectAsNamed(path, reach, { start, home });
  if (into === undefined) return under;
  const within = isWithin(into, reach.root) ? reach.root : reach.realRoot;
  // The root itself is a folder, not a file to write: refused as one, without a `within`.
  return into === within
    ? under
    : { path: into, within, tree: { root: within, kind: "repository" } };
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
  const reach = await projectReach({ start, home, trusted: true, root, signal: NO_DEADLINE });
  if (reach.root === root || dirname(root) === root || !(await holdsGit(root))) return reach;
  const [realRoot, realHome] = await Promise.all([realpathOrSelf(root), realpathOrSelf(home)]);
  const below = (h: string, r: string) => h !== r && isWithin(h, r);
  const homeBelow = below(resolve(home), resolve(root)) || below(realHome, realRoot);
  return homeBelow
    ? { root, realRoot, excluded: [], nested: nestedClones(realRoot), planted: reach.planted }
    : reach;
}
