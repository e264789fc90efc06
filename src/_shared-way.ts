import { lstatSync, readlinkSync, type Stats } from "node:fs";
import { isAbsolute, join, parse, resolve, sep } from "node:path";
import { lstat, readlink } from "./_io.js";
import { othersMayWrite } from "./_others-write.js";
import { isWithin, PROCESS_RELATIVE } from "./_paths.js";

// The one walk "from `/` down" for what sysprompt starts or writes for an
// agent to read later: every folder a look-up of a path passes through, by
// the path as written and each link it meets, judged by `_others-write.ts`'s
// rule. The PATH search (a system binary, the PATH handed to a child, the
// node `export --hooks` names) and `export --out`'s folder go through it
// (review rev71d F1, F2, F4: the PATH search judged the binary's last folder
// or two, so another user who could rename a folder above a root-owned
// `tools/bin` swapped in his own git between the check and the run).

/** The sticky bit: in such a folder only an entry's owner, the folder's and root may rename or remove it. */
const STICKY = 0o1000;

/** Links followed on one path before it is taken as a loop (Linux's bound). */
const MAX_LINKS = 40;

export interface WayOptions {
  /**
   * Also judge the folder the path names itself: `lookups` for a PATH entry,
   * in which a child looks names up (a sticky folder is refused too: anyone
   * may add a name there), `written` for the folder a file is written in (a
   * sticky folder of yours or root's is not refused: no one else may rename
   * your file in it).
   */
  folder?: "lookups" | "written";
  /**
   * Also refuse a folder owned by a user other than you or root (the PATH
   * search: such a user may `chmod` his folder and write there, as Git and
   * sudo hold; `export --out`'s folder, the cache folder and the files
   * `export --hooks` names: he may rename any entry in it, review rev77d F1, F5).
   */
  owners?: boolean;
  /**
   * Also refuse the entry the path names (past its links) when a user other
   * than you or root owns it: he may write it whatever its mode (a file you
   * name as your own text: review rev77d F2).
   */
  entry?: boolean;
  /**
   * A user who counts as you besides root: run as root under `sudo`, the user
   * who ran it (`$SUDO_UID`), whose own agent dir and files are his (review
   * rev77d F2). The PATH search does not ask it.
   */
  alsoYou?: number | undefined;
  /** The stats already asked in this check, by path: a PATH's entries share their folders. */
  seen?: Map<string, Stats | undefined>;
}

/**
 * The first folder, from `/` down, in which a look-up of `path` (absolute)
 * happens, by the path as written and by every link met on its way (each
 * link's target walked the same, a relative one from the link's folder),
 * where another user could put something else in its place: a folder others
 * may write ({@link othersMayWrite}: other bits, or a group not yours alone),
 * unless it is sticky and yours or root's and the entry looked up in it is
 * yours or root's too (`/tmp`, Nix's `/nix/store`); with `owners`, a folder
 * owned by another user. Said as `FOLDER: writable by other users (mode
 * NNNN, owned by uid N)`, or undefined when there is none. A missing entry
 * ends the walk: nothing below it is there to be taken. Always undefined on
 * a system without POSIX owners (Windows).
 */
export async function sharedOnTheWay(
  path: string,
  options: WayOptions = {},
): Promise<string | undefined> {
  const me = process.getuid?.();
  if (me === undefined) return undefined;
  const walk = way(path, options, me, "shared");
  let step = walk.next();
  while (!step.done) {
    const ask = step.value;
    const answer =
      "lstat" in ask
        ? await lstat(ask.lstat).catch(() => undefined)
        : await readlink(ask.readlink).catch(() => undefined);
    step = walk.next(answer);
  }
  return step.value;
}

/**
 * {@link sharedOnTheWay}, its look-ups made at once on this thread: for the
 * synchronous writers and readers of sysprompt's cache folder (the hook's
 * session files, `env.json`, the export file; review rev71d F6: a cache
 * folder of yours below a team's `root:team 2775` share was taken).
 */
export function sharedOnTheWaySync(path: string, options: WayOptions = {}): string | undefined {
  const me = process.getuid?.();
  if (me === undefined) return undefined;
  return driveSync(way(path, options, me, "shared"));
}

/**
 * The {@link PROCESS_RELATIVE} folder (`/proc`, `/dev/fd`) the way of `path`
 * enters, as written or by a link met on it (`~/here -> /proc/self/cwd`),
 * walked as {@link sharedOnTheWay} walks it; undefined when none. Such a
 * path names another file in each process that reads it (review rev71d F5).
 */
