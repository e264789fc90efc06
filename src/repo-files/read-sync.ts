import { closeSync, fstatSync, lstatSync, openSync, type Stats, statSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  decodeText,
  isMissing,
  MAX_TEXT_FILE_BYTES,
  nameFailure,
  readFailure,
  readHeadSync,
  statFailure,
  undecodableNameSync,
} from "../_fs.js";
import { openedPath } from "../_io.js";
import { isBelowCeiling } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import { nestedCloneSync } from "./nested-clone.js";
import { led, nestedRefusal, placeRefusal, type Reach, reachOf } from "./reach.js";
import {
  CHANGED,
  errorCode,
  movedFrom,
  OPEN_FLAGS,
  type RepoText,
  type readRepoTexts,
  refused,
} from "./read.js";

// The door's synchronous twin, for the callers that cannot await. It reads
// by the same steps as read.ts, without the checks that need a promise.

/**
 * Synchronous twin of {@link readRepoText}, for the callers that cannot
 * await (a skill's expansion, `loadPromptTemplatesSync`). They read a
 * trusted project's `.pi` files only, so the reach has no private check.
 */
export function readRepoTextSync(
  path: string,
  o: { reach?: Omit<Reach, "isPrivate"> | undefined; maxBytes?: number } = {},
): RepoText {
  const maxBytes = o.maxBytes ?? MAX_TEXT_FILE_BYTES;
  let before: Stats;
  let real: string;
  try {
    before = statSync(path);
    if (!before.isFile())
      return statFailure(path, before.isDirectory() ? "dir" : "other") as RepoText;
    if (before.size > maxBytes)
      return statFailure(path, "other", before.size, maxBytes) as RepoText;
    real = realpathSyncLinear(path);
  } catch (error) {
    const name = isMissing(error) ? undecodableNameSync(path, "file") : undefined;
    return (name ? nameFailure(name) : readFailure(path, error)) as RepoText;
  }
  if (o.reach) {
    const refusal = placeRefusal(path, real, o.reach, false);
    if (refusal) return refused(path, refusal);
    const clone = led(path, real, o.reach, false)
      ? nestedCloneSync(real, o.reach.realRoot)
      : undefined;
    if (clone !== undefined) return refused(path, nestedRefusal(real, clone, o.reach));
  }
  let fd: number | undefined;
  try {
    fd = openSync(real, OPEN_FLAGS);
    const s = fstatSync(fd);
    if (!s.isFile()) return statFailure(path, s.isDirectory() ? "dir" : "other") as RepoText;
    if (s.dev !== before.dev || s.ino !== before.ino || movedFrom(real, openedPath(fd)))
      return refused(path, CHANGED);
    const bytes = readHeadSync(fd, maxBytes + 1, s.size);
    if (bytes.length > maxBytes) {
      return statFailure(path, "other", bytes.length, maxBytes) as RepoText;
    }
    const decoded = decodeText(bytes, path);
    return decoded.ok ? { ...decoded, real } : decoded;
  } catch (error) {
    if (errorCode(error) === "ELOOP") return refused(path, CHANGED);
    return readFailure(path, error) as RepoText;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Synchronous twin of {@link readRepoTexts}. */
export function readRepoTextsSync(
  paths: readonly string[],
  o: Parameters<typeof readRepoTextSync>[1],
  maxChars: number,
): { reads: RepoText[]; notRead: number } {
  const reads: RepoText[] = [];
  let left = maxChars;
  for (const path of paths) {
    if (left <= 0) break;
    const read = readRepoTextSync(path, o);
    if (read.ok) left -= read.text.length;
    reads.push(read);
  }
  return { reads, notRead: paths.length - reads.length };
}

function realOrSelfSync(path: string): string {
  try {
    return realpathSyncLinear(path);
  } catch {
    // Gone or dangling: the read that follows reports it.
    return path;
  }
}

/**
 * Synchronous twin of {@link projectReach} for a trusted project (the sync
 * readers read only a trusted project's files): its root found as git finds
 * it, the home-folder rule applied.
 */
export function projectReachSync(o: {
  start: string;
  home: string;
  ceiling?: string | undefined;
}): Omit<Reach, "isPrivate"> {
  let found = o.start;
  for (let dir = o.start; ; ) {
    if (lstatSync(join(dir, ".git"), { throwIfNoEntry: false })) {
      found = dir;
      break;
    }
    const up = dirname(dir);
    if (up === dir || !isBelowCeiling(up, o.ceiling)) break;
    dir = up;
  }
  return reachOf({
    start: o.start,
    realStart: realOrSelfSync(o.start),
    found,
    realFound: realOrSelfSync(found),
    home: o.home,
    realHome: realOrSelfSync(o.home),
  });
}
