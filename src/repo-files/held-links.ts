import { basename, dirname, isAbsolute, join, parse, resolve, sep } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import {
  lstatKindOrMissing,
  lstatKindOrMissingSync,
  readlink,
  readlinkSync,
  type StatKind,
} from "../_io.js";
import { isWithin, toPosix } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import { SyspromptError } from "../types.js";
import { isGitFolder, isGitFolderSync } from "./git-file.js";
import { type NestedCheck, nestedCloneSync, nestedClones } from "./nested-clone.js";
import { holdsRepository, holdsRepositorySync } from "./project-root.js";
import type { Refusal } from "./reach.js";

/**
 * Whether `dir` is a repository's root: a repository's top
 * ({@link holdsRepository}: a `.git` entry, or a Mercurial, Jujutsu or
 * Subversion working copy), or a git folder itself (a bare clone). The one
 * "is a repository here" test of {@link heldLinks}.
 */
export async function isRepositoryRoot(dir: string): Promise<boolean> {
  return (await holdsRepository(dir)) || (await isGitFolder(dir));
}

/** A link met on a path's way that lies in a repository not the user's own and leads out of it. */
export interface LinkOut {
  kind: "link-out";
  /** The link, spelled under its real folder. */
  link: string;
  /** The names after the link on the path's way. */
  rest: string[];
  /** The real root of the repository the link lies in. */
  repository: string;
  /** Where the link leads (its real path, or as written when it leads nowhere). */
  leads: string;
}

/** The path walked to its end: its real path (the missing names kept as written) and the repository it lies in, if one not the user's own. */
export interface HeldEnd {
  kind: "end";
  real: string;
  repository?: string;
  /**
   * With `repository`: the name the path was reached by in it, the one its
   * door and a writer judge. Spelled from the target of the last link of
   * yours followed (one that lies in no repository not yours: your
   * `~/.config/sysprompt/kit -> ~/src/prompt-kit`, your `~/base.md ->
   * src/prompt-kit/base.md`), or the path as named when none was, with the
   * names below kept as reached:
   * the repository's own links on the way (`base.md -> .git/config`, a
   * folder link `gitdir -> .git`) stay links to judge, never the real path
   * they lead to, which would be a file named at its own name.
   */
  spelled: string;
  /** The real folders of the links followed on the way, in order. */
  linksIn: string[];
}

/**
 * A walk given up on: its look-ups passed the work one path may take
 * ({@link WALK_BUDGET}: a path whose links lead through folders hundreds
 * deep), a path on its way was longer than the system looks up
 * (ENAMETOOLONG: past PATH_MAX, or a name past NAME_MAX), or the render's
 * signal fired. The path is refused.
 */
export interface HeldStop {
  kind: "stopped";
  /** The path as named. */
  path: string;
  why: "too-deep" | "too-long" | "deadline";
}

/** The walk of {@link heldLinks}. */
export type HeldWalk = (path: string) => Promise<LinkOut | HeldEnd | HeldStop>;

/** The refusal of a path whose walk was given up on ({@link HeldStop}). */
export function stopRefusal(stop: HeldStop): Refusal {
  return {
    reason: "outside",
    code: "file-outside-project",
    message: STOP_MESSAGES[stop.why],
  };
}

const STOP_MESSAGES: Record<HeldStop["why"], string> = {
  deadline: "the render's deadline passed while its links were being checked",
  // Said of its way, links or none: a plain path thousands of folders deep stops the walk too (rev64d F2).
  "too-deep":
    "its way (its folders, and where any link on it leads) is too deep to check within the work one path may take; name a file whose real path is shorter",
  // Not "missing": the system refuses the look-up, so nothing tells whether the file is there.
  "too-long":
    "its path, as written or as its links lead, is longer than the system can look up (ENAMETOOLONG); name a file whose real path is shorter",
};

/**
 * A named path's walk given up on, as an error of the argument: a named file
 * that cannot be checked is not read.
 */
export function stopError(stop: HeldStop): SyspromptError {
  return new HeldStopError(stop);
}

/** {@link stopError}'s error, which says the stop it was made of. */
class HeldStopError extends SyspromptError {
  readonly stop: HeldStop;
  constructor(stop: HeldStop) {
    super("bad-argument", `${stop.path}: ${stopRefusal(stop).message}`);
    this.stop = stop;
  }
}

/**
 * The stop an error of {@link stopError} was made of; undefined for any other
 * error. A load that reads several named folders (skills, templates) takes a
 * stopped one as that folder's warning, not as a failure of the whole load.
 */
export function stopOf(error: unknown): HeldStop | undefined {
  return error instanceof HeldStopError ? error.stop : undefined;
}

