/**
 * What `sysprompt hook` has given in each agent session: one small file per
 * session under sysprompt's cache folder, written atomically through the
 * one cache writer. Bounded: a session keeps its newest keys, and the
 * folder its newest sessions; the rest are dropped.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readTextFile } from "../_fs.js";
import { hash128Hex } from "../_hash.js";
import { type CacheLocation, cacheLocation, writeCacheFile } from "../gather/_cache-location.js";

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

/** What the session was given, oldest first; empty for a new, unreadable or foreign file. */
export async function readSession(location: CacheLocation): Promise<SessionState> {
  const read = await readTextFile(location.path, MAX_STATE_BYTES);
  // Missing (a new session), or too large or not a file: started afresh, the next write replaces it.
  if (!read.ok) return { keys: new Set(), found: read.reason !== "missing" };
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
  const kept = [...state.keys].slice(-MAX_SESSION_KEYS);
  writeCacheFile(location, JSON.stringify({ v: VERSION, keys: kept, snapshot: state.snapshot }));
  if (isNew) evictSessions(location, agent);
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
