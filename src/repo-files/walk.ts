import type { Dirent } from "node:fs";
import { join } from "node:path";
import { type HeldFolder, openHeldFolder, realpath } from "../_io.js";
import { checkpoint } from "../_pace.js";
import { isWithin } from "../_paths.js";
import { movedFrom } from "./door-checks.js";
import {
  type Listing,
  readListing,
  realBelow,
  replacedError,
  wholeListingError,
} from "./list-folder.js";

// The one walk over a repository's folders (skills, rule folders, explain's
// search below cwd, the simulate copy, watch's skill roots; the workspace
// tree keeps its own synchronous walk on the same listing). Every guarantee
// a walk gives is an option here, so a reader never grows its own copy of
// the caps.

/** One folder of a walk, listed and sorted. */
export interface WalkedFolder<S> {
  /** Its path: the root's, then names joined. */
  path: string;
  /** Its path below the root, "/"-separated; "" for the root. */
  rel: string;
  /** 0 for the root. */
  depth: number;
  /**
   * The real path of the folder listed, as the kernel named the one held (in a
   * walk that enters no link, the root's and `rel`, checked): a file of the
   * folder opened by its path afterwards must lie at it and its name
   * (`openedElsewhere`). Undefined where the system does not say (no `/proc`).
   */
  real: string | undefined;
  /** What the caller carries down from the folder above (ignore rules, a target folder). */
  state: S;
  /** Its entries in the walk's {@link WalkOptions.sort} order. */
  entries: readonly Dirent[];
  /** The walk's signal, for a visitor's own loops over many entries. */
  signal: AbortSignal | undefined;
  /** Ends the whole walk once the visitor is back: no folder more is entered. */
  stop(): void;
}

/** A subfolder the visitor asks the walk to enter. */
export interface Enter<S> {
  name: string;
  state: S;
}

/** Why a walk ended before it had entered all it was asked to. */
export type WalkStop = "visitor" | "total";

/** Why a folder the visitor asked for was not entered: its real path was walked, or leaves the root. */
export type WalkSkip = "walked" | "outside";

export interface WalkOptions<S> {
  /**
   * The root's real path as the caller judged it before the walk: the folder
   * the walk holds at the root must be that one, else it is not listed
   * ({@link onUnreadable}, ENOENT: replaced since it was checked).
   */
  real?: string | undefined;
  /** Heard before every folder and every 256 entries of a listing; the walk rejects with its reason. */
  signal?: AbortSignal | undefined;
  /** Depth first (a subfolder's walk runs when the visitor yields it) or level by level. Default depth first. */
  order?: "depth-first" | "breadth-first";
  /** Entries by UTF-16 code units (`Array#sort`) or by the bytes of their names. Default UTF-16. */
  sort?: "utf16" | "bytes";
  /**
   * `never` (the default): entries are what `lstat` says, a link is never
   * entered. `follow`: a folder reached through a link is entered, but none
   * twice by its real path (nor listed twice), so link loops end; the caller confines by
   * real path what it reads. `inside`: as `follow`, but a folder whose real
   * path leaves the root's (or, with {@link within}, that it refuses) is not
   * entered ({@link onSkipped}), so a link out of the root is never listed.
   */
  links?: "never" | "follow" | "inside";
  /**
   * Links `inside`: where a folder may lead, in place of the root's real
   * path: true when the folder at `path` (its real path `real`) may be
   * walked. Asked of every folder, the root too, before it is listed: a
   * project's skills walk gives the door's check, so that a sub-folder
   * linked out of the project (to `/usr`, to `/`) is never listed.
   */
  within?: (path: string, real: string) => boolean;
  /**
   * Real paths already walked (links `follow` or `inside`), shared with
   * other walks so that roots nested in one another are walked once; the
   * walk adds every folder it lists. Default: this walk's own.
   */
  seen?: Set<string>;
  /** Most entries of one folder listed; a folder with more is not visited ({@link onCapped}). */
  maxEntries?: number;
  /**
   * Entries the walk may list in all, shared with other walks or readers
   * (`left` goes down). A listing cut by it, or a folder met once it is
   * spent, ends the walk ("total").
   */
  total?: { left: number } | undefined;
  /**
   * Most folders listed (links: by real path), a folder that cannot be listed counted too; past
   * it each folder met is {@link onFolderLimit}.
   */
  maxFolders?: number;
  /** Deepest folder entered (the root is 0); a deeper one is {@link onTooDeep}. */
  maxDepth?: number;
  /**
   * Looks at one folder and yields the subfolders to enter, in order. Depth
   * first, each is walked before the visitor goes on, so the visitor's work
   * and its subfolders' interleave as in a recursive walk.
   */
  visit(folder: WalkedFolder<S>): AsyncIterable<Enter<S>> | Iterable<Enter<S>>;
  /** A folder that cannot be listed (the error as `readdir` gives it). */
  onUnreadable?(path: string, rel: string, error: NodeJS.ErrnoException): void | Promise<void>;
  /** A folder with more than {@link maxEntries} entries: not visited. */
  onCapped?(path: string, rel: string): void;
  /** A subfolder deeper than {@link maxDepth}: not entered. */
  onTooDeep?(path: string, rel: string): void;
  /** A folder met after {@link maxFolders} were listed: not listed. */
  onFolderLimit?(path: string, rel: string): void;
  /** A folder not entered for its real path ({@link WalkSkip}); links `follow` or `inside` only. */
  onSkipped?(path: string, rel: string, why: WalkSkip): void;
}

