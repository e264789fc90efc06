import type { Dirent } from "node:fs";
import { join } from "node:path";
import { kindOfPath } from "../../_fs.js";
import { readdir, realpath } from "../../_io.js";
import { isWithin } from "../../_paths.js";
import { SKILL_FILE } from "../../skills/index.js";
import type { Diagnostic } from "../../types.js";

/**
 * Most folders watched below the skill roots of one render, together. A
 * watch is one inotify watch on Linux, out of the user's few hundred
 * thousand for every program; a folder watched non-recursively sees its
 * entries change, which is all a skills list needs. Real skill roots hold
 * a few dozen folders.
 */
export const MAX_SKILL_WATCH_FOLDERS = 512;

/** The folders of one skills root to watch, and a warning when the cap cut them. */
export interface WatchedFolders {
  folders: string[];
  diagnostics: Diagnostic[];
}

/**
 * The folders below `roots` in which a change can change the skills list:
 * each root and, breadth first, its sub-folders down to the folders that hold
 * a `SKILL.md` (a skill's own sub-folders are not read for the list), skipping
 * dot-entries and `node_modules` as the skill walk does. Links to folders are
 * followed once by real path, and only when they stay inside their root; a
 * root inside `project` whose real path leaves it (a link to `/`) is not
 * walked at all (its name is watched by the caller). At most `cap` folders in all; past it, a
 * `watch-cap` warning names the root that was cut. One listing per folder
 * kept, so the walk costs at most `cap` listings.
 */
export async function skillWatchFolders(
  roots: readonly string[],
  cap: number = MAX_SKILL_WATCH_FOLDERS,
  project?: string,
): Promise<WatchedFolders> {
  const folders: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const realProject =
    project === undefined ? undefined : await realpath(project).catch(() => project);
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => undefined);
    if (realRoot === undefined) continue;
    const inProject = project !== undefined && isWithin(root, project);
    if (inProject && realProject !== undefined && !isWithin(realRoot, realProject)) continue;
    // Never more queued than the cap leaves room for: a folder of a million
    // sub-folders costs its one listing, not a million-entry queue.
    const queue = [root];
    let cut = false;
    for (let next = 0; next < queue.length; next++) {
      const dir = queue[next] as string;
      let real: string;
      let entries: Dirent[];
      try {
        real = await realpath(dir);
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        // Gone or unreadable: the render says so; nothing to watch there.
        continue;
      }
      // A link among the root's folders that leads out of it is not followed.
      if (seen.has(real) || !isWithin(real, realRoot)) continue;
      if (folders.length >= cap) {
        cut = true;
        break;
      }
      seen.add(real);
      folders.push(dir);
      if (entries.some((e) => e.name === SKILL_FILE)) continue;
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory() || (entry.isSymbolicLink() && (await kindOfPath(path)) === "dir")) {
          if (folders.length + (queue.length - next - 1) >= cap) {
            cut = true;
            break;
          }
          queue.push(path);
        }
      }
    }
    if (cut) {
      diagnostics.push({
        level: "warning",
        code: "watch-cap",
        message: `watching ${cap} folders under the skill roots, the most watch does; changes in the other folders of this root are not seen until a change elsewhere re-renders`,
        path: root,
      });
      break;
    }
  }
  return { folders, diagnostics };
}
