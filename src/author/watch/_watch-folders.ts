import { join } from "node:path";
import { kindOfPath } from "../../_fs.js";
import { realpath } from "../../_io.js";
import { isWithin } from "../../_paths.js";
import { walkFolders } from "../../repo-files/index.js";
import { MAX_SKILL_FOLDER_ENTRIES, SKILL_FILE } from "../../skills/index.js";
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
 * kept, so the walk costs at most `cap` listings, each of at most the skills
 * walk's entries: a larger folder is watched but not walked below
 * (`watch-folder-too-large`). Once `signal` fires the walk stops, and a
 * `watch-deadline` warning names the root it was in. The walk is the
 * repository walk's ({@link walkFolders}, links `inside`).
 */
export async function skillWatchFolders(
  roots: readonly string[],
  cap: number = MAX_SKILL_WATCH_FOLDERS,
  project?: string,
  signal?: AbortSignal,
): Promise<WatchedFolders> {
  const folders: string[] = [];
  const diagnostics: Diagnostic[] = [];
  // Real paths walked, shared by the roots: a root inside another is walked once.
  const seen = new Set<string>();
  const realProject =
    project === undefined ? undefined : await realpath(project).catch(() => project);
  for (const root of roots) {
    const realRoot = await realpath(root).catch(() => undefined);
    if (realRoot === undefined) continue;
    const inProject = project !== undefined && isWithin(root, project);
    if (inProject && realProject !== undefined && !isWithin(realRoot, realProject)) continue;
    // Folders queued and not yet watched or passed over: never more than the
    // cap leaves room for, so a folder of a million sub-folders costs its one
    // listing, not a million-entry queue.
    let queued = 1;
    let cut = false;
    const passed = () => {
      queued--;
    };
    const walk = walkFolders(root, undefined, {
      order: "breadth-first",
      sort: "utf16",
      // A link among the root's folders that leads out of it is not followed.
      links: "inside",
      seen,
      signal,
      // As the skills walk lists it: a folder it does not search holds no skill to watch for.
      maxEntries: MAX_SKILL_FOLDER_ENTRIES,
      onCapped: (dir) => {
        passed();
        // Watched itself (one watch), so its shrinking under the cap is seen.
        if (folders.length < cap) folders.push(dir);
        diagnostics.push(tooLarge(dir));
      },
      // Gone or unreadable: the render says so; nothing to watch there.
      onUnreadable: passed,
      onSkipped: passed,
      visit: async function* (folder) {
        queued--;
        if (folders.length >= cap) {
          cut = true;
          folder.stop();
          return;
        }
        folders.push(folder.path);
        if (folder.entries.some((e) => e.name === SKILL_FILE)) return;
        for (const entry of folder.entries) {
          if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
          if (
            entry.isDirectory() ||
            (entry.isSymbolicLink() && (await kindOfPath(join(folder.path, entry.name))) === "dir")
          ) {
            if (folders.length + queued >= cap) {
              cut = true;
              return;
            }
            queued++;
            yield { name: entry.name, state: undefined };
          }
        }
      },
    });
    if (!(await inTime(walk, signal))) {
      diagnostics.push({
        level: "warning",
        code: "watch-deadline",
        message:
          "the deadline passed while this skills root's folders were listed; changes in the folders not reached are not seen until a change elsewhere re-renders",
        path: root,
      });
      break;
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

/** False when `walk` stopped at `signal`; any other failure is thrown. */
async function inTime(walk: Promise<unknown>, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await walk;
    return true;
  } catch (error) {
    if (signal?.aborted && error === signal.reason) return false;
    throw error;
  }
}

function tooLarge(dir: string): Diagnostic {
  return {
    level: "warning",
    code: "watch-folder-too-large",
    message: `the folder holds more than ${MAX_SKILL_FOLDER_ENTRIES} entries, which the skills walk does not search: watched, but not the folders in it`,
    path: dir,
  };
}
