import type { Dir, Dirent, Stats } from "node:fs";
import { sep } from "node:path";
import {
  type HeldFolder,
  openCheckedFolder,
  opendirSync,
  openedPath,
  type ReadHandle,
  readdirEntriesSync,
  replacedError,
} from "../_io.js";
import { checkpoint } from "../_pace.js";
import { movedFrom } from "./door-checks.js";

// A folder's listing, capped, for the walks over a repository (the tree, and
// every other walk through walk.ts).
// Synchronous calls, given back to the event loop between batches: see the tree walk.

/** Entries taken from the file system per call while a folder is read. */
const READ_BATCH = 256;

/**
 * A folder whose own size (what `stat` says of it) is at most this is read in
 * one call: ext4 and xfs grow a folder by blocks as entries are added, tmpfs
 * and btrfs by each name, so it holds some thousands of entries at most, read
 * in a few milliseconds. Reading by batches costs about half again as much
 * per entry, so only larger folders, and those whose size says nothing (0),
 * are read that way.
 */
const ONE_CALL_BYTES = 256 * 1024;

/** A folder's entries (at most the cap) and whether there were more. */
export type Listing = { entries: Dirent[]; capped: boolean };

/** A listing, or why the folder cannot be listed. */
export type Listed = Listing | { error: NodeJS.ErrnoException };

/**
 * Where the entry `rel` ("/"-separated names, "" for the root itself) below a
 * root held at the real path `rootReal` must lie, as the kernel names what
 * was opened for it: a walk enters no link, so each folder's real path is its
 * parent's and its name, down from the root's, judged once.
 */
export function realBelow(rootReal: string, rel: string): string {
  // Names joined as they are (a listing gives no `.`, `..` or `/` in a name): once per folder
  // of a 100k-file tree, where `join`'s normalising costs more than the rest of the check.
  if (rel === "") return rootReal;
  return rootReal.endsWith(sep) ? rootReal + rel : rootReal + sep + rel;
}

/**
 * The one rule of every reader that opens an entry by its path below a folder
 * it checked (the walks, the workspace tree, the scenario copy, the goldens):
 * the opened descriptor (`fd`, or a handle of `open`) must lie at `expected` ({@link realBelow}, or
 * the file's judged real path), else the open went through a folder on the
 * way that was swapped for a link after its parent's listing (`O_NOFOLLOW`
 * guards the last name only), and what was opened is refused as gone, its
 * real path named nowhere (decided, review rev92a F1-F4). Unknown where the
 * system does not say (no `/proc`), as the door's {@link movedFrom}.
 */
export function openedElsewhere(fd: ReadHandle | number, expected: string): boolean {
  return movedFrom(expected, openedPath(fd));
}

/** The error of a folder (or file) replaced between its check and its open (one builder, src/_io.ts). */
export { replacedError };

/**
 * {@link openCheckedFolder}, and with `real` the held folder must lie there
 * ({@link openedElsewhere}): a folder on its way swapped for a link after
 * the lstat is not listed (ENOENT, as if gone).
 */
function openChecked(
  dir: string,
  checked: Stats,
  real: string | undefined,
): HeldFolder | undefined {
  const held = openCheckedFolder(dir, checked);
  if (held && real !== undefined && openedElsewhere(held.fd, real)) {
    held.close();
    throw replacedError(dir);
  }
  return held;
}

/**
 * The folder's entries (at most `cap`, `capped` when there were more), or
 * none when it cannot be listed; `onUnreadable` hears of a folder that is
 * there but cannot be read (one gone meanwhile is not news). In one call, for
 * a folder no larger than {@link ONE_CALL_BYTES}; undefined for any other,
 * which {@link listInBatches} reads. With `checked` (the folder's lstat), only
 * that very folder is listed: a link or another folder swapped in at `dir`
 * since is not (as if gone; see `openCheckedFolder`); with `real` too, only
 * when it lies there (see {@link openedElsewhere}).
 */
export function listFolderAtOnce(
  dir: string,
  size: number | undefined,
  cap: number,
  onUnreadable: () => void,
  checked?: Stats,
  real?: string,
): Listing | undefined {
  if (size === undefined || size <= 0 || size > ONE_CALL_BYTES) return undefined;
  return orEmpty(readAtOnce(dir, cap, checked, real), onUnreadable);
}

/** A listing, or none for a folder that cannot be listed (`onUnreadable` hears of one that is there). */
function orEmpty(listing: Listed, onUnreadable: () => void): Listing {
  if (!("error" in listing)) return listing;
  const code = listing.error.code;
  if (code !== "ENOENT" && code !== "ENOTDIR") onUnreadable();
  return { entries: [], capped: false };
}

/** The folder's entries in one call, at most `cap`; with `checked`, of that folder only. */
function readAtOnce(
  dir: string,
  cap: number,
  checked: Stats | undefined,
  real: string | undefined,
): Listed {
  let held: HeldFolder | undefined;
  try {
    held = checked ? openChecked(dir, checked, real) : undefined;
    const all = readdirEntriesSync(held?.at ?? dir, dir);
    return all.length > cap
      ? { entries: all.slice(0, cap), capped: true }
      : { entries: all, capped: false };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  } finally {
    held?.close();
  }
}

