/**
 * What `sysprompt hook` has given in each agent session: one small file per
 * session under sysprompt's cache folder, written atomically through the
 * one cache writer. Bounded: a session keeps its newest keys, and the
 * folder its newest sessions; the rest are dropped.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  type CacheLocation,
  cacheFileReadable,
  cacheLocation,
  readyCacheFileFolder,
  writeCacheFile,
} from "../_cache-location.js";
import { hash128Hex } from "../_hash.js";

/** Most sessions kept per agent; a new one evicts the least recently used. */
export const MAX_HOOK_SESSIONS = 64;
/** Most keys (files given or refused) one session keeps; the oldest go first. */
export const MAX_SESSION_KEYS = 2048;
/** A session file past this is not ours (keys are paths): it is started afresh. */
const MAX_STATE_BYTES = 4 * 1024 * 1024;
const VERSION = 1;

/** The cache file of one agent session: its id is hashed, so no id names a path. */
export function sessionLocation(
  agent: string,
  sessionId: string,
  where: {
    agentDir?: string | undefined;
    env: Readonly<Record<string, string | undefined>>;
    home: string;
  },
): CacheLocation {
  return cacheLocation(`${prefix(agent)}${hash128Hex(sessionId)}`, where);
}

function prefix(agent: string): string {
  return `hook-${agent}-`;
}

/** One session's file, read: what was given (oldest first) and the caller's note about the project. */
export interface SessionState {
  keys: Set<string>;
  /** Whether the file was there (a new session's is not). */
  found: boolean;
  /** What the caller kept beside the keys, unchecked (see `HookSnapshot`). */
  snapshot?: unknown;
}

/**
 * What the session was given, oldest first; empty for a new, unreadable or
 * foreign file. Synchronous: a few hundred bytes from sysprompt's own cache
 * folder, on the hook's quick path.
 */
export function readSession(location: CacheLocation): SessionState {
  const read = readSmallFile(location.path, MAX_STATE_BYTES);
  // Missing (a new session), or too large or not a file: started afresh, the next write replaces it.
  if (!("text" in read)) return { keys: new Set(), found: read.problem !== "missing" };
  try {
    const value = JSON.parse(read.text) as { v?: unknown; keys?: unknown; snapshot?: unknown };
    if (value.v !== VERSION || !Array.isArray(value.keys)) return { keys: new Set(), found: true };
    const keys = value.keys.filter((k): k is string => typeof k === "string");
    return { keys: new Set(keys.slice(-MAX_SESSION_KEYS)), found: true, snapshot: value.snapshot };
  } catch {
    // A torn or hand-edited file: the session starts afresh, and the next write replaces it.
    return { keys: new Set(), found: true };
  }
}

/**
 * The text of a regular file of at most `maxBytes`, opened without waiting
 * (a FIFO in its place does not block); "missing", or "other" for anything
 * else (a folder, a FIFO, too large, unreadable).
 */