/** The door's refusal of a path whose way meets another repository's link out of it ({@link LinkOut}). */
export function linkOutRefusal(out: LinkOut): Refusal {
  return {
    reason: "outside",
    code: "file-outside-project",
    message: `it leads through ${toPosix(out.link)}, a link of the repository ${toPosix(out.repository)}, to ${toPosix(out.leads)}, out of that repository, and a repository's link (one not of your home's or working folder's repository) leads only within it; name the file itself`,
  };
}

/** Links followed on one path before the walk gives up (as the kernel's ELOOP). */
const MAX_LINKS = 40;

/**
 * The work one path's walk may take, in folder names the kernel looks up: a
 * look-up of a path costs one per folder in it, so each of the walk's
 * `lstat`s, and each folder asked whether it is a repository (five look-ups),
 * is charged its depth. A path 20 folders deep with a few links costs some
 * thousands; a chain of links zig-zagging through folders 800 deep (a kit's
 * `base.md`) would cost tens of millions, seconds of CPU.
 */
export const WALK_BUDGET = 400_000;

/**
 * The work (as {@link WALK_BUDGET}'s) the walk of a path you name does before
 * it hears the render's deadline: more than an ordinary path takes (a few
 * hundred; some thousands 20 folders deep with a few links), so that a short
 * deadline (`--deadline 0`) refuses no ordinary file, while a kit's long chain
 * of links stops there.
 */
export const NAMED_GRACE = 20_000;

/** The number of folders in a path (the names the kernel looks up for it). */
function depthOf(path: string): number {
  let n = 1;
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) === 47 || path[i] === sep) n++;
  return n;
}

/**
 * The rule "a link that lies inside a repository leads only within that
 * repository, when it is not your own", for a path the user names (or an
 * import of a file of theirs): the path is walked link by link, and each
 * link met is judged in the innermost repository that holds its REAL folder
 * (a folder holding `.git`, or a git folder: {@link isRepositoryRoot}). A
 * repository is the user's own when it holds one of the folders in `own`
 * (the working folder, whose project keeps its own rules, and the home
 * folder: a dotfiles repository; all real paths), and the links of a folder
 * outside any repository are the user's (`~/kit -> ~/src/prompt-kit`); any
 * other repository's link (a prompt kit's committed `base.md ->
 * ../.ssh/id_rsa`, reached through your link to it, to its subfolder, to its
 * file, or inside your project) that leads out of it is returned. Otherwise
 * the real path it ends at, with the repository not the user's own that
 * holds it (whose door reads it). Each folder's repository is looked up once
 * per checker, and where each link leads is followed once.
 *
 * With `packages`, a package folder in a package manager's store
 * ({@link STORES}: `node_modules/kit`, Go's `pkg/mod/…@v1.2.0`, pip's
 * `site-packages/kit`, …) counts as a repository too, by its real names or by
 * the names a link to it was reached by ({@link packageKind}: a link named
 * `node_modules/kit`, or a linked `node_modules`, as `npm link` makes them;
 * rev54b F1): an installed kit is a third party's as a cloned one is (rev53a
 * F1, rev56a F2). Your context files' imports ask it, and a path
 * you name to be read (rev54b F6: `namedProjectPath`, where a package inside
 * the working folder's project stays the project's file, read by its door
 * with its ignore rules); a path you write is judged without it.
 *
 * The walk is linear in the names it takes: each name (`.`, `..` and empty
 * ones too) and each look-up is charged to the path's budget (`budget`,
 * default {@link WALK_BUDGET}), and each name hears `signal` (once the walk
 * has done `grace`'s work: {@link NAMED_GRACE}). Past either, the path is
 * given up on ({@link HeldStop}).
 */
export function heldLinks(
  own: readonly string[],
  o: {
    signal?: AbortSignal | undefined;
    budget?: number;
    grace?: number;
    packages?: boolean;
  } = {},
): HeldWalk {
  const walker = heldWalker(own, o);
  const answer = asyncAnswers();
  return (path) => walkedAsync(walker(path), answer);
}

/** The walk of {@link heldLinksSync}. */
export type HeldWalkSync = (path: string) => LinkOut | HeldEnd | HeldStop;

/**
 * Synchronous twin of {@link heldLinks}: the same walk (one generator, {@link heldWalker}),
 * its look-ups made without a promise, for the door's synchronous twin (your
 * files read by `loadPromptTemplatesSync` and a skill's expansion). No signal:
 * its budget bounds it.
 */
export function heldLinksSync(
  own: readonly string[],
  o: { budget?: number; packages?: boolean } = {},
): HeldWalkSync {
  const walker = heldWalker(own, o);
  return (path) => walkedSync(walker(path), syncAnswer);
}

/**
 * One look-up a walk asks of the file system: what the asynchronous and the
 * synchronous walk do differently, and nothing else. `root`:
 * {@link isRepositoryRoot}; `nested`: the repository nested in `repository`
 * that holds `path` ({@link nestedClones}); `lstat`: the entry's kind, undefined
 * when missing (other failures thrown); `readlink`: a link's target (thrown when
 * none); `realpath`: the real path, or the path itself when it has none.
 */