/**
 * {@link listFolderAtOnce} for a larger folder (or one whose size says
 * nothing): a batch at a time, with the deadline heard between batches, since
 * one listing of a million entries blocks the process for over a second.
 */
export async function listInBatches(
  dir: string,
  cap: number,
  signal: AbortSignal | undefined,
  onUnreadable: () => void,
  checked?: Stats,
  real?: string,
): Promise<Listing> {
  return orEmpty(await readInBatches(dir, cap, signal, checked, real), onUnreadable);
}

/**
 * The folder's entries (at most `cap`, `capped` when there were more), or why
 * it cannot be listed, a batch at a time with `signal` heard before and
 * between batches. Always in batches, however small the folder: the walks'
 * callers do their per-file work (look-ups, synchronous in slices) between
 * listings, and a walk of many small folders each read in one synchronous
 * call kept a rule trace 13 s past a 200 ms deadline under load. The error is
 * the one a whole listing (`readdir`) gives, whose words (`scandir '…'`) the
 * diagnostics have always shown.
 */
export async function readListing(
  dir: string,
  cap: number,
  signal: AbortSignal | undefined,
  held?: HeldFolder,
): Promise<Listed> {
  await checkpoint(signal);
  return readInBatches(dir, cap, signal, held);
}

/**
 * {@link readListing} without the deadline, for callers that cannot await:
 * still a batch at a time, so a folder of a million entries costs the cap's
 * worth of reading, not the whole listing, before it is refused.
 */
export function readListingSync(dir: string, cap: number, held?: HeldFolder): Listed {
  const batches = listingBatches(dir, cap, held);
  let step = batches.next();
  while (!step.done) step = batches.next();
  return step.value;
}

/** {@link readListing} a batch at a time, whatever the folder's size. */
async function readInBatches(
  dir: string,
  cap: number,
  signal: AbortSignal | undefined,
  checked?: Stats | HeldFolder,
  real?: string,
): Promise<Listed> {
  const batches = listingBatches(dir, cap, checked, real);
  let step = batches.next();
  while (!step.done) {
    try {
      await checkpoint(signal);
    } catch (error) {
      // Stopped between two batches: the folder handle is closed on the way out.
      batches.return({ entries: [], capped: false });
      throw error;
    }
    step = batches.next();
  }
  return step.value;
}

/**
 * The one reading of a folder: its entries (at most `cap`, `capped` when
 * there were more), or why it cannot be listed, pausing (a `yield`) after
 * each batch so the caller may hear a deadline. `checked`: the folder's
 * lstat (only that folder is listed), or a folder already held (its caller's
 * to release), read by its descriptor; `real`, with an lstat, where it must lie.
 */
function* listingBatches(
  dir: string,
  cap: number,
  checked?: Stats | HeldFolder,
  real?: string,
): Generator<void, Listed, void> {
  const entries: Dirent[] = [];
  let handle: Dir | undefined;
  let held: HeldFolder | undefined;
  try {
    held = checked === undefined || "at" in checked ? checked : openChecked(dir, checked, real);
    handle = opendirSync(held?.at ?? dir, { bufferSize: READ_BATCH }, dir);
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (entries.length === cap) return { entries, capped: true };
      entries.push(entry);
      if (entries.length % READ_BATCH === 0) yield;
    }
    return { entries, capped: false };
  } catch (error) {
    return { error: wholeListingError(dir, error as NodeJS.ErrnoException) };
  } finally {
    try {
      handle?.closeSync();
    } catch {
      // Closing a folder handle fails only if it is already closed: nothing to release.
    }
    if (held !== checked) held?.close();
  }
}

/** Errors of opening a folder, which `readdir` meets too before it lists anything. */
const OPEN_ERRORS = new Set(["EACCES", "ENOENT", "ENOTDIR", "ELOOP", "EPERM"]);

/**
 * The error `readdir` gives for `dir` when the open failed as this one did
 * (`opendir`'s error names no path): the same code and words, with
 * `scandir '<dir>'`. Made here, never by listing the folder again: a folder
 * that came back (or was swapped in) between the two calls would be read
 * whole, in one synchronous call, whatever its size.
 */
export function wholeListingError(
  dir: string,
  error: NodeJS.ErrnoException,
): NodeJS.ErrnoException {
  const opened = error.syscall === "opendir" || error.syscall === "open";
  if (!opened || !OPEN_ERRORS.has(error.code ?? "")) return error;
  const words = error.message.replace(/, (?:opendir|open)\b[\s\S]*$/, "");
  const whole: NodeJS.ErrnoException = new Error(`${words}, scandir '${dir}'`);
  if (error.errno !== undefined) whole.errno = error.errno;
  if (error.code !== undefined) whole.code = error.code;
  whole.syscall = "scandir";
  whole.path = dir;
  return whole;
}
