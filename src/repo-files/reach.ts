import type { Stats } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { isWithin, leavesFolder, toPosix } from "../_paths.js";
import type { Diagnostic } from "../types.js";
import { namesRefusal } from "./door-checks.js";
import { type NestedCheck, nestedCloneSync, nestedClones } from "./nested-clone.js";
import { type PlantedCheck, plantedCheck } from "./planted.js";
import { type PrivatePathCheck, privatePaths } from "./private-paths.js";
import { findProjectRoot, type RefusedRootMarker } from "./project-root.js";

/** Says when a path is one of an untrusted project's private files (`.git/`, hidden, ignored). */
export type PrivateCheck = PrivatePathCheck;

/**
 * Where a repository file may lead: the project it belongs to. Built once per
 * project by {@link projectReach}; the door ({@link readRepoText} and its
 * twins) checks every read against it.
 */
export interface Reach {
  /** The project root as written, for messages. */
  root: string;
  /** Its real path: a file's real path must lie inside. */
  realRoot: string;
  /** Real folders inside the root that stay out of reach: the home folder, when the root holds it. */
  excluded: readonly string[];
  /**
   * The real home folder, when it is the root itself: its hidden entries
   * (`~/.ssh`, `~/.aws`, `~/.bashrc`) are out of reach through a link or a
   * path written in a file; a file found at its own name there is read.
   */
  home?: string;
  /**
   * The repositories of their own below the root (a clone made inside it, not
   * a submodule or a worktree of it): out of reach through a link or a path
   * written in a file, trusted or not ({@link nestedClones}).
   */
  nested: NestedCheck;
  /**
   * Another user's entry on a file's real path, in a folder anyone may write
   * to (`ww/.pi/` in a 1777 `ww`): refused, trusted or not, with each folder's
   * owner asked once for this reach ({@link plantedCheck}).
   */
  planted: PlantedCheck;
  /** An untrusted project's private files: not read through a link or a path written in a file. */
  isPrivate?: PrivateCheck;
  /**
   * A checkout a file of yours leads into that is not the render's project
   * (`checkoutReach`): its private files are refused in words naming it,
   * never with advice to trust the project (review rev109a F2).
   */
  notTheProject?: true;
}

export interface ReachOptions {
  /** The folder the reading starts from (cwd, or the folder a context file was found in). */
  start: string;
  /** The home folder. */
  home: string;
  /** False: the project's private files are refused ({@link Reach.isPrivate}). */
  trusted: boolean;
  /** No folder above this one is looked at for `.git`. */
  ceiling?: string | undefined;
  /** The project root when the caller found it already (else found as git does). */
  root?: string;
  /**
   * Stops the search for the root and an untrusted project's private-path
   * checks ({@link privatePaths}) once it fires. Required: the render's or
   * the command's signal, or {@link NO_DEADLINE} by name where the work is
   * bounded some other way.
   */
  signal: AbortSignal;
  /** Given: the markers the search for the root passed over are added to it. */
  refused?: RefusedRootMarker[];
}

/**
 * The reach of the project holding `start`. The root is found as git finds
 * it (the nearest folder with `.git`, else `start` itself). The home-folder
 * rule: a root that is the home folder or holds it (a dotfiles repository; a
 * folder in `~/Downloads` under a home that is a git work tree; `/`) is
 * narrowed to `start` itself. If `start` is then still above the home folder,
 * the home folder is excluded whole; if it is the home folder, the home's
 * hidden entries are out of reach except by their own name (see
 * {@link Reach.home}).
 */
export async function projectReach(o: ReachOptions): Promise<Reach> {
  const found = o.root ?? (await findProjectRoot(o.start, o.ceiling, o.signal, o.refused));
  const reach = reachOf({
    start: o.start,
    realStart: await realpathOrSelf(o.start),
    found,
    realFound: await realpathOrSelf(found),
    home: o.home,
    realHome: await realpathOrSelf(o.home),
  });
  return o.trusted
    ? reach
    : { ...reach, isPrivate: privatePaths(reach.realRoot, { signal: o.signal, home: o.home }) };
}