type Ask =
  | { ask: "root"; dir: string }
  | { ask: "nested"; repository: string; path: string }
  | { ask: "lstat"; path: string }
  | { ask: "readlink"; path: string }
  | { ask: "realpath"; path: string };

/** A walk written once, as a generator yielding its look-ups ({@link Ask}). */
type Walking<T> = Generator<Ask, T, unknown>;

/** The answer to `a`, as the driver gives it. */
function* asked<T>(a: Ask): Walking<T> {
  return (yield a) as T;
}

/** Runs `walking`, each look-up answered by `answer` (a failure thrown into the walk). */
async function walkedAsync<T>(
  walking: Walking<T>,
  answer: (a: Ask) => Promise<unknown>,
): Promise<T> {
  let step = walking.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = await answer(step.value);
    } catch (error) {
      step = walking.throw(error);
      continue;
    }
    step = walking.next(value);
  }
  return step.value;
}

/** Synchronous twin of {@link walkedAsync}. */
function walkedSync<T>(walking: Walking<T>, answer: (a: Ask) => unknown): T {
  let step = walking.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = answer(step.value);
    } catch (error) {
      step = walking.throw(error);
      continue;
    }
    step = walking.next(value);
  }
  return step.value;
}

/**
 * The look-ups of an asynchronous walk: each folder asked whether it is a
 * repository once (walks running together share the answer), one nested-clone
 * checker per repository.
 */
function asyncAnswers(): (a: Ask) => Promise<unknown> {
  const roots = new Map<string, Promise<boolean>>();
  const parts = new Map<string, NestedCheck>();
  return (a) => {
    switch (a.ask) {
      case "root": {
        let found = roots.get(a.dir);
        if (found === undefined) {
          found = isRepositoryRoot(a.dir);
          roots.set(a.dir, found);
          found.catch(() => roots.delete(a.dir));
        }
        return found;
      }
      case "nested": {
        let nested = parts.get(a.repository);
        if (nested === undefined) {
          nested = nestedClones(a.repository);
          parts.set(a.repository, nested);
        }
        return nested(a.path);
      }
      case "lstat":
        return lstatKindOrMissing(a.path);
      case "readlink":
        return readlink(a.path);
      case "realpath":
        return realpathOrSelf(a.path);
    }
  };
}

/** The look-ups of a synchronous walk: {@link asyncAnswers}' synchronous twins. */
function syncAnswer(a: Ask): unknown {
  switch (a.ask) {
    case "root":
      return holdsRepositorySync(a.dir) || isGitFolderSync(a.dir);
    case "nested":
      return nestedCloneSync(a.path, a.repository);
    case "lstat":
      return lstatKindOrMissingSync(a.path);
    case "readlink":
      return readlinkSync(a.path);
    case "realpath":
      try {
        return realpathSyncLinear(a.path);
      } catch {
        // Gone or dangling: the read that follows reports it.
        return a.path;
      }
  }
}

