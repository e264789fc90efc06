import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { pace } from "./_pace.js";
import { realpathSyncLinear } from "./_realpath.js";

/**
 * Every file-system call that gathering makes goes through this module: each
 * function behaves exactly like its `node:fs` twin. Look-ups (stat, lstat,
 * realpath, readlink) and reads of an opened file are made synchronously, in
 * the slices of src/_pace.ts, as the tree walk makes its calls (see
 * {@link promptly}); listings and whole-file reads go through the thread pool,
 * since one listing of a million entries has no slice. Inside
 * {@link recordReads}, each one also tells the recorder what it saw, so that
 * a prompt session can later check, by stat alone, whether anything the
 * gathering looked at has changed — including paths that were looked up and
 * missing. Outside it (every plain `renderSystemPrompt`), nothing is recorded.
 *
 * The recorder travels with the async call chain (AsyncLocalStorage) rather
 * than as a parameter: every loader would otherwise pass it through some
 * thirty functions, and a loader that forgot to would make a session serve
 * stale text in silence. Here a new loader is covered by importing from this
 * module instead of `node:fs` (a test keeps it that way).
 */

/**
 * How a path was looked at; validating an observation repeats the same probe.
 * A `-kind` probe is a stat that told its caller only what the path is (see
 * {@link statKind}), and is noted as that alone.
 */
export type Probe =
  | "stat"
  | "lstat"
  | "stat-kind"
  | "lstat-kind"
  | "stat-owner"
  | "lstat-owner"
  | "realpath"
  | "readlink";

/** What a path is, as a stat sees it: `link` from lstat only (`_fs.ts` names it `EntryKind`). */
export type StatKind = "file" | "dir" | "link" | "other";

/** The kind of `stats`. */
export function kindOfStats(stats: fs.Stats): StatKind {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "dir";
  return stats.isSymbolicLink() ? "link" : "other";
}

/** What a probe gave: the stats, the resolved path or link target, or the error code. */
export type Observation = { stats: fs.Stats } | { text: string } | { error: string };

export interface ReadRecorder {
  /** Whether `probe` of `path` was already noted: only the first observation counts. */
  has(probe: Probe, path: string): boolean;
  /** `probe` of `path` gave `seen`; `startedAt` is `Date.now()` taken just before the call. */
  note(probe: Probe, path: string, seen: Observation, startedAt: number): void;
}

const recorders = new AsyncLocalStorage<ReadRecorder>();

/** Recordings under way; see {@link recordReads}. */
let recording = 0;

/**
 * Runs `fn`; every read it makes through this module, however deep, is noted
 * in `recorder`. Node runs an async hook for every promise while an
 * AsyncLocalStorage is enabled (some 10% more CPU for promise-heavy code), so
 * the storage is enabled only while a recording is under way, and disabled
 * when the last one ends: between renders the host process pays nothing.
 */
export async function recordReads<T>(recorder: ReadRecorder, fn: () => Promise<T>): Promise<T> {
  recording++;
  try {
    return await recorders.run(recorder, fn);
  } finally {
    recording--;
    if (recording === 0) recorders.disable();
  }
}

/** The recorder of the call chain; none (and no look-up) while no recording is under way. */
function currentRecorder(): ReadRecorder | undefined {
  return recording === 0 ? undefined : recorders.getStore();
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? "EUNKNOWN";
}

/** Calls `call`, noting its result (or its error) as `probe` of `path`. */
async function observed<T>(
  recorder: ReadRecorder,
  probe: Probe,
  path: string,
  call: () => Promise<T>,
  seen: (value: T) => Observation,
): Promise<T> {
  const startedAt = Date.now();
  try {
    const value = await call();
    recorder.note(probe, path, seen(value), startedAt);
    return value;
  } catch (error) {
    recorder.note(probe, path, { error: errorCode(error) }, startedAt);
    throw error;
  }
}

/**
 * Notes the stat of `path` before its content or listing is read, unless it
 * was stat'ed already. Before, not after: a change between the stat and the
 * read then shows as a changed stat next time, never as an unchanged one.
 */
async function statBeforeReading(recorder: ReadRecorder | undefined, path: fs.PathLike) {
  if (!recorder || recorder.has("stat", String(path))) return;
  await observed(
    recorder,
    "stat",
    String(path),
    () => promptly(() => fs.statSync(path)),
    (stats) => ({ stats }),
  ).catch(
    // The read that follows fails the same way and reports it.
    () => undefined,
  );
}

