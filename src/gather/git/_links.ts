import type { Dir, Dirent } from "node:fs";
import { join } from "node:path";
import { opendirSync, realpath, stat } from "../../_io.js";
import { isWithin } from "../../_paths.js";

/**
 * Entries looked at, all git folders together: a repository's loose refs
 * are few (git packs them), and a listing of this many costs a few
 * milliseconds. Past it the repository is refused rather than half checked.
 */
export const MAX_GIT_ENTRIES = 10_000;

/**
 * What one look for the repository may still check: entries listed and
 * alternate lines resolved, across the superprojects it checks too. One
 * budget, so a fan-out (1,000 alternates files naming 1,000 folders each)
 * is refused at {@link MAX_GIT_ENTRIES}, not resolved a million times.
 */
export interface GitBudget {
  left: number;
  /**
   * Aborted: the look stops before its next resolution (the render stopped
   * waiting, or the check's own time ran out). Each resolution of a link
   * costs the kernel a walk of its target, and a repository can make a
   * target thousands of characters long: a count alone does not bound it.
   */
  signal?: AbortSignal | undefined;
}

/** Sub-folders whose files git reads for branch, status and log: the refs, walked whole. */
const WALKED = new Set(["refs"]);

/**
 * Folders below a git folder whose files git opens: the packs (a few files),
 * and the objects folder, whose loose-object folders ({@link LOOSE}) are
 * listed in turn.
 */
const LISTED = [join("objects", "pack"), "objects"];

/** A loose-object folder's name under `objects/`: two hex digits, so at most 256 of them. */
const LOOSE = /^[0-9a-f]{2}$/;

/**
 * Loose objects looked at, all loose-object folders together. Git packs
 * them when there are more than 6,700 (`gc.auto`); a listing of this many
 * costs some hundreds of milliseconds (6,700: 50-70 ms). Past it the repository is refused.
 */
export const MAX_LOOSE_OBJECTS = 50_000;

export type Leaving =
  | { kind: "none" }
  | { kind: "link"; path: string; target: string }
  | { kind: "special"; path: string; what: string }
  | { kind: "too-many"; loose: boolean }
  | { kind: "late" };

/**
 * The first link among the files of the git folders `dirs` whose real path
 * lies outside every one of `roots`: each folder's own entries (HEAD, index,
 * config, packed-refs, objects…), everything under its `refs/` and the
 * entries of `objects/`, `objects/pack/` and the loose-object folders
 * `objects/ab/`. Through such a link git would read another repository's
 * refs, HEAD, index or objects (or a file of yours) as this one's. A link that leads
 * nowhere is harmless (git cannot read it either). Links are never followed
 * into: only resolved. Or the first FIFO or device there, as an entry or a
 * link's target (`special`): git opens it and waits on it (a pack index that
 * is a FIFO held git status until its timeout) or reads it without end.
 */
export async function linkLeaving(
  dirs: readonly string[],
  roots: readonly string[],
  budget: GitBudget,
): Promise<Leaving> {
  type Pending = { dir: string; walk: boolean; objects?: boolean; loose?: boolean };
  const pending: Pending[] = dirs.flatMap((dir) => [
    ...LISTED.map((sub) => ({ dir: join(dir, sub), walk: false, objects: sub === "objects" })),
    { dir, walk: false },
  ]);
  let looseLeft = MAX_LOOSE_OBJECTS;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (budget.signal?.aborted) return { kind: "late" };
    const loose = next.loose === true;
    const entries = await listUpTo(next.dir, loose ? looseLeft : budget.left);
    if (entries === "too-many") return { kind: "too-many", loose };
    if (loose) looseLeft -= entries.length;
    else budget.left -= entries.length;
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(next.dir, entry.name);
      const what = specialKind(entry);
      if (what !== undefined) return { kind: "special", path, what };
      if (entry.isSymbolicLink()) {
        if (budget.signal?.aborted) return { kind: "late" };
        const target = await realpath(path).catch(() => undefined);
        if (target !== undefined && !roots.some((root) => isWithin(target, root))) {
          return { kind: "link", path, target };
        }
        const targetKind = target === undefined ? undefined : await statKind(target);
        if (targetKind !== undefined) return { kind: "special", path, what: targetKind };
        // A loose-object folder linked to one inside: git reads its objects through the link.
        if (target !== undefined && next.objects && LOOSE.test(entry.name)) {
          pending.push({ dir: path, walk: false, loose: true });
        }
      } else if (entry.isDirectory() && next.objects && LOOSE.test(entry.name)) {
        pending.push({ dir: path, walk: false, loose: true });
      } else if (entry.isDirectory() && (next.walk || WALKED.has(entry.name))) {
        pending.push({ dir: path, walk: true });
      }
    }
  }
  return { kind: "none" };
}

/** "a FIFO" or "a device" for an entry git would block on or read without end; else undefined. */
function specialKind(s: Pick<Dirent, "isFIFO" | "isCharacterDevice" | "isBlockDevice">) {
  if (s.isFIFO()) return "a FIFO";
  if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
  return undefined;
}

/** {@link specialKind} of what a link inside the project leads to. */
async function statKind(path: string): Promise<string | undefined> {
  const s = await stat(path).catch(() => undefined);
  return s === undefined ? undefined : specialKind(s);
}

/**
 * The entries of `path`, read a batch at a time and never more than `limit`
 * of them: a folder of a million files is not listed whole to learn that it
 * is too big. Nothing (not a folder, not listable): none; git reads nothing
 * there either.
 */
async function listUpTo(path: string, limit: number): Promise<Dirent[] | "too-many"> {
  let dir: Dir;
  try {
    dir = opendirSync(path);
  } catch {
    return [];
  }
  const entries: Dirent[] = [];
  try {
    // Leaving the loop early closes the folder.
    for await (const entry of dir) {
      if (entries.length >= limit) return "too-many";
      entries.push(entry);
    }
  } catch {
    // A folder that fails part way: its entries so far are checked.
  }
  return entries;
}