/** The walk of {@link heldLinks} and {@link heldLinksSync}, one path at a time; see there. */
function heldWalker(
  own: readonly string[],
  o: {
    signal?: AbortSignal | undefined;
    budget?: number;
    grace?: number;
    packages?: boolean;
  },
): (path: string) => Walking<LinkOut | HeldEnd | HeldStop> {
  // The repository holding each real folder asked (undefined: none), kept for the walker's life.
  const roots = new Map<string, string | undefined>();
  const budget = o.budget ?? WALK_BUDGET;
  const grace = o.grace ?? 0;
  // `cost.left`: the work left to the path being walked, charged per name and per look-up.
  type Cost = { left: number };
  // Past the render's deadline, once the path's walk has done `grace`'s work.
  const late = (cost: Cost) => o.signal?.aborted === true && budget - cost.left > grace;
  // Given up on: past its budget, or late.
  const over = (cost: Cost) => cost.left < 0 || late(cost);
  // The innermost repository holding the real folder `dir` (a git folder inside a `.git`: its
  // work tree's), climbing until a folder already asked; each folder climbed keeps the answer.
  // A climb given up on keeps nothing: the next path asks again (with its own budget).
  function* innermost(dir: string, cost: Cost): Walking<string | undefined> {
    const climbed: string[] = [];
    let found: string | undefined;
    for (let at = dir; ; ) {
      if (roots.has(at)) {
        found = roots.get(at);
        break;
      }
      if (over(cost)) throw STOP;
      climbed.push(at);
      if (o.packages && packageKind(at, NO_MARKS) === "package") {
        found = at;
        break;
      }
      cost.left -= 5 * depthOf(at);
      if (yield* asked<boolean>({ ask: "root", dir: at })) {
        found = ownerOfGitFolder(at);
        break;
      }
      const up = dirname(at);
      if (up === at) break;
      at = up;
    }
    for (const at of climbed) roots.set(at, found);
    return found;
  }
  // Whether `leads` (inside `repository`) is its own file: in no repository of its own nested there.
  function* ownFile(repository: string, leads: string, cost: Cost, marks: Marks): Walking<boolean> {
    const inner = yield* innermostOf(leads, cost, marks);
    if (inner === repository) return true;
    if (inner === undefined || !isWithin(inner, repository)) return false;
    // The climb from the inner repository to this one, each folder asked as `innermost` asks.
    cost.left -= 5 * depthOf(inner) * (depthOf(inner) - depthOf(repository));
    if (over(cost)) throw STOP;
    const nested = yield* asked<string | undefined>({
      ask: "nested",
      repository,
      path: join(inner, ".git"),
    });
    return nested === undefined;
  }
  // The names of a path or a link's target, each charged to `cost` (`.`, `..` and empty ones
  // too: every name is a step of the walk), the render's signal heard.
  const charged = (path: string, cost: Cost): string[] => {
    const parts = partsOf(path);
    cost.left -= parts.length;
    if (over(cost)) throw STOP;
    return parts;
  };
  // One name looked up in the real folder `current` (not `.`, `..` or empty: the caller takes
  // those), charged to `cost` as the kernel's look-up of the path; the render's signal heard.
  function* look(
    current: string,
    name: string,
    cost: Cost,
  ): Walking<{ next: string; kind: StatKind | undefined }> {
    const next = join(current, name);
    cost.left -= depthOf(next);
    if (over(cost)) throw STOP;
    let kind: StatKind | undefined;
    try {
      kind = yield* asked<StatKind | undefined>({ ask: "lstat", path: next });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENAMETOOLONG") throw TOO_LONG;
      kind = undefined;
    }
    return { next, kind };
  }
  // The target of the link `link`, undefined when it cannot be read.
  function* targetOf(link: string): Walking<string | undefined> {
    try {
      return yield* asked<string>({ ask: "readlink", path: link });
    } catch {
      return undefined;
    }
  }
  // Where each link met leads (its real path), and the links followed on its way: the same link
  // met again, on another path or further down a chain, is not followed again.
  const led = new Map<string, { real: string; links: number }>();
  // The real path the link `link` (in the real folder `dirname(link)`), whose target is `target`,
  // leads to, as the kernel follows it: one name at a time, a link met put in its place, a `..`
  // taken from the real folder reached. A missing name is taken as a folder made there. Too many
  // links (a loop: more than MAX_LINKS in `count`, shared by the links nested in it): given up on.
  function* follow(
    link: string,
    target: string,
    cost: Cost,
    count: { links: number },
  ): Walking<string> {
    const known = led.get(link);
    if (known !== undefined) {
      count.links += known.links;
      if (count.links > MAX_LINKS) throw STOP;
      return known.real;
    }
    const before = count.links;
    let current = isAbsolute(target) ? parse(target).root : dirname(link);
    for (const name of charged(target, cost)) {
      if (late(cost)) throw STOP;
      if (name === "" || name === ".") continue;
      if (name === "..") {
        current = dirname(current);
        continue;
      }
      const { next, kind } = yield* look(current, name, cost);
      if (kind !== "link") {
        current = next;
        continue;
      }
      if (++count.links > MAX_LINKS) throw STOP;
      const inner = yield* targetOf(next);
      if (inner === undefined) throw STOP;
      current = yield* follow(next, inner, cost, count);
    }
    led.set(link, { real: current, links: count.links - before });
    return current;
  }
  // The innermost repository holding the real folder `dir`, a package folder this walk's spellings
  // made one (`marks`: a link named `node_modules/kit`, or a linked `node_modules`) counted too.
  function* innermostOf(dir: string, cost: Cost, marks: Marks): Walking<string | undefined> {
    const found = yield* innermost(dir, cost);
    const marked = marks.size > 0 ? markedPackage(dir, marks) : undefined;
    return marked !== undefined && (found === undefined || isWithin(marked, found))
      ? marked
      : found;
  }
  function* notOwn(dir: string, cost: Cost, marks: Marks): Walking<string | undefined> {
    const repository = yield* innermostOf(dir, cost, marks);
    if (repository === undefined || own.some((o) => isWithin(o, repository))) return undefined;
    return repository;
  }
  // The walk's end: `real`, in the real folder `folder` (itself, or the deepest one that exists).
  function* end(
    folder: string,
    real: string,
    way: { file: string; ways: Way[]; linksIn: string[]; marks: Marks },
    cost: Cost,
  ): Walking<HeldEnd> {
    const { linksIn } = way;
    const inner = yield* notOwn(folder, cost, way.marks);
    if (inner === undefined) return { kind: "end", real, spelled: real, linksIn };
    // Spelled from the last link of yours on the way (one in no repository not yours); the
    // repositories' links after it stay names. The repository is the one whose link came first
    // after it (a kit's link into its own submodule: the kit's, whose door takes the submodule as
    // its part), else the one the path ends in.
    const at = way.ways.findLastIndex((w) => w.held === undefined);
    const yours = way.ways[at];
    const spelled =
      yours === undefined ? way.file : resolve(yours.folder, yours.target, ...listed(yours.rest));
    const repository = way.ways.slice(at + 1).find((w) => w.held !== undefined)?.held ?? inner;
    return { kind: "end", real, repository, spelled, linksIn };
  }
  function* walk(path: string, cost: Cost): Walking<LinkOut | HeldEnd> {
    const file = resolve(path);
    // The names as written, each `..` taken from the real folder reached (never folded first):
    // a list taken from its head, a link's target put before the rest (no copy of the rest).
    let current = isAbsolute(path) ? parse(path).root : process.cwd();
    let names = pushed(charged(path, cost), undefined);
    const linksIn: string[] = [];
    // Each link followed: its real folder and target, and the names after it.
    const ways: Way[] = [];
    // The package folders its spelling makes (with `packages`): where a link named like one leads.
    const marks: Marks = new Map();
    const at = (folder: string, real: string) =>
      end(folder, real, { file, ways, linksIn, marks }, cost);
    while (names !== undefined) {
      if (late(cost)) throw STOP;
      const { name } = names;
      names = names.rest;
      if (name === ".") continue;
      if (name === "..") {
        current = dirname(current);
        continue;
      }
      const { next, kind } = yield* look(current, name, cost);
      // Missing: made below. A `..` after it climbs from the folder it would be (as `follow`).
      if (kind === undefined && !(names !== undefined && names.climbs > 0))
        return yield* at(current, join(next, ...listed(names)));
      if (kind !== "link") {
        current = next;
        continue;
      }
      if (linksIn.length >= MAX_LINKS) return yield* at(current, join(next, ...listed(names)));
      const target = yield* targetOf(next);
      if (target === undefined) return yield* at(current, join(next, ...listed(names)));
      const repository = yield* notOwn(current, cost, marks);
      // A link named as a package folder (`node_modules/kit`, `node_modules/@acme/kit`), or as
      // `node_modules` itself: the real folder it leads to is that folder (`npm link`, `npm i -g
      // <folder>` link a package to where it was unpacked), whatever its own names say.
      const spelledAs = o.packages ? packageKind(next, marks) : undefined;
      if (spelledAs !== undefined) {
        const leads = yield* follow(next, target, cost, { links: 0 });
        if (!marks.has(leads)) marks.set(leads, spelledAs);
      }
      if (repository !== undefined) {
        // Where it really leads: its target's names followed one at a time from its real folder,
        // each `..` from the real folder reached (never folded as written: a kit's `loop -> .` makes
        // `loop/loop/../../.ssh` climb out of it).
        const leads = yield* follow(next, target, cost, { links: 0 });
        // Within it only into its own files: not into a repository nested in it (a clone of
        // yours in its `plugins/mine`, a bare or hg one), whose files are not the kit's to give;
        // its submodules and worktrees are its part (their git folders lie in its own).
        if (!isWithin(leads, repository) || !(yield* ownFile(repository, leads, cost, marks))) {
          return { kind: "link-out", link: next, rest: listed(names), repository, leads };
        }
      }
      ways.push({ held: repository, folder: current, target, rest: names });
      linksIn.push(current);
      if (isAbsolute(target)) current = parse(target).root;
      names = pushed(charged(target, cost), names);
    }
    return yield* at(current, current);
  }
  return function* (path) {
    const cost = { left: budget };
    try {
      return yield* walk(path, cost);
    } catch (e) {
      if (e === TOO_LONG) return { kind: "stopped", path, why: "too-long" };
      if (e !== STOP) throw e;
      return { kind: "stopped", path, why: late(cost) ? "deadline" : "too-deep" };
    }
  };
}

