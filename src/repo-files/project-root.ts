import { dirname, join, sep } from "node:path";
import {
  kindOfStats,
  lstatKindOrMissing,
  type Owner,
  ownerOrMissing,
  ownerOrMissingSync,
  realpath,
  type StatKind,
  statKind,
  statOrUndefinedSync,
} from "../_io.js";
import { othersWrite } from "../_others-write.js";
import { nextTurn } from "../_pace.js";
import { isBelowCeiling, isWithin, toPosix } from "../_paths.js";
import type { Diagnostic } from "../types.js";
import { gitDirNamed, isUsableGitFolder, namesBack } from "./git-file.js";
import { isForeignMarkerOwner } from "./owner.js";
import { namedSafeDirectory } from "./safe-directory.js";

/**
 * The project root of `dir`: its nearest ancestor (itself included) that is a
 * repository's top ({@link holdsRepository}: a `.git` entry, a folder, or the
 * file of a worktree or submodule; or the top of another version-control
 * system's working copy, {@link OTHER_CLONES}), else `dir` itself: a repository below another is
 * a root of its own for confinement, and only takes away, since the
 * repositories around one git does not know keep their ignore rules in it
 * (`enclosingRepositories`, read by `privatePaths`). `dir` must be absolute. With
 * `ceiling` (a folder at or above `dir`), no folder above it is looked at, as
 * git's GIT_CEILING_DIRECTORIES. With `signal`, the walk stops (rejects with
 * its reason) once it has fired. Two walks: the nearest `.git` first, one
 * name a folder, then the other kinds' in the folders below it only.
 */
export async function findProjectRoot(
  dir: string,
  ceiling?: string,
  signal?: AbortSignal,
  refused?: RefusedRootMarker[],
): Promise<string> {
  const git = await nearestHolding(dir, (d) => holdsGitRoot(d, refused), ceiling, signal);
  const other = (d: string) => holdsOtherCloneRoot(d, refused);
  return (await nearestHolding(dir, other, ceiling, signal, git)) ?? git ?? dir;
}

/** A repository marker the project-root search passed over ({@link ownsRootMarker}), and why. */
export interface RefusedRootMarker {
  /** The folder holding it. */
  dir: string;
  /** `.git`, `.hg`, … */
  marker: string;
  /** The marker or its folder is another user's, or the folder is one other users may write to (its other bits, or a group not yours alone). */
  reason: "foreign-owner" | "world-writable" | "group-writable";
  /** For `group-writable`: the folder's group. */
  gid?: number;
}

/**
 * What a root search that passed over a marker leaves out of its folder, as
 * measured (review rev64f F1): with no root of yours found above it, the
 * rule files of other agents and the `.agents`/`.claude` skills of the
 * folders from it down to the working folder's parent (the working folder's
 * own are read, its context files too, as every ancestor's); the context
 * files of it and below are read within another project than its own.
 */
export type RootMarkerLoss = "rules" | "skills" | "context" | "hgignore";

/** What each loss names, in this order in the warning: of the marker's folder and those down to cwd's parent. */
const LOST_WORDS: Partial<Record<RootMarkerLoss, string>> = {
  rules: "other agents' rule files (`.cursor/rules`, …)",
  skills: "the skills of `.agents/skills` and `.claude/skills`",
};

/** A passed-over marker as a search says it: what it took away, and the root found above it (none: undefined). */
interface RefusalSaid {
  marker: RefusedRootMarker;
  losses: Set<RootMarkerLoss>;
  above: string | undefined;
}

/** The warnings {@link rootMarkerRefusedDiagnostics} made, by object: what {@link mergeRootMarkerRefusals} joins. */
const said = new WeakMap<Diagnostic, RefusalSaid>();

/**
 * The warnings for the markers a root search passed over, one per folder:
 * its folder is no project root, why, and what `loss` the search takes away
 * for it (`above`: the root it found above them instead, none: undefined). A
 * render says each folder once, the losses of every search joined
 * ({@link mergeRootMarkerRefusals}): a clone of yours on a 0777 mount (WSL's
 * /mnt/c, vfat), or another user's, must not lose what it loses with no word
 * (review rev61c F2), nor be told it loses what is still read (rev64f F1).
 */
