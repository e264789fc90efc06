import { realpathOrSelf } from "../_fs.js";
import { type HeldFolder, openHeldFolder } from "../_io.js";
import type { Diagnostic } from "../types.js";
import { type Listed, type Listing, readListingSync, wholeListingError } from "./list-folder.js";
import { folderRefused, folderRefusedAt, type Reach } from "./reach.js";
import { folderRefusedAtSync, folderRefusedSync } from "./read-sync.js";
import { listFolder, type WalkOptions } from "./walk.js";

/** A project folder's listing, why it cannot be listed, or the door's one warning refusing it. */
export type ProjectListing = Listing | { error: NodeJS.ErrnoException } | { refused: Diagnostic };

/**
 * Who judges a project folder: a reach ({@link folderRefused}'s words), a
 * function of the held folder's real path (a caller with more than one
 * reach), or none (your own folders: listed as they are).
 */
export type FolderJudge = Reach | ((dir: string, real: string) => Promise<Diagnostic | undefined>);

/**
 * The one listing of a project's folder (a layer's `sections/` and
 * `partials/`, its `prompts/` and `agents/`, the layer folder `.pi` itself):
 * the folder is opened and held first, its real path as the kernel names the
 * held folder is asked of the door, and the listing is read through that
 * same descriptor, so a folder swapped for a link to `~/.ssh` after the check
 * is never the one listed (decided, review rev88a F2: `.pi/sections` renamed
 * back and forth with a link to `~/.ssh` printed your files' names in 3 of
 * 30 renders). A folder the door would not read in is its one warning
 * (`refused`), nothing of it listed (rev82a F4, rev82e F2). A name that
 * cannot be opened as a folder is asked of the door by its path (a link to
 * a file of yours is refused, not named unreadable), else the open's error in
 * a listing's words. Where the system cannot list by descriptor (no `/proc`),
 * checked then listed by path.
 */
export async function listProjectFolder(
  dir: string,
  judge: FolderJudge | undefined,
  o: Pick<WalkOptions<unknown>, "maxEntries" | "signal" | "sort"> = {},
): Promise<ProjectListing> {
  if (judge === undefined) return listFolder(dir, o);
  const ask =
    typeof judge === "function" ? judge : (d: string, r: string) => folderRefusedAt(d, r, judge);
  let held: (HeldFolder & { real: string }) | undefined;
  try {
    held = openHeldFolder(dir);
  } catch (error) {
    const refused = await refusedByPath(dir, judge);
    return refused
      ? { refused }
      : { error: wholeListingError(dir, error as NodeJS.ErrnoException) };
  }
  if (held === undefined) {
    const refused = await refusedByPath(dir, judge);
    return refused ? { refused } : listFolder(dir, o);
  }
  try {
    const refused = await ask(dir, held.real);
    return refused ? { refused } : await listFolder(dir, { ...o, held });
  } finally {
    held.close();
  }
}

/** The judge's word on `dir` by its path, its real path looked up now. */
async function refusedByPath(dir: string, judge: FolderJudge): Promise<Diagnostic | undefined> {
  if (typeof judge !== "function") return folderRefused(dir, judge);
  return judge(dir, await realpathOrSelf(dir));
}

/**
 * Synchronous twin of {@link listProjectFolder} (a trusted project's folders:
 * no private check), its entries unsorted.
 */
export function listProjectFolderSync(
  dir: string,
  reach: Omit<Reach, "isPrivate"> | undefined,
  maxEntries: number,
): Listed | { refused: Diagnostic } {
  if (reach === undefined) return readListingSync(dir, maxEntries);
  let held: (HeldFolder & { real: string }) | undefined;
  try {
    held = openHeldFolder(dir);
  } catch (error) {
    const refused = folderRefusedSync(dir, reach);
    return refused
      ? { refused }
      : { error: wholeListingError(dir, error as NodeJS.ErrnoException) };
  }
  if (held === undefined) {
    const refused = folderRefusedSync(dir, reach);
    return refused ? { refused } : readListingSync(dir, maxEntries);
  }
  try {
    const refused = folderRefusedAtSync(dir, held.real, reach);
    return refused ? { refused } : readListingSync(dir, maxEntries, held);
  } finally {
    held.close();
  }
}