/** A link followed: the repository not the user's own it lies in (none: the user's), its real folder, its target and the names after it. */
interface Way {
  held: string | undefined;
  folder: string;
  target: string;
  rest: Names | undefined;
}

/**
 * Names still to take, the next one first: a list whose tail is shared, so
 * that a link's target is put before the rest, and the rest kept for later,
 * without copying it. `climbs`: how many of them (this one and the rest) are `..`.
 */
interface Names {
  name: string;
  rest: Names | undefined;
  climbs: number;
}

/** `names` (none empty, `.` dropped) put before `rest`. */
function pushed(names: readonly string[], rest: Names | undefined): Names | undefined {
  let list = rest;
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i] ?? "";
    if (name === "" || name === ".") continue;
    list = { name, rest: list, climbs: (list?.climbs ?? 0) + (name === ".." ? 1 : 0) };
  }
  return list;
}

/** The names of `list`, in order. */
function listed(list: Names | undefined): string[] {
  const names: string[] = [];
  for (let at = list; at !== undefined; at = at.rest) names.push(at.name);
  return names;
}

/** Thrown inside a walk to give it up ({@link HeldStop}). */
const STOP = new Error("walk given up");
/** Thrown inside a walk when a look-up's path is too long for the system ({@link HeldStop}). */
const TOO_LONG = new Error("path too long");