export function processRelativeOnTheWay(path: string): string | undefined {
  if (sep !== "/") return undefined;
  const written = processFolder(resolve(path));
  return written ?? driveSync(way(path, {}, process.getuid?.() ?? 0, "process"));
}

/** The {@link PROCESS_RELATIVE} folder holding `at`, if any. */
const processFolder = (at: string) => PROCESS_RELATIVE.find((folder) => isWithin(at, folder));

/** A look-up the walk asks its driver for: an entry's `lstat`, or a link's target. */
type Ask = { lstat: string } | { readlink: string };

/** Runs the walk with synchronous look-ups (a failed one is a missing entry). */
function driveSync(walk: Generator<Ask, string | undefined, Stats | string | undefined>) {
  let step = walk.next();
  while (!step.done) {
    const ask = step.value;
    let answer: Stats | string | undefined;
    try {
      answer = "lstat" in ask ? lstatSync(ask.lstat) : readlinkSync(ask.readlink, "utf8");
    } catch {
      answer = undefined;
    }
    step = walk.next(answer);
  }
  return step.value;
}

/**
 * The one walk of {@link sharedOnTheWay} (`judging` "shared") and {@link
 * processRelativeOnTheWay} ("process": no folder judged, the first process-
 * relative one returned), asking its driver for each look-up.
 */
function* way(
  path: string,
  options: WayOptions,
  me: number,
  judging: "shared" | "process",
): Generator<Ask, string | undefined, Stats | string | undefined> {
  const seen = options.seen ?? new Map<string, Stats | undefined>();
  function* look(at: string): Generator<Ask, Stats | undefined, Stats | string | undefined> {
    if (seen.has(at)) return seen.get(at);
    const s = (yield { lstat: at }) as Stats | undefined;
    seen.set(at, s);
    return s;
  }
  const ours = (uid: number) => uid === me || uid === 0 || uid === options.alsoYou;
  /** Why `folder` (a real folder) is shared; `sticky` when it is only for an entry of another user's. */
  function* judge(
    folder: string,
  ): Generator<Ask, { said: string; sticky: boolean } | undefined, Stats | string | undefined> {
    if (judging === "process") return undefined;
    const s = yield* look(folder);
    if (s === undefined) return undefined;
    const mode = (s.mode & 0o7777).toString(8).padStart(4, "0");
    const owner = s.uid === me ? "" : `, owned by uid ${s.uid}`;
    const said = `${folder}: writable by other users (mode ${mode}${owner})`;
    if (othersMayWrite(s)) return { said, sticky: (s.mode & STICKY) !== 0 && ours(s.uid) };
    if (options.owners && !ours(s.uid))
      return { said: `${folder}: owned by another user (uid ${s.uid})`, sticky: false };
    return undefined;
  }
  // Never folded lexically first: `lnk/../bin` is looked up in the folder `lnk` leads to's parent,
  // as the kernel does, by the `..` branch below (review rev73a F1: `resolve` made it `bin`).
  const start = isAbsolute(path) ? path : `${process.cwd()}${sep}${path}`;
  const root = parse(start).root;
  let at = root;
  let pending = start.split(sep);
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      at = resolve(at, "..");
      continue;
    }
    if (judging === "process" && processFolder(at) !== undefined) return processFolder(at);
    const verdict = yield* judge(at);
    const next = join(at, name);
    const entry = yield* look(next);
    if (verdict !== undefined && !verdict.sticky) return verdict.said;
    if (verdict?.sticky && entry !== undefined && !ours(entry.uid)) {
      return `${next}: another user's (uid ${entry.uid}) in ${verdict.said}`;
    }
    if (entry === undefined) return undefined;
    if (entry.isSymbolicLink()) {
      if (++links > MAX_LINKS)
        return judging === "process" ? undefined : `${next}: too many links on the way`;
      const target = (yield { readlink: next }) as string | undefined;
      if (target === undefined) return undefined;
      if (isAbsolute(target)) at = root;
      pending = [...target.split(sep), ...pending];
    } else {
      at = next;
    }
  }
  if (judging === "process") return processFolder(at);
  if (options.entry) {
    const s = yield* look(at);
    if (s !== undefined && !ours(s.uid)) return `${at}: owned by another user (uid ${s.uid})`;
  }
  if (options.folder === undefined) return undefined;
  const verdict = yield* judge(at);
  return verdict?.sticky && options.folder === "written" ? undefined : verdict?.said;
}