export function rootMarkerRefusedDiagnostics(
  refused: readonly RefusedRootMarker[],
  loss: RootMarkerLoss,
  above?: string,
): Diagnostic[] {
  const told = new Set<string>();
  const out: Diagnostic[] = [];
  for (const marker of refused) {
    if (told.has(marker.dir)) continue;
    told.add(marker.dir);
    out.push(refusalDiagnostic({ marker, losses: new Set([loss]), above }));
  }
  return out;
}

function refusalDiagnostic(r: RefusalSaid): Diagnostic {
  const { dir, marker, reason } = r.marker;
  const why =
    reason === "world-writable"
      ? "anyone may write to its folder (mode o+w) and may have put it there: `chmod o-w` the folder (on WSL's /mnt/c or vfat, mount with a umask that leaves out o+w)"
      : reason === "group-writable"
        ? `other users may write to its folder (group-writable, gid ${r.marker.gid}, a group not yours alone) and may have put it there: \`chmod g-w\` the folder, or give it a group of yours alone`
        : "it or its folder is another user's (not yours or root's) and no `safe.directory` of your system or global git config names the folder: name it there if you trust it, or work from a clone of your own";
  const lost = (Object.keys(LOST_WORDS) as RootMarkerLoss[])
    .filter((l) => r.losses.has(l))
    .map((l) => LOST_WORDS[l]);
  const notRead =
    lost.length === 0
      ? ""
      : ` Not read from it down to the working folder's parent: ${lost.join(" and ")}.`;
  // A `.hg`'s `.hgignore` hides nothing (rev82a F2): said, as nothing of it is lost.
  const hgignore = r.losses.has("hgignore") ? " Its `.hgignore` hides nothing of the project." : "";
  const stillRead = !r.losses.has("context")
    ? ""
    : r.above === undefined
      ? " Its `AGENTS.md` and those below are read, each confined to its own folder (an `@import` into another folder of it is refused)."
      : ` Its \`AGENTS.md\` and those below are read as files of ${toPosix(r.above)}, the project root above it.`;
  const d: Diagnostic = {
    level: "warning",
    code: "root-marker-refused",
    path: dir,
    message: `${toPosix(join(dir, marker))} makes no project root: ${why}.${notRead}${hgignore}${stillRead}`,
  };
  said.set(d, r);
  return d;
}

/**
 * `diagnostics` with the `root-marker-refused` warnings of one folder made
 * one, at the first one's place, naming what every search that passed over
 * the marker took away: the one warning a render gives a folder.
 */
export function mergeRootMarkerRefusals(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const first = new Map<string, { at: number; r: RefusalSaid }>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const r = d.code === "root-marker-refused" ? said.get(d) : undefined;
    const key = d.code === "root-marker-refused" ? d.path : undefined;
    const seen = key === undefined ? undefined : first.get(key);
    if (key === undefined || seen === undefined) {
      if (key !== undefined && r !== undefined) first.set(key, { at: out.length, r });
      out.push(d);
      continue;
    }
    // The same folder again: its losses joined into the first warning (one made elsewhere is dropped).
    if (r === undefined) continue;
    const joined: RefusalSaid = {
      marker: seen.r.marker,
      losses: new Set([...seen.r.losses, ...r.losses]),
      above: seen.r.above ?? r.above,
    };
    seen.r = joined;
    out[seen.at] = refusalDiagnostic(joined);
  }
  return out;
}

/**
 * Whether `dir` lies in a repository: a folder from it up (to `ceiling`) is a
 * repository's top ({@link holdsRepository}), as `findProjectRoot(dir)` finding
 * one says, at a name a folder where a `.git` is found (a working folder
 * hundreds deep in a checkout), the other kinds asked only where none is.
 */