/**
 * `call` made at once, on this thread, its result (or its error) as a
 * promise. A look-up on a local disk takes microseconds; the same call through
 * libuv's thread pool costs a hand-over to a pool thread and back, and on a
 * loaded machine each waits its turn for a core: a render's two hundred
 * look-ups spent more time waiting than looking. Within a slice of
 * src/_pace.ts; past its end, after one turn of the event loop, so the
 * deadline's timer and an abort are still heard between calls.
 */
function promptly<T>(call: () => T): Promise<T> {
  const turn = pace();
  if (turn) return turn.then(() => answer(call));
  try {
    return Promise.resolve(answer(call));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** File-system calls answered so far (or failed) in this process; see {@link callsAnswered}. */
let answered = 0;

function answer<T>(call: () => T): T {
  try {
    return call();
  } finally {
    answered++;
  }
}

/**
 * How many file-system calls of this module have been answered in this process: a wait for
 * other loaders' reads (src/gather/own-first.ts) tells reads under way from a hung disk by it.
 */
export function callsAnswered(): number {
  return answered;
}

/** `work`, counted as answered once it settles. */
function counted<T>(work: Promise<T>): Promise<T> {
  return work.finally(() => {
    answered++;
  });
}

const statNow = (path: string) => promptly(() => fs.statSync(path));
const lstatNow = (path: string) => promptly(() => fs.lstatSync(path));
const realpathNow = (path: string) => promptly(() => realpathSyncLinear(path));

export function stat(path: string): Promise<fs.Stats> {
  const recorder = currentRecorder();
  if (!recorder) return statNow(path);
  return observed(
    recorder,
    "stat",
    path,
    () => statNow(path),
    (stats) => ({ stats }),
  );
}

export function lstat(path: string): Promise<fs.Stats> {
  const recorder = currentRecorder();
  if (!recorder) return lstatNow(path);
  return observed(
    recorder,
    "lstat",
    path,
    () => lstatNow(path),
    (stats) => ({ stats }),
  );
}

/**
 * What `path` is (links followed), or the error of its stat. Noted as the
 * kind alone, not as the stats: a caller that asks only this (is there a
 * `.git`? is this a folder?) must not run again because the entry's times
 * moved, and a folder's mtime moves with every entry added to it.
 */
export function statKind(path: string): Promise<StatKind> {
  const recorder = currentRecorder();
  const call = () => statNow(path).then(kindOfStats);
  if (!recorder) return call();
  return observed(recorder, "stat-kind", path, call, (text) => ({ text }));
}

/** {@link statKind} without following a final link: `link` for a link. */
export function lstatKind(path: string): Promise<StatKind> {
  const recorder = currentRecorder();
  const call = () => lstatNow(path).then(kindOfStats);
  if (!recorder) return call();
  return observed(recorder, "lstat-kind", path, call, (text) => ({ text }));
}

/**
 * {@link lstatKind} of a path that may well not be there: undefined where
 * nothing is (ENOENT), without the error Node builds for it (see
 * {@link statIfAny}); noted as {@link lstatKind} notes it.
 */
export function lstatKindOrMissing(path: string): Promise<StatKind | undefined> {
  const now = () =>
    promptly(() => {
      const stats = fs.lstatSync(path, { throwIfNoEntry: false });
      return stats && kindOfStats(stats);
    });
  const recorder = currentRecorder();
  if (!recorder) return now();
  return observed(recorder, "lstat-kind", path, now, (kind) =>
    kind === undefined ? { error: "ENOENT" } : { text: kind },
  );
}

/** Synchronous twin of {@link lstatKindOrMissing} (the door's synchronous twin's walk of your links). */
export function lstatKindOrMissingSync(path: string): StatKind | undefined {
  const recorder = currentRecorder();
  const startedAt = recorder ? Date.now() : 0;
  let kind: StatKind | undefined;
  try {
    const stats = fs.lstatSync(path, { throwIfNoEntry: false });
    kind = stats && kindOfStats(stats);
  } catch (error) {
    recorder?.note("lstat-kind", path, { error: errorCode(error) }, startedAt);
    throw error;
  }
  recorder?.note(
    "lstat-kind",
    path,
    kind === undefined ? { error: "ENOENT" } : { text: kind },
    startedAt,
  );
  return kind;
}

/**
 * `stat` (`follow`) or `lstat` of a path that may well not be there: undefined
 * where nothing is (ENOENT), instead of an error; any other failure rejects as
 * the twin's does. A render looks up some hundred names that are missing
 * (context files, rule files, `.git` up the folders), and Node makes each
 * refusal an error with a stack trace, some 10 us dearer than the answer
 * itself. Noted as `stat` and `lstat` note it (a missing path as ENOENT).
 */
function statIfAny(path: string, follow: boolean): Promise<fs.Stats | undefined> {
  const call = follow ? fs.statSync : fs.lstatSync;
  const now = () => promptly(() => call(path, { throwIfNoEntry: false }));
  const recorder = currentRecorder();
  if (!recorder) return now();
  return observed(recorder, follow ? "stat" : "lstat", path, now, (stats) =>
    stats ? { stats } : { error: "ENOENT" },
  );
}

/** Who owns an entry and its permission bits: what an owner test asks of it. */
export interface Owner {
  uid: number;
  /** Its group: who besides its owner may write it when its mode lets the group. */
  gid: number;
  mode: number;
  /** The entry's device and inode, when the look-up gave them: whether a later look-up met the same entry. */
  dev?: number;
  ino?: number;
}

/** The owner and permission bits of `stats`, as {@link ownerOrMissing} notes them. */
export function ownerText(stats: fs.Stats): string {
  return `${stats.uid}:${stats.gid}:${stats.mode & 0o7777}`;
}

/**
 * The owner of `path` (links followed with `follow`), undefined where nothing
 * is. Noted as the owner and permission bits alone, as {@link statKind} notes
 * the kind: a folder's times move with every entry added to it.
 */
export function ownerOrMissing(path: string, follow: boolean): Promise<Owner | undefined> {
  const call = follow ? fs.statSync : fs.lstatSync;
  const now = () =>
    promptly(() => {
      const stats = call(path, { throwIfNoEntry: false });
      return stats && { uid: stats.uid, gid: stats.gid, mode: stats.mode & 0o7777 };
    });
  const recorder = currentRecorder();
  if (!recorder) return now();
  return observed(recorder, follow ? "stat-owner" : "lstat-owner", path, now, (owner) =>
    owner === undefined ? { error: "ENOENT" } : { text: `${owner.uid}:${owner.gid}:${owner.mode}` },
  );
}

/**
 * {@link ownerOrMissing}, synchronous, noted the same way: for the owner
 * checks the door's two twins share (`planted.ts`).
 */
export function ownerOrMissingSync(path: string, follow: boolean): Owner | undefined {
  const call = follow ? fs.statSync : fs.lstatSync;
  const recorder = currentRecorder();
  const startedAt = recorder ? Date.now() : 0;
  let seen: Observation;
  let owner: Owner | undefined;
  try {
    const stats = call(path, { throwIfNoEntry: false });
    owner = stats && {
      uid: stats.uid,
      gid: stats.gid,
      mode: stats.mode & 0o7777,
      dev: stats.dev,
      ino: stats.ino,
    };
    seen = owner ? { text: `${owner.uid}:${owner.gid}:${owner.mode}` } : { error: "ENOENT" };
  } catch (error) {
    seen = { error: errorCode(error) };
  }
  recorder?.note(follow ? "stat-owner" : "lstat-owner", path, seen, startedAt);
  return owner;
}

/** {@link stat}, undefined where nothing is at `path`; see {@link statIfAny}. */
export const statOrMissing = (path: string) => statIfAny(path, true);

/** {@link lstat}, undefined where nothing is at `path`; see {@link statIfAny}. */
export const lstatOrMissing = (path: string) => statIfAny(path, false);

export function realpath(path: string): Promise<string> {
  const recorder = currentRecorder();
  if (!recorder) return realpathNow(path);
  return observed(
    recorder,
    "realpath",
    path,
    () => realpathNow(path),
    (text) => ({ text }),
  );
}

export function readlink(path: string | Buffer): Promise<string> {
  const recorder = currentRecorder();
  // A path given as bytes (a name that is not UTF-8) has no string key to note it by.
  if (!recorder || typeof path !== "string") return promptly(() => fs.readlinkSync(path, "utf8"));
  return observed(
    recorder,
    "readlink",
    path,
    () => promptly(() => fs.readlinkSync(path, "utf8")),
    (text) => ({ text }),
  );
}

export async function readFile(path: string): Promise<Buffer> {
  await statBeforeReading(currentRecorder(), path);
  return counted(fs.promises.readFile(path));
}

/** What a reader does with an open file: the part of `FileHandle` that {@link open}'s handle has. */
export type ReadHandle = Pick<FileHandle, "stat" | "read" | "close">;

/** An open file read at once, on this thread (see {@link promptly}). */
class PromptHandle implements ReadHandle {
  #fd: number | undefined;
  constructor(fd: number) {
    this.#fd = fd;
  }
  /** The descriptor of a handle of this class, else undefined. */
  static fdOf(handle: ReadHandle): number | undefined {
    return handle instanceof PromptHandle ? handle.#fd : undefined;
  }
  #open(): number {
    if (this.#fd === undefined) throw Object.assign(new Error("file closed"), { code: "EBADF" });
    return this.#fd;
  }
  stat = (() => promptly(() => fs.fstatSync(this.#open()))) as ReadHandle["stat"];
  read = ((buffer: NodeJS.ArrayBufferView, offset: number, length: number, position: number) =>
    promptly(() => ({
      bytesRead: fs.readSync(this.#open(), buffer, offset, length, position),
      buffer,
    }))) as ReadHandle["read"];
  close = (): Promise<void> =>
    promptly(() => {
      const fd = this.#fd;
      this.#fd = undefined;
      if (fd !== undefined) fs.closeSync(fd);
    });
}

/**
 * Where the open file `handle` (from {@link open}) or descriptor `fd` lies
 * now, as the kernel names it (`/proc/self/fd`, Linux): a folder on the way
 * to it swapped for a link between a check and the open shows here. Undefined
 * where the system does not say (another system, no `/proc`, a path too
 * long). About this process, not the repository: not noted by a recorder.
 */
export function openedPath(handle: ReadHandle | number): string | undefined {
  const fd = typeof handle === "number" ? handle : PromptHandle.fdOf(handle);
  if (fd === undefined || process.platform !== "linux") return undefined;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`, "utf8");
  } catch {
    return undefined;
  }
}

export async function open(path: string, flags: number): Promise<ReadHandle> {
  await statBeforeReading(currentRecorder(), path);
  return promptly(() => new PromptHandle(fs.openSync(path, flags)));
}

/** `fs.promises.readdir`; the folder's stat (its mtime changes with every entry added or removed) is noted first. */
export const readdir = (async (path: fs.PathLike, options?: unknown) => {
  await statBeforeReading(currentRecorder(), path);
  return counted(fs.promises.readdir(path, options as never));
}) as typeof fs.promises.readdir;

// Synchronous forms, for the workspace tree walk: it calls the file system
// synchronously in short slices (see gather/tree/_tree-walk.ts).

/**
 * `fs.statSync` (`follow`) or `fs.lstatSync`, undefined where it fails; a
 * missing path costs no exception. Noted like the promise forms, the
 * failures as their error code.
 */
export function statOrUndefinedSync(path: string | Buffer, follow: boolean): fs.Stats | undefined {
  const call = follow ? fs.statSync : fs.lstatSync;
  // A path given as bytes (a name that is not UTF-8, reached by the tree) has
  // no string key; its folder's listing, noted, still shows it come and go.
  const recorder = typeof path === "string" ? currentRecorder() : undefined;
  const startedAt = recorder ? Date.now() : 0;
  let seen: Observation;
  let stats: fs.Stats | undefined;
  try {
    stats = call(path, { throwIfNoEntry: false });
    seen = stats ? { stats } : { error: "ENOENT" };
  } catch (error) {
    seen = { error: errorCode(error) };
  }
  if (recorder && typeof path === "string") {
    recorder.note(follow ? "stat" : "lstat", path, seen, startedAt);
  }
  return stats;
}

/** `fs.readdirSync`; the folder's stat is noted first. */
export const readdirSync = ((path: string, options?: unknown) => {
  const recorder = currentRecorder();
  if (recorder && !recorder.has("stat", path)) statOrUndefinedSync(path, true);
  return (fs.readdirSync as (...args: unknown[]) => unknown)(path, options);
}) as typeof fs.readdirSync;

/**
 * The entries of the folder at `path` (`readdirSync` with file types); its
 * stat is noted first under `noteAs`, when `path` is a held folder's
 * `/proc/self/fd/N` ({@link openCheckedFolder}).
 */
export function readdirEntriesSync(path: string, noteAs: string = path): fs.Dirent[] {
  const recorder = currentRecorder();
  if (recorder && !recorder.has("stat", noteAs)) statOrUndefinedSync(noteAs, true);
  return fs.readdirSync(path, { withFileTypes: true });
}

/**
 * `fs.opendirSync`: a folder read a batch at a time; the folder's stat is
 * noted first (under `noteAs`, as for {@link readdirSync}).
 */
export function opendirSync(
  path: string,
  options?: fs.OpenDirOptions,
  noteAs: string = path,
): fs.Dir {
  const recorder = currentRecorder();
  if (recorder && !recorder.has("stat", noteAs)) statOrUndefinedSync(noteAs, true);
  return fs.opendirSync(path, options);
}

/** A folder held open by {@link openCheckedFolder}: the path its listing is read by, and its release. */
export interface HeldFolder {
  /** `/proc/self/fd/N`: the very folder opened, whatever is at its path now. */
  at: string;
  /** Its descriptor `N`: where the kernel says it lies ({@link openedPath}). */
  fd: number;
  close: () => void;
}

/** The error of a folder (or file) replaced between its check and its open: as if gone. */
export function replacedError(path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `ENOENT: the folder was replaced since it was checked, scandir '${path}'`,
  );
  error.code = "ENOENT";
  error.syscall = "scandir";
  error.path = path;
  return error;
}

/**
 * Opens the folder at `path` without following a final link (`O_DIRECTORY |
 * O_NOFOLLOW`) and checks it is the one `checked` (an lstat taken before: same
 * device and inode), for a listing read by the descriptor (Linux's
 * `/proc/self/fd`, as Node lists only by path): a link or another folder
 * swapped in at `path` since the check is never listed. Undefined where the
 * system cannot list by descriptor (no `/proc`): the caller lists by path.
 * Throws as a listing would: ELOOP for a link, ENOTDIR, ENOENT; ENOENT too
 * for another folder than the one checked (it is as if gone). The caller
 * notes the listing against `path` (`noteAs`).
 */
export function openCheckedFolder(path: string, checked: fs.Stats): HeldFolder | undefined {
  if (process.platform !== "linux") return undefined;
  const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;
  const fd = fs.openSync(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  const close = () => {
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  };
  const now = fs.fstatSync(fd);
  if (now.dev !== checked.dev || now.ino !== checked.ino) {
    close();
    throw replacedError(path);
  }
  return { at: `/proc/self/fd/${fd}`, fd, close };
}

/**
 * Opens the folder at `path`, following links, and holds it: the listing is
 * then read by the descriptor (`at`), and `real` is the held folder's real
 * path as the kernel names it, so what is judged is what is listed, whatever
 * is swapped in at `path` or on its way afterwards (decided, review rev88a
 * F2). Undefined where the system cannot list by descriptor (no `/proc`).
 * Throws as the open does (ENOENT, ENOTDIR, EACCES; ELOOP for a link when
 * `follow` is false). The caller notes the listing against `path`.
 */
export function openHeldFolder(
  path: string,
  follow = true,
): (HeldFolder & { real: string }) | undefined {
  if (process.platform !== "linux") return undefined;
  const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;
  // `follow` false: a link at `path` itself is not opened (ELOOP), as a walk that enters no link.
  const fd = fs.openSync(path, O_RDONLY | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW));
  let open = true;
  // Once only: a second close could close a descriptor the number was given to since.
  const close = () => {
    if (!open) return;
    open = false;
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed: nothing to release.
    }
  };
  const at = `/proc/self/fd/${fd}`;
  try {
    return { at, fd, close, real: fs.readlinkSync(at, "utf8") };
  } catch {
    close();
    return undefined;
  }
}

/** `fs.readlinkSync` as text. */
export function readlinkSync(path: string): string {
  const recorder = currentRecorder();
  if (!recorder) return fs.readlinkSync(path, "utf8");
  const startedAt = Date.now();
  try {
    const text = fs.readlinkSync(path, "utf8");
    recorder.note("readlink", path, { text }, startedAt);
    return text;
  } catch (error) {
    recorder.note("readlink", path, { error: errorCode(error) }, startedAt);
    throw error;
  }
}