/** The home-folder rule of {@link projectReach}, on paths already resolved. */
export function reachOf(p: {
  start: string;
  realStart: string;
  found: string;
  realFound: string;
  home: string;
  realHome: string;
  /** The nested-repository check of a real root, when the caller keeps one per root. */
  nested?: (realRoot: string) => NestedCheck;
  /** The owner check, when the caller shares one between reaches. */
  planted?: PlantedCheck;
}): Omit<Reach, "isPrivate"> {
  const homes = [...new Set([resolve(p.home), p.realHome])];
  const holds = (dir: string, real: string) =>
    homes.some((h) => isWithin(h, dir) || isWithin(h, real));
  const narrowed = holds(p.found, p.realFound);
  const root = narrowed ? p.start : p.found;
  const realRoot = narrowed ? p.realStart : p.realFound;
  const isHome = homes.some((h) => h === root || h === realRoot);
  const excluded = !isHome && holds(root, realRoot) ? homes : [];
  const nested = p.nested?.(realRoot) ?? nestedClones(realRoot);
  const planted = p.planted ?? plantedCheck();
  return { root, realRoot, excluded, ...(isHome ? { home: p.realHome } : {}), nested, planted };
}

/** One folder, its project root as found (the nearest folder with `.git`), and their real paths. */
export interface FolderInProject {
  dir: string;
  real: string;
  root: string;
  realRoot: string;
}

/**
 * The reach of each folder given, in its own project: {@link reachOf}'s
 * home-folder rule on the folder and the root found for it, and for an
 * untrusted project its private files, with one checker per project (each
 * `.gitignore` read once). What a render's context files and the files
 * given on touch are both checked against: a file is its own project's,
 * never the project of the folder the session started in.
 */
export function folderReaches(o: {
  home: string;
  realHome: string;
  trusted: boolean;
  /** As {@link ReachOptions.signal}: required. */
  signal: AbortSignal;
}): (folder: FolderInProject) => Reach {
  const checkers = new Map<string, PrivateCheck>();
  const nested = new Map<string, NestedCheck>();
  const planted = plantedCheck();
  const nestedOf = (realRoot: string) => {
    let check = nested.get(realRoot);
    if (check === undefined) {
      check = nestedClones(realRoot);
      nested.set(realRoot, check);
    }
    return check;
  };
  return (f) => {
    const reach = reachOf({
      start: f.dir,
      realStart: f.real,
      found: f.root,
      realFound: f.realRoot,
      home: o.home,
      realHome: o.realHome,
      nested: nestedOf,
      planted,
    });
    if (o.trusted) return reach;
    let isPrivate = checkers.get(reach.realRoot);
    if (isPrivate === undefined) {
      isPrivate = privatePaths(reach.realRoot, { signal: o.signal, home: o.home });
      checkers.set(reach.realRoot, isPrivate);
    }
    return { ...reach, isPrivate };
  };
}

/** Why a file may not be read, as a diagnostic's code and words (after "not read: "). */
export interface Refusal {
  reason: "outside" | "private" | "foreign";
  code: "file-outside-project" | "file-private" | "file-foreign-owner";
  message: string;
  /** The folder the refusal is about, when not the file (a planted folder): the warning is said there. */
  at?: string;
}

/**
 * The check of one file against its reach, from its path as found (or as
 * written in a file, `named`) and its real path. Undefined: it may be read.
 */
export async function reachRefusal(
  path: string,
  real: string,
  reach: Reach,
  named: boolean,
): Promise<Refusal | undefined> {
  const where = placedRefusal(path, real, reach, named);
  if (where !== undefined || !led(path, real, reach, named)) return where;
  const clone = await reach.nested(real);
  if (clone !== undefined) return nestedRefusal(real, clone, reach);
  if (!reach.isPrivate) return undefined;
  const secret = (await reach.isPrivate(real)) ?? (named ? await reach.isPrivate(path) : undefined);
  if (!secret) return undefined;
  return {
    reason: "private",
    code: "file-private",
    message: reach.notTheProject
      ? checkoutPrivateWords(reach.root, secret)
      : `the project is not trusted and it resolves to ${secret.rel}, which is ${secret.why}; trust the project to read it`,
  };
}

/**
 * The words of a refusal of a private file of a checkout a file of yours led
 * into, one that is not the render's project (`/srv/app/.env` linked or
 * imported from a kit): named after the checkout (review rev109a F2).
 */
export function checkoutPrivateWords(root: string, secret: { rel: string; why: string }): string {
  return `it leads to ${secret.rel}, a private file of the checkout ${toPosix(root)} (${secret.why}), which is not the project rendered: a file of yours brings no other checkout's private files into a prompt`;
}

