import { dirname, sep } from "node:path";
import { type Owner, ownerOrMissingSync } from "../_io.js";
import { othersWrite } from "../_others-write.js";
import { toPosix } from "../_paths.js";
import { isForeignMarkerOwner } from "./owner.js";
import type { Refusal } from "./reach.js";

// Who may have put a repository file where it lies (review rev64a F1): not
// only the file's own folder, but every folder on its real path. Another
// user's `ww/.pi/` in a world-writable `ww` makes its `SYSTEM.md` as planted
// as their `ww/AGENTS.md`. One rule for the door's two twins and the listings.

/** The entry of a real path another user put in a folder other users may write to (or the file itself, by its own mode: {@link PlantedEntry.writable}). */
export interface PlantedEntry {
  /** The entry: a folder on the way, or the file itself. */
  at: string;
  uid: number;
  /** The folder other users may write to that holds it. */
  folder: string;
  /** How they may: {@link othersWrite}'s words (`world-writable`, `group-writable, gid N`). */
  how: string;
  /**
   * The file itself, yours or root's, that other users may write ({@link othersWrite}'s words
   * of its own mode): planted as surely as another user's (review rev107a F3).
   */
  writable?: string | undefined;
}

/**
 * How a file owned as `entry` was planted in the folder owned as `folder`
 * ({@link othersWrite}'s words: `how`, and `writable` for a file planted by its
 * own mode), or undefined when it was not: the folder is one other users may
 * write to, by its other bits or by a group not yours alone (a setgid team
 * share: review rev68a F1), and the file belongs to another user (neither you,
 * nor root, nor under `sudo` the user who ran it: {@link isForeignMarkerOwner}),
 * or, yours or root's, is one other users may write too (its own mode: a
 * `0666` file in a `1777` share, whose text anyone may rewrite between renders;
 * review rev107a F3). An owner that cannot be told (undefined) is no verdict:
 * the read that follows says why.
 */
export function plantedHow(
  entry: Owner | undefined,
  folder: Owner | undefined,
): { how: string; writable?: string } | undefined {
  if (entry === undefined || folder === undefined) return;
  // A file of yours others may write is judged only in a sticky folder (`/tmp`'s 1777), where
  // they cannot replace it and so write into it: a folder without the bit (a drive mounted
  // with every mode, as WSL's `/mnt/c` or a umask-000 volume) holds your own files at 0666,
  // and a file planted there by another is theirs, refused by its owner (review rev107a F3).
  const sticky = (folder.mode & 0o1000) !== 0;
  const writable = isForeignMarkerOwner(entry.uid) || !sticky ? undefined : othersWrite(entry);
  if (writable === undefined && !isForeignMarkerOwner(entry.uid)) return;
  const how = othersWrite(folder);
  if (how === undefined) return;
  return writable === undefined ? { how } : { how, writable };
}

/** The `file-foreign-owner` refusal of a path whose real path is `real`, planted at `p`. */
export function plantedRefusal(real: string, p: PlantedEntry): Refusal {
  if (p.at === real && p.writable !== undefined)
    return writableRefusal(p.writable, p.folder, p.how);
  if (p.at === real) return foreignRefusal("it", p.uid, p.folder, p.how);
  // Said at the folder, in the same words whichever file below it was asked: one warning a folder.
  return foreignRefusal(`the folder ${toPosix(p.at)}`, p.uid, p.folder, p.how, p.at);
}

/**
 * The `file-foreign-owner` refusal of `what` (`it`, a link on the way, a
 * folder), which belongs to another user, `uid`, and lies in `folder`, a
 * folder other users may write to (`how`: {@link othersWrite}'s words); said
 * at `at` when given (a planted folder: nothing in it is read).
 */
export function foreignRefusal(
  what: string,
  uid: number,
  folder: string,
  how: string,
  at?: string,
): Refusal {
  const refused = at === undefined ? "it is not" : "nothing in it is";
  const who = how === "world-writable" ? "anyone" : "other users";
  return {
    reason: "foreign",
    code: "file-foreign-owner",
    ...(at === undefined ? {} : { at }),
    message: `${what} belongs to another user (uid ${uid}) and lies in ${toPosix(folder)}, a folder ${who} may write to (${how}), so ${refused} the repository's`,
  };
}

/**
 * The `file-foreign-owner` refusal of a file of yours (or root's) that other users may write
 * (`writable`: {@link othersWrite}'s words of its own mode) lying in `folder`, a folder other
 * users may write to (`how`): anyone may rewrite its text, as they may plant a file of their own
 * there (review rev107a F3).
 */
