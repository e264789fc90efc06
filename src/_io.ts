import { AsyncLocalStorage } from "node:async_hooks";
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";

/**
 * Every file-system call that gathering makes goes through this module: each
 * function behaves exactly like its `node:fs` twin. Inside
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

/** How a path was looked at; validating an observation repeats the same probe. */
export type Probe = "stat" | "lstat" | "realpath" | "readlink";

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
    () => fsp.stat(path),
    (stats) => ({ stats }),
  ).catch(
    // The read that follows fails the same way and reports it.
    () => undefined,
  );
}

export function stat(path: string): Promise<fs.Stats> {
  const recorder = currentRecorder();
  if (!recorder) return fsp.stat(path);
  return observed(
    recorder,
    "stat",
    path,
    () => fsp.stat(path),
    (stats) => ({ stats }),
  );
}

export function lstat(path: string): Promise<fs.Stats> {
  const recorder = currentRecorder();
  if (!recorder) return fsp.lstat(path);
  return observed(
    recorder,
    "lstat",
    path,
    () => fsp.lstat(path),
    (stats) => ({ stats }),
  );
}

export function realpath(path: string): Promise<string> {
  const recorder = currentRecorder();
  if (!recorder) return fsp.realpath(path);
  return observed(
    recorder,
    "realpath",
    path,
    () => fsp.realpath(path),
    (text) => ({ text }),
  );
}

export function readlink(path: string | Buffer): Promise<string> {
  const recorder = currentRecorder();
  // A path given as bytes (a name that is not UTF-8) has no string key to note it by.
  if (!recorder || typeof path !== "string") return fsp.readlink(path, "utf8");
  return observed(
    recorder,
    "readlink",
    path,
    () => fsp.readlink(path),
    (text) => ({ text }),
  );
}

export async function readFile(path: string): Promise<Buffer> {
  await statBeforeReading(currentRecorder(), path);
  return fsp.readFile(path);
}

export async function open(path: string, flags: number): Promise<fsp.FileHandle> {
  await statBeforeReading(currentRecorder(), path);
  return fsp.open(path, flags);
}

/** `fs.promises.readdir`; the folder's stat (its mtime changes with every entry added or removed) is noted first. */
export const readdir = (async (path: fs.PathLike, options?: unknown) => {
  await statBeforeReading(currentRecorder(), path);
  return fsp.readdir(path, options as never);
}) as typeof fsp.readdir;

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

/** `fs.opendirSync`: a folder read a batch at a time; the folder's stat is noted first. */
export function opendirSync(path: string, options?: fs.OpenDirOptions): fs.Dir {
  const recorder = currentRecorder();
  if (recorder && !recorder.has("stat", path)) statOrUndefinedSync(path, true);
  return fs.opendirSync(path, options);
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
