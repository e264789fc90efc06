import { constants, type Stats } from "node:fs";
import { dirname, join, parse, relative, resolve, sep } from "node:path";
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
import { lstatOrMissing, open, openedPath, ownerOrMissing, realpath, stat } from "../_io.js";
import { toPosix } from "../_paths.js";
import type { Diagnostic } from "../types.js";
import {
  type CappedText,
  failure as cappedFailure,
  notFile as cappedNotFile,
  decodeCapped,
} from "./capped-read.js";
import { anyoneMayWrite, isForeignOwner } from "./owner.js";
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

export interface DoorOptions {
  /**
   * The project the file belongs to ({@link projectReach}); undefined for a
   * file of the user's (the agent dir, the home folder's own folders), which
   * is still opened without following a final link, kind-checked and capped.
   */
  reach?: Reach | undefined;
  /** The path was written in a file (an `@import`), not found by its name: where it leads is checked even without a link. */
  named?: boolean;
  /** The cap in bytes. Default: {@link MAX_TEXT_FILE_BYTES}. */
  maxBytes?: number;
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

export function refused(path: string, refusal: Refusal): Refused {
  return { ok: false, reason: "refused", refusal, diagnostics: [refusalDiagnostic(path, refusal)] };
}

export const CHANGED: Refusal = {
  reason: "outside",
  code: "file-outside-project",
  message: "the file was replaced (by a link, or another file) between its check and its opening",
};

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
      const walked = await wayTo(path, real, before);
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
    else if (s.dev !== before.dev || s.ino !== before.ino || movedFrom(real, openedPath(handle)))
      problem = refused(path, CHANGED);
    else if (o.reach) {
      const planted = (await plantedHere(real, s)) ?? (way && (await wayChanged(path, real, way)));
      if (planted) problem = refused(path, planted);
    }
    if (problem === undefined) return { ok: true, handle, stats: s, real };
    await handle.close().catch(() => undefined);
    return problem;
  } catch (error) {
    await handle.close().catch(() => undefined);
    return words.failed(path, error);
  }
}

/**
 * True when the file opened by its checked real path `real` lies elsewhere
 * (`at`, as the kernel names it): a folder on its way was swapped for a link
 * after the check, and the open followed it. Unknown (`at` undefined): false.
 */
export function movedFrom(real: string, at: string | undefined): boolean {
  return at !== undefined && at !== real;
}

/**
 * Why the file opened by its real path `real` (`s` its stats) is another
 * user's, planted where anyone may write (a `file-foreign-owner` refusal), or
 * undefined: another user's file (neither yours nor root's) whose real folder
 * is one anyone may write to (`/tmp/AGENTS.md`).
 */
async function plantedHere(real: string, s: Stats): Promise<Refusal | undefined> {
  if (!isForeignOwner(s.uid)) return undefined;
  const folder = await ownerOrMissing(dirname(real), true).catch(() => undefined);
  return folder && anyoneMayWrite(folder.mode)
    ? foreign(s.uid, "it belongs", dirname(real))
    : undefined;
}

/** The links on a path's way as {@link wayTo} saw them before the open (none: the path's own entry). */
type Way = { at: string; dev: number; ino: number }[];

/**
 * The entries of `path` (found at `before`, resolved to `real`, another
 * path), asked before the open: another user's link on the way that lies in a folder
 * anyone may write to (`/tmp/AGENTS.md -> evil/AGENTS.md`, or `-> proj/.env`:
 * review rev60a F2) is a `file-foreign-owner` refusal; an entry gone, or no
 * link met where the path reaches another file, is {@link CHANGED}: the path
 * was swapped under the check (review rev61c F3). Otherwise the links met,
 * which {@link wayChanged} asks again after the open.
 */
async function wayTo(path: string, real: string, before: Stats): Promise<Way | Refusal> {
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
    entry = await lstatOrMissing(at).catch(() => undefined);
    if (entry === undefined) return CHANGED;
    if (!entry.isSymbolicLink()) continue;
    if (isForeignOwner(entry.uid)) {
      const folder = await ownerOrMissing(up, true).catch(() => undefined);
      if (folder && anyoneMayWrite(folder.mode))
        return foreign(entry.uid, `the link ${toPosix(at)} on its way belongs`, up);
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
 * {@link CHANGED} when, after the open, `path` no longer resolves to `real` or
 * an entry {@link wayTo} saw is gone or another: the file opened may have been
 * reached through another link meanwhile; undefined when the way is the same.
 */
async function wayChanged(path: string, real: string, way: Way): Promise<Refusal | undefined> {
  const now = await realpath(path).catch(() => undefined);
  if (now !== real) return CHANGED;
  for (const seen of way) {
    const entry = await lstatOrMissing(seen.at).catch(() => undefined);
    if (entry?.dev !== seen.dev || entry.ino !== seen.ino) return CHANGED;
  }
  return undefined;
}

function foreign(uid: number, what: string, folder: string): Refusal {
  return {
    reason: "foreign",
    code: "file-foreign-owner",
    message: `${what} to another user (uid ${uid}) and lies in ${toPosix(folder)}, a folder anyone may write to (world-writable), so it is not the repository's`,
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
export async function readRepoText(path: string, o: DoorOptions = {}): Promise<RepoText> {
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
