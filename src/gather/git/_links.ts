import type { Dirent } from "node:fs";
import { join } from "node:path";
import { readdir, realpath } from "../../_io.js";
import { isWithin } from "../project-root.js";

/**
 * Entries looked at, all git folders together: a repository's loose refs
 * are few (git packs them), and a listing of this many costs a few
 * milliseconds. Past it the repository is refused rather than half checked.
 */
export const MAX_GIT_ENTRIES = 10_000;

/** Sub-folders whose files git reads for branch, status and log: the refs, walked whole. */
const WALKED = new Set(["refs"]);

export type Leaving =
  | { kind: "none" }
  | { kind: "link"; path: string; target: string }
  | { kind: "too-many"; limit: number };

/**
 * The first link among the files of the git folders `dirs` whose real path
 * lies outside every one of `roots`: each folder's own entries (HEAD, index,
 * config, packed-refs, objects…) and everything under its `refs/`. Through
 * such a link git would read another repository's refs, HEAD or index as
 * this one's. A link that leads nowhere is harmless (git cannot read it
 * either). Links are never followed into: only resolved.
 */
export async function linkLeaving(
  dirs: readonly string[],
  roots: readonly string[],
): Promise<Leaving> {
  let seen = 0;
  const pending: { dir: string; walk: boolean }[] = dirs.map((dir) => ({ dir, walk: false }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = await readdir(next.dir, { withFileTypes: true });
    } catch {
      // A folder git cannot list either: nothing is read through it.
      continue;
    }
    seen += entries.length;
    if (seen > MAX_GIT_ENTRIES) return { kind: "too-many", limit: MAX_GIT_ENTRIES };
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(next.dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await realpath(path).catch(() => undefined);
        if (target !== undefined && !roots.some((root) => isWithin(target, root))) {
          return { kind: "link", path, target };
        }
      } else if (entry.isDirectory() && (next.walk || WALKED.has(entry.name))) {
        pending.push({ dir: path, walk: true });
      }
    }
  }
  return { kind: "none" };
}