/**
 * Walks the folders below `root` (and `root` itself) as `options` say: every
 * listing capped and read a batch at a time with the deadline heard, sorted so
 * the walk is the same on every machine, links entered only when asked and
 * then never twice. Returns why it stopped early, if it did.
 */
export async function walkFolders<S>(
  root: string,
  state: S,
  options: WalkOptions<S>,
): Promise<{ stopped?: WalkStop }> {
  const walk = new Walk(options);
  if (options.order === "breadth-first") {
    let queue: { path: string; rel: string; depth: number; state: S }[] = [
      { path: root, rel: "", depth: 0, state },
    ];
    while (queue.length > 0 && walk.stopped === undefined) {
      const next: typeof queue = [];
      for (const f of queue) {
        if (walk.stopped !== undefined) break;
        await walk.folder(f.path, f.rel, f.depth, f.state, async (child) => {
          next.push(child);
        });
      }
      queue = next;
    }
  } else {
    const enter = async (f: { path: string; rel: string; depth: number; state: S }) =>
      walk.folder(f.path, f.rel, f.depth, f.state, enter);
    await enter({ path: root, rel: "", depth: 0, state });
  }
  return walk.stopped === undefined ? {} : { stopped: walk.stopped };
}

class Walk<S> {
  stopped: WalkStop | undefined;
  private readonly visited: Set<string>;
  private realRoot: string | undefined;
  /** The root's held real path: in a walk that enters no link, each folder below lies at it and its `rel`. */
  private heldRoot: string | undefined;
  private listed = 0;

  constructor(private readonly o: WalkOptions<S>) {
    this.visited = o.seen ?? new Set();
  }

  /** Lists and visits one folder; `enter` is handed each subfolder the visitor yields that may be entered. */
  async folder(
    path: string,
    rel: string,
    depth: number,
    state: S,
    enter: (child: { path: string; rel: string; depth: number; state: S }) => Promise<void>,
  ): Promise<void> {
    const o = this.o;
    await checkpoint(o.signal);
    if (o.total !== undefined && o.total.left <= 0) {
      this.stopped = "total";
      return;
    }
    if (o.maxFolders !== undefined && this.listed >= o.maxFolders) {
      o.onFolderLimit?.(path, rel);
      return;
    }
    const follows = o.links === "follow" || o.links === "inside";
    // The folder is opened and held first, and what is judged (its real path) and listed is
    // the held folder, never the path again: a folder swapped for a link after its check is
    // never the one listed (decided, review rev89h F1, as `listProjectFolder`, rev88a F2).
    // A walk that enters no link opens a subfolder without following one (ELOOP: one swapped
    // in after its parent's listing); its root is followed, and must be the folder the caller
    // judged ({@link WalkOptions.real}). O_NOFOLLOW guards the last name only: a folder on the
    // way swapped for a link takes the open elsewhere, so the held subfolder must lie at the
    // root's real path and its `rel` (decided, review rev92a F1).
    let held: (HeldFolder & { real: string }) | undefined;
    try {
      held = openHeldFolder(path, follows || depth === 0);
    } catch (error) {
      // Counted as listed: 133,000 folders that cannot be read are a walk's work too (rev50b F8).
      this.listed++;
      await o.onUnreadable?.(path, rel, wholeListingError(path, error as NodeJS.ErrnoException));
      return;
    }
    try {
      await this.listHeld(path, rel, depth, state, enter, held, follows);
    } finally {
      held?.close();
    }
  }