/**
 * The door's verdict on a file a listing found (`path`, its real path `real`,
 * `s` the stat of what it names), in the door's order: where it leads
 * ({@link reachRefusal}: a link out of the project, a private file, a clone)
 * before its number of names ({@link namesRefusal}), as the door asks where
 * before it opens and counts names after. A link out of the project to a file
 * of yours with several names (`sub/AGENTS.md -> ~/.bashrc`, a `~/.bashrc`
 * linked elsewhere too) is refused as the link out it is, not with advice to
 * copy your file in place (decided, review rev104a F4). One order for every
 * reader that judges a found file without opening it (the tree's list).
 */
export async function listedRefusal(
  path: string,
  real: string,
  s: Pick<Stats, "nlink">,
  reach: Reach,
): Promise<Refusal | undefined> {
  return (await reachRefusal(path, real, reach, false)) ?? namesRefusal(s, real);
}

/**
 * {@link reachRefusal} of the door's synchronous twin (a trusted project's
 * files: no private check), the same steps with the nested clone looked up
 * without a promise.
 */
export function reachRefusalSync(
  path: string,
  real: string,
  reach: Omit<Reach, "isPrivate">,
  named: boolean,
): Refusal | undefined {
  const where = placedRefusal(path, real, reach, named);
  if (where !== undefined || !led(path, real, reach, named)) return where;
  const clone = nestedCloneSync(real, reach.realRoot);
  return clone === undefined ? undefined : nestedRefusal(real, clone, reach);
}

/**
 * What both twins ask first: where the real path lies, and whether another
 * user planted an entry of it ({@link Reach.planted}); a planted folder
 * reached through a link or a written path is said at the path, with where
 * it led.
 */
function placedRefusal(
  path: string,
  real: string,
  reach: Omit<Reach, "isPrivate">,
  named: boolean,
): Refusal | undefined {
  const where = placeRefusal(path, real, reach, named);
  if (where !== undefined) return where;
  const planted = reach.planted(real);
  if (planted?.at === undefined || !led(path, real, reach, named)) return planted;
  const { at: _said, ...here } = planted;
  return { ...here, message: `it resolves to ${toPosix(real)}, and ${planted.message}` };
}

/**
 * The check of a file an untrusted project's rules folder or a format's own
 * place holds (`.cursorrules`, `.roo/rules/sub/x.md`), found there, not
 * named: {@link reachRefusal}'s, and then, found at its own name, refused
 * when git ignores it or your lists name it, or a name of `below` (its path
 * below the rules folder) is hidden (`.roo/rules/.env`): an untrusted project
 * brings no file of yours in by the place it names (rev53a F2). The rules
 * folder's own hidden names (`.cursor/rules`) are the format's.
 */
export async function foundRefusal(
  path: string,
  real: string,
  reach: Reach,
  below: string | undefined,
): Promise<Refusal | undefined> {
  const refusal = await reachRefusal(path, real, reach, false);
  if (refusal !== undefined || !reach.isPrivate || led(path, real, reach, false)) return refusal;
  const hidden = below?.split("/").some((name) => name.startsWith(".")) === true;
  const rel = toPosix(relative(reach.realRoot, real));
  const secret = hidden
    ? { rel, why: "hidden (a name that starts with a dot)" }
    : await reach.isPrivate(real, false, false);
  if (!secret) return undefined;
  return {
    reason: "private",
    code: "file-private",
    message: `the project is not trusted and ${secret.rel} is ${secret.why}; trust the project to read it`,
  };
}

/**
 * The door asked about a project's folder before it is listed (a layer's
 * `sections/` and `partials/`, its `prompts/` and `agents/`, the layer folder
 * `.pi` itself for near-miss hints): the one `file-outside-project` (or
 * private) warning naming the folder, when its real path is one the door
 * would not read in (a link to `~/.ssh`), else undefined. No reach (your own
 * folders): undefined. Every listing of a project folder asks this first, so
 * no name a link out of the project leads to is printed (decided, reviews
 * rev82a F4, rev82e F2).
 */
export async function folderRefused(
  dir: string,
  reach: Reach | undefined,
): Promise<Diagnostic | undefined> {
  if (reach === undefined) return undefined;
  return folderRefusedAt(dir, await realpathOrSelf(dir), reach);
}

/** {@link folderRefused} of the folder `dir` whose real path is `real` (that of a folder held open). */
export async function folderRefusedAt(
  dir: string,
  real: string,
  reach: Reach,
): Promise<Diagnostic | undefined> {
  const refusal = await reachRefusal(dir, real, reach, false);
  return refusal && refusalDiagnostic(dir, folderWords(refusal, real, reach));
}

