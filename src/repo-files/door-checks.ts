import type { Stats } from "node:fs";
import { basename, join, parse, relative, resolve, sep } from "node:path";
import { ownerOrMissingSync, statOrUndefinedSync } from "../_io.js";
import { othersWrite } from "../_others-write.js";
import { toPosix } from "../_paths.js";
import { isForeignMarkerOwner } from "./owner.js";
import { foreignRefusal } from "./planted.js";
import type { Reach, Refusal } from "./reach.js";

// The checks the door's two twins (read.ts, read-sync.ts) both run around an
// open, in one place (review rev64a F2): synchronous look-ups, so the twin
// that cannot await asks exactly what the door asks.

export const CHANGED: Refusal = {
  reason: "outside",
  code: "file-outside-project",
  message: "the file was replaced (by a link, or another file) between its check and its opening",
};

/**
 * True when the file opened by its checked real path `real` lies elsewhere
 * (`at`, as the kernel names it): a folder on its way was swapped for a link
 * after the check, and the open followed it. Unknown (`at` undefined): false.
 */
export function movedFrom(real: string, at: string | undefined): boolean {
  return at !== undefined && at !== real;
}

/** The links on a path's way as {@link wayTo} saw them before the open (none: the path's own entry). */
export type Way = { at: string; dev: number; ino: number }[];

/**
 * The entries of `path` (found at `before`, resolved to `real`, another
 * path), asked before the open: another user's link on the way that lies in a folder
 * other users may write to (its other bits, or a group not yours alone) (`/tmp/AGENTS.md -> evil/AGENTS.md`, or `-> proj/.env`:
 * review rev60a F2) is a `file-foreign-owner` refusal; an entry gone, or no
 * link met where the path reaches another file, is {@link CHANGED}: the path
 * was swapped under the check (review rev61c F3). Otherwise the links met,
 * which {@link wayChanged} asks again after the open.
 */
export function wayTo(path: string, real: string, before: Stats): Way | Refusal {
  const found = resolve(path);
  const { root } = parse(found);
  const names = relative(root, found).split(sep);
  // The folders `found` shares with `real` were real folders, no links, when it was resolved (rev61c F4).
  const realNames = parse(real).root === root ? relative(root, real).split(sep) : [];
  let shared = 0;
  while (shared < names.length - 1 && names[shared] === realNames[shared]) shared++;
  const links: Way = [];
  let at = join(root, ...names.slice(0, shared));
  let entry: Stats | undefined;
  for (const name of names.slice(shared)) {
    const up = at;
    at = join(at, name);
    entry = statOrUndefinedSync(at, false);
    if (entry === undefined) return CHANGED;
    if (!entry.isSymbolicLink()) continue;
    if (isForeignMarkerOwner(entry.uid)) {
      const folder = ownerOrMissingSync(up, true);
      const how = folder && othersWrite(folder);
      if (how) return foreignRefusal(`the link ${toPosix(at)} on its way`, entry.uid, up, how);
    }
    links.push({ at, dev: entry.dev, ino: entry.ino });
  }
  // No link: the path's own entry must be the file found (a name spelled otherwise, as on a case-blind disk).
  if (links.length > 0) return links;
  if (entry && entry.dev === before.dev && entry.ino === before.ino)
    return [{ at: found, dev: entry.dev, ino: entry.ino }];
  return CHANGED;
}

/**
 * {@link CHANGED} when, after the open, `path` no longer resolves to `real`
 * (`now`, its real path asked again) or an entry {@link wayTo} saw is gone or
 * another: the file opened may have been reached through another link
 * meanwhile; undefined when the way is the same.
 */
export function wayChanged(now: string | undefined, real: string, way: Way): Refusal | undefined {
  if (now !== real) return CHANGED;
  for (const seen of way) {
    const entry = statOrUndefinedSync(seen.at, false);
    if (entry?.dev !== seen.dev || entry.ino !== seen.ino) return CHANGED;
  }
  return undefined;
}

/**
 * A repository's regular file with more than one name (`s`, its fstat): a
 * hard link. Its other names cannot be seen from here, so it may be any file
 * of yours (`proj/notes.md` and `~/.ssh/id_rsa` one file: a tarball unpacked
 * by Python's `tarfile` before 3.14 makes that link from a member naming
 * `../home/.ssh/id_rsa`; `cp -al` makes them too), and git never makes one in
 * a work tree: refused, trusted or not, with how to make it a file of its own
 * (decided, review rev96a F1). The one rule for every reader of a
 * repository's file: the door's open-then-check ({@link openedRefusal}),
 * the strict read (`readFileNoFollow`) and the simulate and scenario copy.
 */
export function namesRefusal(s: Pick<Stats, "nlink">, real: string): Refusal | undefined {
  if (!(s.nlink > 1)) return undefined;
  const name = shellWord(basename(real));
  return {
    reason: "outside",
    code: "file-outside-project",
    message: `it has ${s.nlink} names (hard links to one file), and its other names may lie anywhere, your home folder too, so it may be any file of yours; git never makes one in a work tree; to keep it, make it a file of its own in its folder: cp ${name} ${name}.tmp && mv ${name}.tmp ${name}`,
  };
}

/** A file's name as one shell word for its folder: as it is when plain, else in single quotes; `./` before a `-`. */
function shellWord(name: string): string {
  const word = /^[\w.,:+=@%-]+$/.test(name) ? name : `'${name.replaceAll("'", "'\\''")}'`;
  return word.startsWith("-") ? `./${word}` : word;
}

/**
 * The checks on the open file (`s`, its fstat; `opened`, where the kernel
 * says it is): the very file checked (`before`) at its checked real path,
 * and, for a project's file, no entry of its real path another user's in a
 * folder other users may write to ({@link Reach.planted}, the file's own owner
 * from `s`, the entries in such folders looked up again), one name only
 * ({@link namesRefusal}: no hard link), and its way
 * unchanged (`now`: the path's real path asked again). The kernel is asked
 * where the file is after those look-ups: another user's folder swapped in
 * for the open and back out before them is then elsewhere (rev66a F1).
 */
export function openedRefusal(
  o: {
    real: string;
    before: Stats;
    s: Stats;
    opened: () => string | undefined;
    now: string | undefined;
  },
  reach: Pick<Reach, "planted"> | undefined,
  way: Way | undefined,
): Refusal | undefined {
  const { real, before, s } = o;
  if (s.dev !== before.dev || s.ino !== before.ino) return CHANGED;
  const planted = reach?.planted(real, s);
  if (movedFrom(real, o.opened())) return CHANGED;
  if (!reach) return undefined;
  return planted ?? namesRefusal(s, real) ?? (way && wayChanged(o.now, real, way));
}