export async function insideRepository(
  dir: string,
  ceiling?: string,
  signal?: AbortSignal,
): Promise<boolean> {
  if ((await nearestHolding(dir, holdsGitRoot, ceiling, signal)) !== undefined) return true;
  return (await nearestHolding(dir, holdsOtherCloneRoot, ceiling, signal)) !== undefined;
}

/** The nearest folder from `dir` up (to `ceiling`, and below `stop`) that `test` says yes of. */
async function nearestHolding(
  dir: string,
  test: (dir: string) => Promise<boolean>,
  ceiling: string | undefined,
  signal: AbortSignal | undefined,
  stop?: string,
): Promise<string | undefined> {
  let current = dir;
  for (;;) {
    if (current === stop) return undefined;
    const turn = nextTurn(signal);
    if (turn) await turn;
    if (await test(current)) return current;
    const up = dirname(current);
    if (up === current || !isBelowCeiling(up, ceiling)) return undefined;
    current = up;
  }
}

/**
 * True when `dir` is a project root the search from a folder below may stop
 * at: a repository's top ({@link holdsRepository}) whose marker is yours
 * ({@link ownsRootMarker}). What every search up for the project root asks
 * (`findProjectRoot`, the context chain's, touch's, the skills roots').
 */
export async function holdsProjectRoot(
  dir: string,
  refused?: RefusedRootMarker[],
): Promise<boolean> {
  return (await holdsGitRoot(dir, refused)) || (await holdsOtherCloneRoot(dir, refused));
}

/** {@link holdsProjectRoot} of a `.git` alone. */
export async function holdsGitRoot(dir: string, refused?: RefusedRootMarker[]): Promise<boolean> {
  return (await holdsGit(dir)) && (await ownsRootMarker(dir, ".git", refused));
}

async function holdsOtherCloneRoot(dir: string, refused?: RefusedRootMarker[]): Promise<boolean> {
  const marker = await otherCloneMarker(dir);
  return marker !== undefined && (await ownsRootMarker(dir, marker, refused));
}

/**
 * Whether the repository marker `marker` (`.git`, `.hg`, …) in `dir` may make
 * `dir` a project root, as git's `safe.directory` ownership check lets a
 * repository be used: the marker (a link's own owner, as it lies) and `dir`
 * belong to you or root (or `dir` is a `.git`'s folder your git config's
 * `safe.directory` names, {@link namedSafeDirectory}: git's repository then),
 * and `dir` is no folder other users may write to ({@link othersWrite}). Another
 * user's `/tmp/.git` (or an empty `/tmp/.hg`) would make `/tmp` the root of
 * every plain folder below it, and its rule files and skills the prompt's
 * (review rev60a F1): the search goes on above it as if it were absent. Not
 * asked where a marker only takes away (a repository nested below a root).
 */
async function ownsRootMarker(
  dir: string,
  marker: string,
  refused?: RefusedRootMarker[],
): Promise<boolean> {
  const [entry, folder] = await Promise.all([
    ownerOrMissing(join(dir, marker), false).catch(() => undefined),
    ownerOrMissing(dir, true).catch(() => undefined),
  ]);
  // Another user's `.git` that your git config's safe.directory names is git's repository, and yours.
  const safe =
    marker === ".git" &&
    entry !== undefined &&
    folder !== undefined &&
    (isForeignMarkerOwner(entry.uid) || isForeignMarkerOwner(folder.uid)) &&
    (await namedSafeDirectory(dir));
  return markerOwned(dir, marker, entry, folder, refused, safe);
}

/**
 * {@link ownsRootMarker}'s verdict on the owners found (the marker's, its
 * folder's): one rule for both twins. `safe`: your git config's
 * safe.directory names `dir` (asked by the door only; its synchronous twin
 * does not read your git config, and refuses such a marker).
 */