export function readSmallFile(
  path: string,
  maxBytes: number,
): { text: string } | { problem: "missing" | "other" } {
  // A folder another user may write in, or one on its way up to `/`: not read (rev71d F6).
  if (!cacheFileReadable(path)) return { problem: existsSync(path) ? "other" : "missing" };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "other" };
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile() || s.size > maxBytes) return { problem: "other" };
    const buffer = Buffer.allocUnsafe(s.size);
    let at = 0;
    for (let n = 1; n > 0 && at < buffer.length; at += n) {
      n = readSync(fd, buffer, at, buffer.length - at, null);
    }
    return { text: buffer.toString("utf8", 0, at) };
  } catch {
    // Unreadable now: as a torn file, started afresh.
    return { problem: "other" };
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the session's keys (the newest {@link MAX_SESSION_KEYS}). For a
 * session that had no file yet, the agent's oldest sessions beyond
 * {@link MAX_HOOK_SESSIONS} are removed. Throws what the write threw.
 */
export function writeSession(
  location: CacheLocation,
  agent: string,
  state: { keys: ReadonlySet<string>; snapshot?: unknown },
  isNew: boolean,
): void {
  writeCacheFile(location, fittedState(state));
  if (isNew) evictSessions(location, agent);
}

/**
 * The session's file text, within {@link MAX_STATE_BYTES}, which a read
 * takes as not ours past it: keys are real paths of up to 4,096 characters,
 * so 2,048 of them and a memo can pass it, and the session would start
 * afresh at every call, giving everything again. The snapshot goes first,
 * then the oldest keys.
 */
function fittedState(state: { keys: ReadonlySet<string>; snapshot?: unknown }): string {
  let keys = [...state.keys].slice(-MAX_SESSION_KEYS);
  const text = (snapshot: unknown) => JSON.stringify({ v: VERSION, keys, snapshot });
  for (const snapshot of [state.snapshot, undefined]) {
    const whole = text(snapshot);
    if (Buffer.byteLength(whole) <= MAX_STATE_BYTES) return whole;
  }
  // The newest keys in half the room (each as JSON writes it).
  let bytes = 0;
  const fits: string[] = [];
  for (const key of keys.toReversed()) {
    bytes += Buffer.byteLength(JSON.stringify(key)) + 1;
    if (bytes > MAX_STATE_BYTES / 2) break;
    fits.push(key);
  }
  keys = fits.reverse();
  return text(undefined);
}

/** Removes the agent's session files beyond the newest {@link MAX_HOOK_SESSIONS}. */
function evictSessions(location: CacheLocation, agent: string): void {
  const dir = dirname(location.path);
  const own = basename(location.path).slice(0, -".json".length);
  const start = own.slice(0, own.length - 32);
  if (!start.endsWith(prefix(agent))) return;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(start) && n.endsWith(".json"));
  } catch {
    // The folder just written cannot be listed: nothing to evict now; the next new session tries again.
    return;
  }
  if (names.length <= MAX_HOOK_SESSIONS) return;
  const aged = names
    .map((n) => {
      try {
        return { n, t: statSync(join(dir, n)).mtimeMs };
      } catch {
        return { n, t: Number.NEGATIVE_INFINITY };
      }
    })
    .sort((a, b) => b.t - a.t || (a.n < b.n ? -1 : 1));
  for (const { n } of aged.slice(MAX_HOOK_SESSIONS)) rmSync(join(dir, n), { force: true });
}

/** Longest a call waits for another call of its session to finish with the session's file. */
export const LOCK_WAIT_MS = 40;
/** A lock older than this was left by a call that died holding it: it is taken over. */
export const LOCK_STALE_MS = 10_000;
const LOCK_POLL_MS = 2;

/**
 * Runs `update` while holding the session's lock: a file beside the
 * session's, created exclusively (O_EXCL), removed after. Two calls of one
 * session (an agent runs tools in parallel) then read, merge and write the
 * session's file one after the other, so nothing is given twice. Held only
 * for that read and write (a few ms); a call that cannot have it within
 * {@link LOCK_WAIT_MS} (or cannot create it) runs `update` anyway, so the
 * lock never holds a tool call up for longer, nor fails it. `locked` says
 * which it was.
 */
export async function withSessionLock<T>(
  location: CacheLocation,
  update: () => T | Promise<T>,
): Promise<{ value: T; locked: boolean }> {
  const lock = `${location.path}.lock`;
  const locked = await acquire(lock, location);
  try {
    return { value: await update(), locked };
  } finally {
    if (locked) rmSync(lock, { force: true });
  }
}

async function acquire(lock: string, location: CacheLocation): Promise<boolean> {
  const start = Date.now();
  // The cache folder, made and checked as the cache writer does before the lock is made in it:
  // a link there (XDG_CACHE_HOME, or an agent dir, in a checkout) would put it in the link's target.
  try {
    readyCacheFileFolder(location);
  } catch {
    // No lock: the write after it refuses the folder, with its message.
    return false;
  }
  for (;;) {
    try {
      closeSync(openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
    }
    const age = lockAge(lock);
    // Left by a call that died holding it: taken over (one of two racing callers may both take it; rare).
    if (age !== undefined && age > LOCK_STALE_MS) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() - start >= LOCK_WAIT_MS) return false;
    await new Promise((wake) => setTimeout(wake, LOCK_POLL_MS));
  }
}

function lockAge(lock: string): number | undefined {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    // Gone since: the next try creates it.
    return undefined;
  }
}
