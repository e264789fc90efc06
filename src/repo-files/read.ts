import { constants, type Stats } from "node:fs";
import { resolve } from "node:path";
import {
  decodeText,
  isMissing,
  MAX_TEXT_FILE_BYTES,
  nameFailure,
  readFailure,
  readHead,
  statFailure,
  type TextFileResult,
  undecodableName,
} from "../_fs.js";
import type { ReadHandle as FileHandle } from "../_io.js";
import { open, openedPath, realpath, stat } from "../_io.js";
import type { Diagnostic } from "../types.js";
import {
  type CappedText,
  failure as cappedFailure,
  notFile as cappedNotFile,
  decodeCapped,
} from "./capped-read.js";
import { CHANGED, openedRefusal, type Way, wayTo } from "./door-checks.js";
import { mirroredRepositorySync } from "./held-links.js";
import { type YoursAt, yourPrivateRefusal } from "./own-private.js";
import { type OwnFiles, placeOwnFile } from "./own-reach.js";
import { type Reach, type Refusal, reachRefusal, refusalDiagnostic } from "./reach.js";

/** A read the door refused: the file is not the repository's to give, or changed while it was checked. */
export interface Refused {
  ok: false;
  reason: "refused";
  /** The door's verdict, for a reader that words it its own way ({@link refusalDiagnostic}). */
  refusal: Refusal;
  diagnostics: Diagnostic[];
}

/** {@link readRepoText}'s answer: the text and the real path it was read from, or why not. */
export type RepoText = (TextFileResult & { ok: false }) | Refused | RepoTextOk;
type RepoTextOk = Extract<TextFileResult, { ok: true }> & { real: string };

/** {@link readRepoCapped}'s answer. */
export type RepoCapped = (CappedText & { ok: false }) | Refused | RepoCappedOk;
type RepoCappedOk = Extract<CappedText, { ok: true }> & { real: string };

/**
 * How the door reads a file: a project's file gives its `reach`; a file of
 * yours (your agent dir's) gives `own`, written out even where it is undefined
 * (no file of your agent dir's), so that no reader of your files forgets it
 * (review rev98a F1: the presets and pi's config files read yours without it).
 */
export type DoorOptions = DoorBase &
  (
    | {
        /** The project the file belongs to ({@link projectReach}). */
        reach: Reach;
        own?: undefined;
      }
    | {
        /**
         * Undefined for a file of the user's (the agent dir, the home folder's
         * own folders), which is still opened without following a final link,
         * kind-checked and capped.
         */
        reach?: Reach | undefined;
        /**
         * With no `reach`: the file is yours (your layer's), and one whose real path
         * lies in a checkout is read through that checkout's door ({@link placeOwnFile}).
         */
        own: OwnFiles | undefined;
      }
  );