function markerOwned(
  dir: string,
  marker: string,
  entry: Owner | undefined,
  folder: Owner | undefined,
  refused?: RefusedRootMarker[],
  safe = false,
): boolean {
  if (entry === undefined || folder === undefined) return false;
  const foreign = (isForeignMarkerOwner(entry.uid) || isForeignMarkerOwner(folder.uid)) && !safe;
  const how = foreign ? undefined : othersWrite(folder);
  if (foreign) refused?.push({ dir, marker, reason: "foreign-owner" });
  else if (how === "world-writable") refused?.push({ dir, marker, reason: how });
  else if (how !== undefined)
    refused?.push({ dir, marker, reason: "group-writable", gid: folder.gid });
  return !foreign && how === undefined;
}

/**
 * Synchronous twin of {@link findProjectRoot} (the door's synchronous twin's
 * reach): the nearest `.git` of yours ({@link ownsRootMarker}), then the other
 * kinds' markers below it, the same look-ups without a promise (review rev64a
 * F2: it took any `.git` entry, another user's `/tmp/.git` too).
 */
export function findProjectRootSync(dir: string, ceiling?: string): string {
  const git = nearestHoldingSync(dir, (d) => holdsRootSync(d, gitMarkerSync(d)), ceiling);
  const other = (d: string) => holdsRootSync(d, otherCloneMarkerSync(d));
  return nearestHoldingSync(dir, other, ceiling, git) ?? git ?? dir;
}

function nearestHoldingSync(
  dir: string,
  test: (dir: string) => boolean,
  ceiling: string | undefined,
  stop?: string,
): string | undefined {
  for (let current = dir; current !== stop; ) {
    if (test(current)) return current;
    const up = dirname(current);
    if (up === current || !isBelowCeiling(up, ceiling)) return undefined;
    current = up;
  }
  return undefined;
}

function holdsRootSync(dir: string, marker: string | undefined): boolean {
  if (marker === undefined) return false;
  const entry = ownerOrMissingSync(join(dir, marker), false);
  return markerOwned(dir, marker, entry, ownerOrMissingSync(dir, true));
}

function gitMarkerSync(dir: string): string | undefined {
  return statOrUndefinedSync(join(dir, ".git"), false) === undefined ? undefined : ".git";
}

/** True when `dir` holds a `.git` entry of any kind. */
export async function holdsGit(dir: string): Promise<boolean> {
  // The kind alone: git adds entries to .git with every command, which must not look like a change.
  const kind = await lstatKindOrMissing(`${dir}${dir.endsWith(sep) ? "" : sep}.git`).catch(
    // A parent we may not search: no `.git` here either.
    () => undefined,
  );
  return kind !== undefined;
}

/**
 * True when `dir` holds a `.git` git itself would take for a repository's
 * (as its walk of a work tree tells a nested repository): a git folder git
 * uses ({@link isUsableGitFolder}: a `HEAD` naming `refs/…` or an object id,
 * and `objects/` and `refs/`, here or where its `commondir` says), a link to
 * one, or a regular `.git` file whose one `gitdir:` line (relative to `dir`,
 * a bounded read) names one. An empty file, a link that leads nowhere, an
 * empty folder, a `gitdir:` naming nothing, a `HEAD` of other bytes or an
 * empty `commondir` (a Mercurial clone or a tarball can ship any of them) is
 * no repository to git: the rules of the repositories around
 * `dir` still hold in it ({@link holdsGit} still makes it a root of its own,
 * which only takes away).
 */
export async function holdsUsableGit(dir: string): Promise<boolean> {
  if (!(await holdsGit(dir))) return false;
  const named = await gitDirNamed(join(dir, ".git"), dir);
  return named.ok && (await isUsableGitFolder(named.path));
}

/**
 * True when `dir` is a repository's top: it holds a `.git` entry
 * ({@link holdsGit}), or is a working copy of another version-control system
 * ({@link holdsOtherClone}), whose folders are its own as a clone's are. What
 * a repository nested below a root is told by (the nearest project root of a
 * folder is found by {@link holdsProjectRoot}); whether that root is a git
 * repository (its `.gitignore`, its submodules) is {@link holdsGit}'s. The
 * other kinds are looked up only where there is no `.git`.
 */