  private async listHeld(
    path: string,
    rel: string,
    depth: number,
    state: S,
    enter: (child: { path: string; rel: string; depth: number; state: S }) => Promise<void>,
    held: (HeldFolder & { real: string }) | undefined,
    follows: boolean,
  ): Promise<void> {
    const o = this.o;
    if (depth === 0 && o.real !== undefined && held !== undefined && held.real !== o.real) {
      this.listed++;
      await o.onUnreadable?.(path, rel, replacedError(path));
      return;
    }
    if (depth === 0) this.heldRoot = held?.real;
    else if (
      !follows &&
      held !== undefined &&
      this.heldRoot !== undefined &&
      movedFrom(realBelow(this.heldRoot, rel), held.real)
    ) {
      this.listed++;
      await o.onUnreadable?.(path, rel, replacedError(path));
      return;
    }
    let real: string | undefined;
    if (follows) {
      try {
        real = held?.real ?? (await realpath(path));
      } catch (error) {
        this.listed++;
        await o.onUnreadable?.(path, rel, error as NodeJS.ErrnoException);
        return;
      }
      if (o.links === "inside" && o.within !== undefined) {
        // Checked before the listing: a folder out of bounds is never read.
        if (!o.within(path, real)) {
          o.onSkipped?.(path, rel, "outside");
          return;
        }
      } else if (o.links === "inside") {
        // Checked before the listing: a folder out of the root is never read.
        if (depth === 0) this.realRoot = real;
        else if (this.realRoot !== undefined && !isWithin(real, this.realRoot)) {
          o.onSkipped?.(path, rel, "outside");
          return;
        }
      }
      // Asked before the listing: a thousand links to one large folder list it once.
      if (this.visited.has(real)) {
        o.onSkipped?.(path, rel, "walked");
        return;
      }
      this.visited.add(real);
    }
    const max = o.maxEntries ?? Number.POSITIVE_INFINITY;
    const cap = Math.min(max, o.total?.left ?? max);
    const listing = await readListing(path, cap, o.signal, held);
    held?.close();
    if ("error" in listing) {
      this.listed++;
      await o.onUnreadable?.(path, rel, listing.error);
      return;
    }
    if (o.total !== undefined) {
      o.total.left -= listing.entries.length;
      // Cut by the total, not by this folder's own cap: the total is spent.
      if (listing.capped && cap < max) {
        o.total.left = 0;
        this.stopped = "total";
        return;
      }
    }
    this.listed++;
    if (listing.capped) {
      o.onCapped?.(path, rel);
      return;
    }
    const entries = sortEntries(listing.entries, o.sort);
    let stop = false;
    const folder: WalkedFolder<S> = {
      path,
      rel,
      depth,
      real: held?.real,
      state,
      entries,
      signal: o.signal,
      stop: () => {
        stop = true;
      },
    };
    for await (const child of o.visit(folder)) {
      if (stop || this.stopped !== undefined) break;
      const childPath = join(path, child.name);
      const childRel = rel === "" ? child.name : `${rel}/${child.name}`;
      if (o.maxDepth !== undefined && depth + 1 > o.maxDepth) {
        o.onTooDeep?.(childPath, childRel);
        continue;
      }
      await enter({ path: childPath, rel: childRel, depth: depth + 1, state: child.state });
      if (this.stopped !== undefined) break;
    }
    if (stop) this.stopped ??= "visitor";
  }
}

/** `entries` sorted in place, by UTF-16 code units or by the bytes of their names. */
function sortEntries(entries: Dirent[], order: WalkOptions<unknown>["sort"]): Dirent[] {
  if (order === "bytes") {
    return entries.sort((a, b) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)));
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * One folder's entries, sorted as {@link walkFolders} sorts them (a walk that
 * enters no subfolder), or why it cannot be listed (the error as `readdir`
 * gives it). At most `maxEntries` (`capped` when there were more), read a
 * batch at a time past a small folder, with `signal` heard.
 */
export async function listFolder(
  dir: string,
  o: Pick<WalkOptions<unknown>, "maxEntries" | "signal" | "sort" | "real"> & {
    held?: HeldFolder;
  } = {},
): Promise<Listing | { error: NodeJS.ErrnoException }> {
  const max = o.maxEntries ?? Number.POSITIVE_INFINITY;
  let held = o.held;
  let own: (HeldFolder & { real: string }) | undefined;
  if (held === undefined && o.real !== undefined) {
    // `real`: the folder the caller judged, held and listed only when it lies there (rev92a F4).
    try {
      own = openHeldFolder(dir);
    } catch (error) {
      return { error: wholeListingError(dir, error as NodeJS.ErrnoException) };
    }
    if (own !== undefined && movedFrom(o.real, own.real)) {
      own.close();
      return { error: replacedError(dir) };
    }
    held = own;
  }
  try {
    const listing = await readListing(dir, max, o.signal, held);
    if ("error" in listing) return listing;
    return { entries: sortEntries(listing.entries, o.sort), capped: listing.capped };
  } finally {
    own?.close();
  }
}