function writableRefusal(writable: string, folder: string, how: string): Refusal {
  const whoFile = writable === "world-writable" ? "anyone" : "other users";
  const who = how === "world-writable" ? "anyone" : "other users";
  return {
    reason: "foreign",
    code: "file-foreign-owner",
    message: `${whoFile} may rewrite it (${writable}) and it lies in ${toPosix(folder)}, a folder ${who} may write to (${how}), so it is not the repository's`,
  };
}

/**
 * {@link plantedEntry} of one project's reach, as a refusal: each folder's
 * owner looked up once (an lstat a level, the first time a path asks), so a
 * render's hundred rule files under one folder cost one walk of its path.
 * `own`: the opened file's stats, asked afresh; given, the check is the one
 * after an open, and every entry of the path that lies in a folder other users
 * may write to is asked afresh too (see {@link plantedCheck}).
 */
export type PlantedCheck = (real: string, own?: Owner) => Refusal | undefined;

/** What a folder's verdict was made on: the topmost planted entry at or above it, and the entries other users may replace. */
interface Verdict {
  planted: PlantedEntry | null;
  /** The entries at or above the folder whose folder other users may write to, as they were looked up (usually none, or one). */
  shared: readonly SharedEntry[];
}

/** An entry in a folder other users may write to, and its owner, device and inode when the verdict was made. */
interface SharedEntry {
  at: string;
  folder: string;
  seen: Owner;
}

/**
 * A {@link PlantedCheck} with a cache of its own (one per reach, so per
 * render): each folder's owner and verdict (the topmost planted entry at or
 * above it) found once, so a file hundreds of folders deep costs a look-up
 * for its own entry once its folder is known. An entry in a folder other users
 * may write to (`share/proj` in a 0777 share) may be replaced by another
 * user at any moment, their folder for yours: after each open, each such
 * entry of the file's path is looked up again (one lstat each, usually one),
 * and one that is no longer the entry the verdict was made on (owner, device,
 * inode) gives the verdict a fresh look-up would (review rev66a F1: a folder
 * swapped mid-render had its files read as yours).
 */
export function plantedCheck(): PlantedCheck {
  const owners = new Map<string, Owner | undefined>();
  const ownerOf = (path: string) => {
    if (owners.has(path)) return owners.get(path);
    const owner = ownerOrMissingSync(path, false);
    owners.set(path, owner);
    return owner;
  };
  const verdicts = new Map<string, Verdict>();
  const folderVerdict = (dir: string): Verdict => {
    const pending: string[] = [];
    let verdict: Verdict | undefined;
    for (let at = dir; verdict === undefined; ) {
      verdict = verdicts.get(at);
      if (verdict !== undefined) break;
      pending.push(at);
      const up = dirname(at);
      if (up === at) verdict = { planted: null, shared: [] };
      at = up;
    }
    for (const at of pending.reverse()) {
      const up = dirname(at);
      const entry: Owner | undefined =
        verdict.planted === null && up !== at ? ownerOf(at) : undefined;
      const folder: Owner | undefined = entry && ownerOf(up);
      const how: string | undefined = entry && folder && othersWrite(folder);
      if (entry && how) {
        verdict = isForeignMarkerOwner(entry.uid)
          ? { planted: { at, uid: entry.uid, folder: up, how }, shared: verdict.shared }
          : { planted: null, shared: [...verdict.shared, { at, folder: up, seen: entry }] };
      }
      verdicts.set(at, verdict);
    }
    return verdict;
  };
  // Every verdict and owner at or below `at`, made on an entry since replaced.
  const forget = (at: string) => {
    const below = at.endsWith(sep) ? at : at + sep;
    for (const map of [verdicts, owners] as Map<string, unknown>[]) {
      for (const key of map.keys()) if (key === at || key.startsWith(below)) map.delete(key);
    }
  };
  const check = (real: string, own: Owner | undefined, fresh: boolean): Refusal | undefined => {
    const folder = dirname(real);
    const above = folder === real ? null : folderVerdict(folder);
    if (above !== null && above.planted !== null) return plantedRefusal(real, above.planted);
    if (own !== undefined && above !== null && !fresh) {
      const replaced = above.shared.find(
        (e) => !sameEntry(e.seen, ownerOrMissingSync(e.at, false)),
      );
      if (replaced !== undefined) {
        forget(replaced.at);
        return check(real, own, true);
      }
    }
    const entry = own ?? ownerOrMissingSync(real, false);
    const planted = folder === real ? undefined : plantedHow(entry, ownerOf(folder));
    if (entry === undefined || planted === undefined) return undefined;
    return plantedRefusal(real, { at: real, uid: entry.uid, folder, ...planted });
  };
  return (real, own) => check(real, own, false);
}

/** Whether `now` is the entry `seen` was: the same owner, device and inode. */
function sameEntry(seen: Owner, now: Owner | undefined): boolean {
  return now !== undefined && now.uid === seen.uid && now.dev === seen.dev && now.ino === seen.ino;
}