export async function holdsRepository(dir: string): Promise<boolean> {
  return (await holdsGit(dir)) || (await holdsOtherClone(dir));
}

/**
 * What another version-control system keeps at the top of a working copy, and
 * the kind it must be (any, where none is named): Mercurial's `.hg` folder,
 * Subversion's `.svn` (1.7 on: one, at the top), a Jujutsu clone's `.jj`
 * holding `repo` (a folder; a file naming the repository, in a workspace
 * added to it), Sapling's `.sl`, Bazaar's (and Breezy's) `.bzr`, Pijul's
 * `.pijul` and Darcs' `_darcs` folders, and Fossil's check-out database, a
 * file named `.fslckout`, `_FOSSIL_` or (older) `.fos`. A colocated Jujutsu
 * clone, and an `hg-git` or `git-svn` mirror, hold a `.git` as well. The one
 * list of such kinds: a kind added here is a repository of its own below a
 * root ({@link holdsOtherClone}), which only takes away. `follows`: a link to
 * the kind counts too, as the tool follows one.
 */
const OTHER_CLONES: readonly OtherClone[] = [
  // Mercurial finds its repository with `os.path.isdir(".hg")`, which follows a link (rev71a F6).
  { path: ".hg", kind: "dir", follows: true },
  { path: join(".jj", "repo") },
  { path: ".svn", kind: "dir" },
  { path: ".sl", kind: "dir" },
  { path: ".bzr", kind: "dir" },
  { path: ".pijul", kind: "dir" },
  { path: "_darcs", kind: "dir" },
  // Fossil opens its database through a link too.
  { path: ".fslckout" },
  { path: "_FOSSIL_" },
  { path: ".fos" },
];

/**
 * True when `dir` is the top of a working copy of another version-control
 * system ({@link OTHER_CLONES}): never a git submodule or worktree of a root
 * around it, so a repository of its own below one. One `lstat` a kind; the
 * kind alone is noted, as {@link holdsGit} notes it.
 */
export async function holdsOtherClone(dir: string): Promise<boolean> {
  return (await otherCloneMarker(dir)) !== undefined;
}

interface OtherClone {
  readonly path: string;
  readonly kind?: StatKind;
  readonly follows?: true;
}

/** Whether `dir` holds the marker `c` (one `lstat`, and a `stat` of a link `c` follows). */
async function holdsMarker(dir: string, c: OtherClone): Promise<boolean> {
  const path = join(dir, c.path);
  let kind = await lstatKindOrMissing(path).catch(() => undefined);
  if (kind === "link" && c.follows) kind = await statKind(path).catch(() => undefined);
  return kind !== undefined && (c.kind ?? kind) === kind;
}

/** The first marker of {@link OTHER_CLONES} `dir` holds, undefined when none. */
async function otherCloneMarker(dir: string): Promise<string | undefined> {
  const held = await Promise.all(OTHER_CLONES.map((c) => holdsMarker(dir, c)));
  return OTHER_CLONES.find((_, i) => held[i])?.path;
}

/**
 * True when `dir` is a Mercurial working copy's top: its `.hg` marker of
 * {@link OTHER_CLONES} (a folder, or a link to one). Where its `.hgignore` is
 * read (`hgIgnoreAround`).
 */
export function holdsHgWorkingCopy(dir: string): Promise<boolean> {
  return holdsMarker(dir, OTHER_CLONES[0] as OtherClone);
}

/**
 * {@link holdsHgWorkingCopy}, its marker judged as a project root's is
 * ({@link ownsRootMarker}, the one rule): another user's `.hg`, or one in a
 * folder other users may write to (`/tmp/.hg`), marks no working copy of
 * yours, its `.hgignore` hides nothing, and `refused` gets it, said as a
 * `root-marker-refused` warning (review rev82a F2: another user's `/tmp/.hg`
 * and `.hgignore` hid a project's nested `AGENTS.md` with no word).
 */