/** The innermost repository holding the real folder `dir` ({@link isRepositoryRoot}), climbing at most `limit` folders. */
export function innermostRepository(dir: string, limit = 256): Promise<string | undefined> {
  return walkedAsync(innermostClimb(dir, limit), asyncAnswers());
}

function* innermostClimb(dir: string, limit = 256): Walking<string | undefined> {
  let current = dir;
  for (let i = 0; i < limit; i++) {
    if (yield* asked<boolean>({ ask: "root", dir: current })) return ownerOfGitFolder(current);
    const up = dirname(current);
    if (up === current) return undefined;
    current = up;
  }
  return undefined;
}

/**
 * The repository a file of yours found at `path` (in your home folder: your
 * agent dir's `~/.pi/agent/AGENTS.md`) lies in, when that repository mirrors
 * your home folder there: YOUR link on the way (the first link below your
 * home folder: the file's own, or a folder's as stow folds it) leads to a
 * path that ends with the file's path from your home folder
 * (`~/dotfiles/pi/.pi/agent/AGENTS.md`, as GNU stow, or a dotfiles manager
 * that links, lays out a package), in a folder at or below the repository's
 * top. That repository is your dotfiles, and its files' imports are yours.
 * Decided on where your link leads, never on the real path the links after
 * it make: a kit whose `AGENTS.md` you link (`~/.pi/agent/AGENTS.md ->
 * ~/src/prompt-kit/AGENTS.md`) is not yours by that link, nor when its own
 * `AGENTS.md` is a link to a `.pi/agent/AGENTS.md` it commits: undefined.
 * And the file's real path (after every link) must lie in that repository:
 * a mirror's file linked out of the mirror is not the mirror's (rev108b F1).
 */
export function mirroredRepository(
  path: string,
  homes: readonly string[],
): Promise<string | undefined> {
  return walkedAsync(mirrored(path, homes), asyncAnswers());
}

/** Synchronous twin of {@link mirroredRepository}. */
export function mirroredRepositorySync(path: string, homes: readonly string[]): string | undefined {
  return walkedSync(mirrored(path, homes), syncAnswer);
}

function* mirrored(path: string, homes: readonly string[]): Walking<string | undefined> {
  const file = resolve(path);
  for (const home of homes) {
    if (!isWithin(file, home) || file === home) continue;
    const rel = file.slice(home.length).replace(/^[\\/]+/, "");
    const led = rel === "" ? undefined : yield* yourLinkLeads(home, namesOf(rel));
    if (led === undefined || !led.endsWith(`${sep}${rel}`)) continue;
    const top = led.slice(0, led.length - rel.length - 1);
    if (top === home || top === "") continue;
    const realFolder = yield* asked<string>({ ask: "realpath", path: dirname(led) });
    const repository = yield* innermostClimb(realFolder);
    if (repository === undefined) continue;
    const realTop = yield* asked<string>({ ask: "realpath", path: top });
    if (!isWithin(realTop, repository)) continue;
    // Where the file itself leads, after every link (the mirror's own links too): only a file
    // whose real path lies in the mirror is the mirror's. A kit's committed `AGENTS.md ->
    // sub/.pi/agent/AGENTS.md`, itself a link out of the kit, "mirrors" nothing (review rev108b F1).
    let realFile: string;
    try {
      realFile = yield* asked<string>({ ask: "realpath", path: file });
    } catch {
      continue;
    }
    if (isWithin(realFile, repository)) return repository;
  }
  return undefined;
}

/**
 * Where the first link on the way from `home` down `names` leads, the names
 * after it kept as written: the path your link names. Undefined when no
 * link is on the way (or a name is missing).
 */
function* yourLinkLeads(home: string, names: readonly string[]): Walking<string | undefined> {
  let current = home;
  for (let i = 0; i < names.length; i++) {
    const next = join(current, names[i] ?? "");
    let kind: StatKind | undefined;
    try {
      kind = yield* asked<StatKind | undefined>({ ask: "lstat", path: next });
    } catch {
      kind = undefined;
    }
    if (kind === undefined) return undefined;
    if (kind === "link") {
      let target: string;
      try {
        target = yield* asked<string>({ ask: "readlink", path: next });
      } catch {
        return undefined;
      }
      // From your link's real folder (a home reached through `/home -> /usr/home`).
      const real = yield* asked<string>({ ask: "realpath", path: current });
      return resolve(real, target, ...names.slice(i + 1));
    }
    current = next;
  }
  return undefined;
}

/**
 * What a folder is to a package manager's store, decided on names alone
 * ({@link STORES}): a package's top (`package`: `node_modules/prompt-kit`,
 * `pkg/mod/github.com/acme/kit@v1.2.0`), or a folder on the way to one (a
 * `node_modules`, a scope folder, a folder of a package's versions).
 */