/**
 * A folder another user planted (`ww/.pi` in a 1777 `ww`) refused in the
 * words each file in it gets ("the folder … nothing in it is the
 * repository's", said at the folder), so the readers of its files and the
 * listing of it say one warning, not two. Any other refusal as it is.
 */
export function folderWords(
  refusal: Refusal,
  real: string,
  reach: Pick<Reach, "planted">,
): Refusal {
  if (refusal.reason !== "foreign" || refusal.at !== undefined) return refusal;
  // Asked as for an entry of the folder: the folder's own verdict, no look-up of the entry.
  return reach.planted(join(real, "entry")) ?? refusal;
}

/** The codes a reader shows the door's refusals under: context files keep the codes their users and docs know. */
const READER_CODES = {
  file: {
    outside: "file-outside-project",
    private: "file-private",
    foreign: "file-foreign-owner",
  },
  context: {
    outside: "context-outside-project",
    private: "context-private",
    foreign: "file-foreign-owner",
  },
  // An `@import` that leads where the door does not read: left as written, under the codes imports always had.
  import: {
    outside: "import-outside",
    private: "import-private",
    foreign: "import-outside",
  },
} as const satisfies Record<string, Record<Refusal["reason"], string>>;

const VERBS: Record<keyof typeof READER_CODES, string> = {
  file: "not read",
  context: "not loaded",
  import: "not imported",
};

/**
 * A refusal of the door as the warning a reader shows at `path`: the door's
 * words after the reader's verb (`not read: `, `not loaded: `), under the
 * reader's code. Every reader words a refusal this way, never its own way.
 */
export function refusalDiagnostic(
  path: string,
  refusal: Refusal,
  reader: keyof typeof READER_CODES = "file",
): Diagnostic {
  const verb = VERBS[reader];
  return {
    level: "warning",
    code: READER_CODES[reader][refusal.reason],
    message: `${verb}: ${refusal.message}`,
    path: refusal.at ?? path,
  };
}

/** {@link reachRefusal} less the private check: where the real path lies. */
export function placeRefusal(
  path: string,
  real: string,
  reach: Omit<Reach, "isPrivate">,
  named: boolean,
): Refusal | undefined {
  if (!isWithin(real, reach.realRoot)) {
    return outside(
      `it resolves to ${toPosix(real)}, outside the project root ${toPosix(reach.root)}`,
    );
  }
  const home = reach.excluded.find((h) => isWithin(real, h));
  if (home !== undefined) {
    return outside(
      `it resolves to ${toPosix(real)}, inside the home folder ${toPosix(home)}, which a project above it never reaches`,
    );
  }
  if (
    reach.home !== undefined &&
    led(path, real, reach, named) &&
    isHiddenInHome(real, reach.home)
  ) {
    return outside(
      `it resolves to ${toPosix(real)}, a hidden entry of the home folder ${toPosix(reach.home)}; the home folder is the project root here, and no link or import reaches its hidden files`,
    );
  }
  return undefined;
}

/** A real path inside `clone`, a repository of its own below the reach's root, led to by a link or an import. */
export function nestedRefusal(
  real: string,
  clone: string,
  reach: Omit<Reach, "isPrivate">,
): Refusal {
  return outside(
    `it resolves to ${toPosix(real)}, inside ${toPosix(clone)}, a repository of its own within the project root ${toPosix(reach.root)} (a clone, not a submodule or a worktree of it), which the project's files never reach`,
  );
}

/** Reached through a link inside the project, or by a path a file wrote: where it leads decides. */
export function led(
  path: string,
  real: string,
  reach: Omit<Reach, "isPrivate">,
  named: boolean,
): boolean {
  return named || !sameInside(path, real, reach);
}

function outside(message: string): Refusal {
  return { reason: "outside", code: "file-outside-project", message };
}

/** True when `path`, relative to the root as written, is `real` relative to the real root: no link on the way. */
function sameInside(path: string, real: string, reach: Omit<Reach, "isPrivate">): boolean {
  const asFound = relative(reach.root, resolve(path));
  return asFound === relative(reach.realRoot, real) && !leavesFolder(asFound);
}

function isHiddenInHome(real: string, home: string): boolean {
  if (!isWithin(real, home)) return false;
  const first = relative(home, real).split(sep)[0] ?? "";
  return first.startsWith(".");
}