export async function holdsOwnHgWorkingCopy(
  dir: string,
  refused?: RefusedRootMarker[],
): Promise<boolean> {
  if (!(await holdsHgWorkingCopy(dir)) || !(await ownsRootMarker(dir, ".hg", refused)))
    return false;
  // A `.hg` link: the folder it leads to is judged too (stat, not lstat), as another user's
  // `.hg` reached through your link is no copy of yours (decided, review rev82e F4).
  const kind = await lstatKindOrMissing(join(dir, ".hg")).catch(() => undefined);
  if (kind !== "link") return true;
  const target = await ownerOrMissing(join(dir, ".hg"), true).catch(() => undefined);
  if (target !== undefined && !isForeignMarkerOwner(target.uid)) return true;
  refused?.push({ dir, marker: ".hg", reason: "foreign-owner" });
  return false;
}

/** Synchronous twin of {@link holdsRepository}. */
export function holdsRepositorySync(dir: string): boolean {
  return gitMarkerSync(dir) !== undefined || holdsOtherCloneSync(dir);
}

/** Synchronous twin of {@link holdsOtherClone}. */
export function holdsOtherCloneSync(dir: string): boolean {
  return otherCloneMarkerSync(dir) !== undefined;
}

/** Synchronous twin of {@link otherCloneMarker}. */
function otherCloneMarkerSync(dir: string): string | undefined {
  return OTHER_CLONES.find((c) => {
    const path = join(dir, c.path);
    let stats = statOrUndefinedSync(path, false);
    if (stats?.isSymbolicLink() && c.follows) stats = statOrUndefinedSync(path, true);
    return stats !== undefined && (c.kind === undefined || kindOfStats(stats) === c.kind);
  })?.path;
}

/**
 * The repository the one at `root` (a folder holding a `.git`) is part of:
 * while its git folder lies inside the git folder of the nearest repository
 * around it (a submodule's `.git` file into `p/.git/modules/…`, a worktree
 * made in `p/.git/worktrees/…`), that repository, outward; else `root`. A
 * nested clone (a `.git` folder of its own) and a worktree of a repository
 * elsewhere are their own. Compared as written and by real path; a `.git`
 * that cannot be read (a link, a file that names no folder) stops the walk.
 */
export async function owningRepository(root: string): Promise<string> {
  let inner = root;
  for (;;) {
    const up = dirname(inner);
    if (up === inner) return inner;
    const outer = await findProjectRoot(up);
    if (!(await holdsGit(outer)) || !(await gitFolderWithin(inner, outer))) return inner;
    inner = outer;
  }
}

/**
 * Whether the git folder of the repository at `root` lies inside that of the
 * repository at `other` (a submodule's, or a worktree's made from it,
 * wherever the worktree is), as written or by real path.
 */
export async function gitFolderWithin(root: string, other: string): Promise<boolean> {
  const [own, around] = await Promise.all([gitFolders(root), gitFolders(other)]);
  return own.some((dir) => around.some((o) => dir !== o && isWithin(dir, o)));
}

/**
 * {@link gitFolderWithin}, when the git folder of `root` also names `root`
 * back ({@link namesBack}: a worktree's `gitdir` file, a submodule's
 * `core.worktree`), as git writes them: a repository at `root` made from the
 * one at `other`, wherever it lies. A `.git` a tree wrote itself (`gitdir:
 * ~/.git/modules/w`, a link to `~/.git/hooks`) does not make it one.
 */
export async function madeFrom(root: string, other: string): Promise<boolean> {
  if (!(await gitFolderWithin(root, other))) return false;
  return (await gitFolders(root)).some((dir) => namesBack(dir, join(root, ".git")));
}

/** The git folder `root`'s `.git` names, as written and by real path; none when it names none. */
export async function gitFolders(root: string): Promise<string[]> {
  const named = await gitDirNamed(join(root, ".git"), root);
  if (!named.ok) return [];
  const real = await realpath(named.path).catch(() => named.path);
  return real === named.path ? [named.path] : [named.path, real];
}