type PackageKind =
  | "modules"
  | "scope"
  | "package"
  | "registry"
  | "registry-scope"
  | "versions"
  | "names"
  | "go-modules"
  | "go-cache"
  | "cargo-src"
  | "cargo-git"
  | "formulae";

/**
 * One step of {@link STORES}: with no `from`, a folder whose own names (`is`,
 * given its parent) say it is a store's (`node_modules`, `mod` in a `pkg`),
 * wherever it lies; else a folder whose name passes `is` in a folder of kind
 * `from` (with `through`: the nearest folder above of that kind, the names
 * between passing `through`: a Go module path's folders).
 */
interface Step {
  from?: PackageKind;
  through?: (name: string) => boolean;
  is: (name: string, up: string) => boolean;
  to: PackageKind;
}

/** An npm package's name (no `.bin`, no pnpm's `.pnpm` store, no `_` folder), or a version's. */
const plainName = (n: string) => !/^[._@]/.test(n);
const scopeName = (n: string) => n.startsWith("@");
const anyName = () => true;
/** `name`, in a folder named `parent`. */
const named = (name: string, parent: string) => (n: string, up: string) =>
  n === name && basename(up) === parent;
/** A name cargo gives a registry's index or a git dependency: `index.crates.io-6f17d22bba15001f`. */
const cargoHashed = (n: string) => /-[0-9a-f]{16}$/.test(n);

/**
 * The stores package managers unpack a third party's packages into, known by
 * name: the top of each package in one is a repository to a walk with
 * `packages` (its links lead only within it; imported, its text is the
 * package's, escaped), whatever `.git` it has. One table for every store
 * (rev53a F1 npm, rev55b F1 yarn's link registry, rev56a F2 the others).
 */
const STORES: readonly Step[] = [
  // npm, pnpm, bun: `node_modules/<name>`, `node_modules/@scope/<name>`; yarn v1's link
  // registry, filled by `yarn link` as `npm link` fills a `node_modules` (`~/.config/yarn/link`,
  // Windows' `Yarn/Data/link`).
  { is: (n) => n === "node_modules", to: "modules" },
  { is: (n, up) => n === "link" && isYarnData(up), to: "modules" },
  { from: "modules", is: scopeName, to: "scope" },
  { from: "modules", is: plainName, to: "package" },
  { from: "scope", is: plainName, to: "package" },
  // deno's npm cache: `npm/registry.npmjs.org/<name>/<version>`, `…/@scope/<name>/<version>`.
  { is: named("registry.npmjs.org", "npm"), to: "registry" },
  { from: "registry", is: scopeName, to: "registry-scope" },
  { from: "registry", is: plainName, to: "versions" },
  { from: "registry-scope", is: plainName, to: "versions" },
  { from: "versions", is: plainName, to: "package" },
  // Go's module cache: `pkg/mod/<module path>@v<version>` (`github.com/acme/kit@v1.2.0`; no
  // folder of a module path has an `@`), and what it downloads, in `pkg/mod/cache/download`.
  { is: named("mod", "pkg"), to: "go-modules" },
  { from: "go-modules", is: (n) => n === "cache", to: "go-cache" },
  { from: "go-cache", is: (n) => n === "download", to: "package" },
  {
    from: "go-modules",
    through: (n) => !n.includes("@"),
    is: (n) => /^[^@]+@v\d/.test(n),
    to: "package",
  },
  // pip: `site-packages/<name>`, Debian's `dist-packages/<name>` (any python's, a venv's).
  { is: (n) => n === "site-packages" || n === "dist-packages", to: "names" },
  // cargo: `registry/src/<index>-<hash>/<name>-<version>`, `git/checkouts/<name>-<hash>/<rev>`.
  { is: named("src", "registry"), to: "cargo-src" },
  { from: "cargo-src", is: cargoHashed, to: "names" },
  { is: named("checkouts", "git"), to: "cargo-git" },
  { from: "cargo-git", is: cargoHashed, to: "versions" },
  // RubyGems: `gems/<name>-<version>` in a gem home (`~/.gem/ruby/3.2.0`, `/var/lib/gems/3.2.0`,
  // bundler's `vendor/bundle/ruby/3.2.0`, RVM's `~/.rvm/gems/ruby-3.3.0@work`), and bundler's
  // git gems (`…/3.2.0/bundler/gems`).
  { is: (n, up) => n === "gems" && isGemHome(up), to: "names" },
  // Homebrew: `Cellar/<name>/<version>`.
  { is: (n) => n === "Cellar", to: "formulae" },
  { from: "formulae", is: plainName, to: "versions" },
  { from: "names", is: anyName, to: "package" },
];

/** The kinds a walk's spellings gave real folders (a link named `node_modules/kit` to `~/Downloads/kit`). */
type Marks = Map<string, PackageKind>;