interface DoorBase {
  /** The path was written in a file (an `@import`), not found by its name: where it leads is checked even without a link. */
  named?: boolean;
  /** The cap in bytes. Default: {@link MAX_TEXT_FILE_BYTES}. */
  maxBytes?: number;
  /**
   * With no `reach`, a file of yours: whose private files it may not be
   * ({@link yourPrivateRefusal}; `own`'s home, else this, else `homeFolder()`),
   * and the render's deadline for the look at them (`own`'s, when given).
   */
  home?: string | undefined;
  /** With no `reach`: the agent dir whose file this is, when it is one ({@link YoursAt.agentDir}). */
  agentDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The codes of the door's own refusals: the file is not the project's to give (a reader may find it again elsewhere). */
export const REFUSAL_CODES: ReadonlySet<string> = new Set([
  "file-outside-project",
  "file-private",
  "file-foreign-owner",
]);

/** Opening a FIFO with this flag returns at once; O_NOFOLLOW refuses a final link swapped in after the check. */
export const OPEN_FLAGS =
  constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** How each mode words a failure; the door's own refusals are worded once, here. */
interface Words<F extends { ok: false }> {
  failed(path: string, error: unknown): F | Promise<F>;
  notFile(path: string, isDir: boolean): F;
  /** Refuse mode only: a file over the cap is not read at all. */
  tooLarge?(path: string, size: number, maxBytes: number): F;
}

type Fail<T> = Extract<T, { ok: false }>;

const TEXT_WORDS: Words<Fail<TextFileResult>> = {
  failed: async (path, error) => {
    const name = isMissing(error) ? await undecodableName(path, "file") : undefined;
    return (name ? nameFailure(name) : readFailure(path, error)) as Fail<TextFileResult>;
  },
  notFile: (path, isDir) => statFailure(path, isDir ? "dir" : "other") as Fail<TextFileResult>,
  tooLarge: (path, size, maxBytes) =>
    statFailure(path, "other", size, maxBytes) as Fail<TextFileResult>,
};

const CAPPED_WORDS: Words<Fail<CappedText>> = {
  failed: (path, error) => cappedFailure(path, error) as Fail<CappedText>,
  notFile: (path, isDir) => cappedNotFile(path, isDir) as Fail<CappedText>,
};

export { CHANGED, movedFrom } from "./door-checks.js";

export function refused(path: string, refusal: Refusal): Refused {
  return { ok: false, reason: "refused", refusal, diagnostics: [refusalDiagnostic(path, refusal)] };
}

type Opened<F extends { ok: false }> =
  | { ok: true; handle: FileHandle; stats: Stats; real: string }
  | F
  | Refused;

/**
 * The one way a repository file is opened: stat'ed (for the failure's
 * words), resolved and checked against its reach, then opened by its real
 * path without following a final link and without blocking, and checked
 * again on the descriptor: a regular file, the very one that was checked
 * (same device and inode), and not another user's file in a shared folder.
 * A path that resolves elsewhere has its links asked before the open and
 * again after it ({@link wayTo}, {@link wayChanged}).
 */
async function openChecked<F extends { ok: false }>(
  path: string,
  o: DoorOptions,
  maxBytes: number,
  words: Words<F>,
): Promise<Opened<F>> {
  // A file of yours in a checkout (your `SYSTEM.md -> ~/kits/team/prompts.md`): the checkout's door.
  if (!o.reach && o.own) {
    const place = await placeOwnFile(path, o.own);
    if (place.kind === "refused") return refused(path, place.refusal);
    if (place.kind === "checkout")
      return openChecked(
        place.spelled,
        { ...o, own: undefined, reach: place.reach },
        maxBytes,
        words,
      );
  }
  let before: Stats;
  let real: string;
  try {
    before = await stat(path);
    if (!before.isFile()) return words.notFile(path, before.isDirectory());
    if (words.tooLarge && before.size > maxBytes)
      return words.tooLarge(path, before.size, maxBytes);
    real = await realpath(path);
  } catch (error) {
    return words.failed(path, error);
  }
  let way: Way | undefined;
  if (o.reach) {
    const refusal = await reachRefusal(path, real, o.reach, o.named === true);
    if (refusal) return refused(path, refusal);
    if (resolve(path) !== real) {
      const walked = wayTo(path, real, before);
      if ("reason" in walked) return refused(path, walked);
      way = walked;
    }
  }
  let handle: FileHandle;
  try {
    handle = await open(real, OPEN_FLAGS);
  } catch (error) {
    if (errorCode(error) === "ELOOP") return refused(path, CHANGED);
    return words.failed(path, error);
  }
  try {
    const s = await handle.stat();
    let problem: F | Refused | undefined;
    if (!s.isFile()) problem = words.notFile(path, s.isDirectory());
    else {
      // Where the path leads now, asked only when links were on its way.
      const now = way && (await realpath(path).catch(() => undefined));
      const refusal =
        openedRefusal({ real, before, s, opened: () => openedPath(handle), now }, o.reach, way) ??
        yourPrivateRefusal(real, s, yoursAt(o), path, !o.reach);
      if (refusal) problem = refused(path, refusal);
    }
    if (problem === undefined) return { ok: true, handle, stats: s, real };
    await handle.close().catch(() => undefined);
    return problem;
  } catch (error) {
    await handle.close().catch(() => undefined);
    return words.failed(path, error);
  }
}

/** Whose private files a file of yours read with `o` is checked against: `own`'s home and deadline, else the options'. */
export function yoursAt(o: Pick<DoorOptions, "own" | "home" | "agentDir" | "signal">): YoursAt {
  return {
    home: o.own?.home ?? o.home,
    agentDir: o.own?.agentDir ?? o.agentDir,
    mirrored: (named, homes) => mirroredRepositorySync(named, homes) !== undefined,
    env: o.own?.env,
    signal: o.own?.signal ?? o.signal,
  };
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? "";
}

/**
 * Reads a repository file whole, or not at all: over `maxBytes` it is refused.
 * Every check of the door applies (see {@link openChecked}); every failure is
 * a value with a diagnostic at `path`.
 */
export async function readRepoText(path: string, o: DoorOptions): Promise<RepoText> {
  const maxBytes = o.maxBytes ?? MAX_TEXT_FILE_BYTES;
  const opened = await openChecked(path, o, maxBytes, TEXT_WORDS);
  if (!opened.ok) return opened;
  const { handle, stats, real } = opened;
  try {
    const bytes = await readHead(handle, maxBytes + 1, stats.size);
    if (bytes.length > maxBytes) {
      return statFailure(path, "other", bytes.length, maxBytes) as RepoText;
    }
    const decoded = decodeText(bytes, path);
    return decoded.ok ? { ...decoded, real } : decoded;
  } catch (error) {
    return readFailure(path, error) as RepoText;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Reads at most `maxBytes` of a repository file: a longer one is cut at a
 * UTF-8 character boundary and `omitted` says how much was left out (what
 * context files, imports and rules want). The door's checks as for
 * {@link readRepoText}.
 */
export async function readRepoCapped(
  path: string,
  o: DoorOptions & { maxBytes: number },
): Promise<RepoCapped> {
  const opened = await openChecked(path, o, o.maxBytes, CAPPED_WORDS);
  if (!opened.ok) return opened;
  const { handle, stats, real } = opened;
  try {
    const bytes = await readHead(handle, o.maxBytes + 1, stats.size);
    const decoded = decodeCapped(bytes, Math.max(stats.size, bytes.length), o.maxBytes, path);
    return decoded.ok ? { ...decoded, real } : decoded;
  } catch (error) {
    return cappedFailure(path, error) as Fail<CappedText>;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** How many files {@link readRepoTexts} reads at once: at most this many caps' worth is read and not kept. */
const READ_TOGETHER = 32;

/**
 * Reads `paths` through the door ({@link readRepoText}), in order, until the
 * texts read hold `maxChars` together: the reads in the order of `paths`
 * (the one that passes the total is kept whole), and how many paths were
 * left unread. A folder of files each under its cap still gives no more
 * than this together. Files are read {@link READ_TOGETHER} at a time (a
 * package's two dozen sections are not read one after another); what a
 * group read past the total is dropped, as if never read.
 */
export async function readRepoTexts(
  paths: readonly string[],
  o: DoorOptions,
  maxChars: number,
): Promise<{ reads: RepoText[]; notRead: number }> {
  const reads: RepoText[] = [];
  let left = maxChars;
  for (let at = 0; at < paths.length && left > 0; at += READ_TOGETHER) {
    const group = paths.slice(at, at + READ_TOGETHER);
    const got = await Promise.all(group.map((path) => readRepoText(path, o)));
    for (const read of got) {
      if (left <= 0) break;
      if (read.ok) left -= read.text.length;
      reads.push(read);
    }
  }
  return { reads, notRead: paths.length - reads.length };
}

/** {@link readRepoBytes}'s answer: up to `maxBytes + 1` bytes of a file `total` bytes long, and its stats. */
export type RepoBytes =
  | (CappedText & { ok: false })
  | Refused
  | { ok: true; bytes: Uint8Array; total: number; stats: Stats; real: string };

/**
 * The first bytes of a repository file, undecoded (text read as bytes: an
 * ignore file), through the door's one open-then-check ({@link openChecked}):
 * its real path checked against `o.reach` before the open and on the
 * descriptor after it, so a link on the way out of the reach (`l -> ~/.ssh`)
 * is refused, never read.
 */
export async function readRepoBytes(
  path: string,
  o: DoorOptions & { maxBytes: number },
): Promise<RepoBytes> {
  const opened = await openChecked(path, o, o.maxBytes, CAPPED_WORDS);
  if (!opened.ok) return opened;
  const { handle, stats, real } = opened;
  try {
    const bytes = await readHead(handle, o.maxBytes + 1, stats.size);
    return { ok: true, bytes, total: Math.max(stats.size, bytes.length), stats, real };
  } catch (error) {
    return cappedFailure(path, error) as Fail<CappedText>;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