/** No marks: a folder judged on its real names alone. */
const NO_MARKS: ReadonlyMap<string, PackageKind> = new Map();

/**
 * The kind of the folder `dir` (a real folder, or a link named in one):
 * marked by the walk, else by {@link STORES} (its parent's kind asked a few
 * levels up).
 */
function packageKind(
  dir: string,
  marks: ReadonlyMap<string, PackageKind>,
  levels = 4,
): PackageKind | undefined {
  const own = storeTop(dir, marks);
  if (own !== undefined) return own;
  const name = basename(dir);
  const up = dirname(dir);
  if (name === "" || up === dir) return undefined;
  // The parent's kind, asked once and only when a step needs it.
  let above: PackageKind | undefined | null = null;
  for (const step of STORES) {
    if (step.from === undefined || !step.is(name, up)) continue;
    if (step.through !== undefined) {
      if (storeAbove(up, step.from, step.through, marks)) return step.to;
      continue;
    }
    if (above === null) above = levels === 0 ? undefined : packageKind(up, marks, levels - 1);
    if (above === step.from) return step.to;
  }
  return undefined;
}

/** The kind the walk marked `dir` with, or a store's top's its own names give it. */
function storeTop(dir: string, marks: ReadonlyMap<string, PackageKind>): PackageKind | undefined {
  const marked = marks.get(dir);
  if (marked !== undefined) return marked;
  const name = basename(dir);
  const up = dirname(dir);
  if (name === "" || up === dir) return undefined;
  return STORES.find((s) => s.from === undefined && s.is(name, up))?.to;
}

/**
 * Whether `dir`, or the nearest folder above it whose names on the way pass
 * `through`, is a store's top of kind `kind` (`pkg/mod` above
 * `github.com/acme`). Each folder is asked by its own names, so the climb
 * costs the folders it passes, and stops at the first that fails `through`.
 */
function storeAbove(
  dir: string,
  kind: PackageKind,
  through: (name: string) => boolean,
  marks: ReadonlyMap<string, PackageKind>,
): boolean {
  for (let at = dir; dirname(at) !== at; at = dirname(at)) {
    if (storeTop(at, marks) === kind) return true;
    if (!through(basename(at))) return false;
  }
  return false;
}

/** `yarn` (any case), or Windows' `Yarn/Data`: the folders yarn v1 keeps its `link` registry in. */
function isYarnData(dir: string): boolean {
  const name = basename(dir).toLowerCase();
  return name === "yarn" || (name === "data" && basename(dirname(dir)).toLowerCase() === "yarn");
}

/**
 * A gem home, where RubyGems unpacks gems in `gems`: a folder named as ruby's
 * version (`3.2.0`) in a `ruby` or `gems` folder (`~/.gem/ruby/3.2.0`,
 * `/var/lib/gems/3.2.0`, `vendor/bundle/ruby/3.2.0`), one named as RVM names
 * a ruby, `<ruby>-<version>[@gemset]`, in a `gems` folder
 * (`~/.rvm/gems/ruby-3.3.0@work`, `jruby-9.4.5.0`, `ruby-head`; rev57a F5),
 * or its `bundler` folder (bundler's git gems).
 */
function isGemHome(dir: string): boolean {
  const home = basename(dir) === "bundler" ? dirname(dir) : dir;
  const name = basename(home);
  const up = basename(dirname(home));
  if (/^\d+\.\d+\.\d+$/.test(name)) return up === "ruby" || up === "gems";
  return up === "gems" && RVM_RUBY.test(name);
}

/** RVM's name for a ruby's gem home: `ruby-3.3.0`, `jruby-9.4.5.0`, `truffleruby+graalvm-24.0.0`, `ruby-head`, each with its `@gemset`. */
const RVM_RUBY = /^[a-z][a-z+]*-(?:\d|head)[^@]*(?:@[^@]+)?$/;

/**
 * The package top that holds the real folder `dir` by the walk's marks (its
 * own or an ancestor's kind says so), the deepest one; undefined when none.
 */
function markedPackage(dir: string, marks: Marks): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (packageKind(at, marks) === "package") return at;
    if (dirname(at) === at) return undefined;
  }
}

/** A git folder inside a `.git` folder (its submodules' and worktrees' too) is its work tree's; any other folder is itself. */
function ownerOfGitFolder(dir: string): string {
  const names = dir.split(sep);
  const at = names.indexOf(".git");
  return at > 0 ? names.slice(0, at).join(sep) || sep : dir;
}

/** The names of a path as the system splits it (on `/`; on Windows on `\\` too), empty ones kept. */
function partsOf(path: string): string[] {
  return path.slice(parse(path).root.length).split(sep === "\\" ? /[\\/]/ : "/");
}

/** The names of a path, none empty. */
function namesOf(path: string): string[] {
  return partsOf(path).filter((n) => n !== "");
}
