import { closeSync, fstatSync, openSync, type Stats, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
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
import { isWithin, toPosix } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import type { Diagnostic } from "../types.js";
import { CHANGED, openedRefusal, type Way, wayTo } from "./door-checks.js";
import {
  type HeldWalkSync,
  heldLinksSync,
  linkOutRefusal,
  mirroredRepositorySync,
  stopRefusal,
} from "./held-links.js";
import { yourPrivateRefusal } from "./own-private.js";
import { gitFolderRefusal } from "./own-reach.js";
import { findProjectRootSync } from "./project-root.js";
import {
  folderWords,
  type Reach,
  type Refusal,
  reachOf,
  reachRefusalSync,
  refusalDiagnostic,
} from "./reach.js";
import { errorCode, OPEN_FLAGS, type RepoText, type readRepoTexts, refused } from "./read.js";

// The door's synchronous twin, for the callers that cannot await. It reads
// by the same steps as read.ts and runs the same checks (door-checks.ts,
// reachRefusalSync), less the untrusted project's private files.

/**
 * The synchronous door's options, as {@link DoorOptions}: a project's file
 * gives its `reach`; a file of yours gives `own` (undefined only where it is
 * no file of your agent dir's), which places it as the door places one.
 */
export type SyncDoorOptions = { maxBytes?: number; home?: string | undefined } & (
  | { reach: Omit<Reach, "isPrivate">; own?: undefined }
  | { reach?: Omit<Reach, "isPrivate"> | undefined; own: OwnFilesSync | undefined }
);

/** Synchronous twin of {@link OwnFiles}: the walk over your own repositories, and the render's trust and home. */
export interface OwnFilesSync {
  walk: HeldWalkSync;
  home: string;
  /** The agent dir whose files these are (`YoursAt.agentDir`). */
  agentDir?: string | undefined;
  trusted: boolean;
  /** The folder the render starts in ({@link OwnFiles.cwd}): its project, trusted, is the one checkout read with no private check. */
  cwd?: string | undefined;
  /** The environment that moves your private places (`YoursAt.env`). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * Synchronous twin of {@link ownFilesOf}, for the files of your agent dir that
 * the synchronous loaders read (`loadPromptTemplatesSync`, a skill's
 * expansion). No deadline: the walk's budget bounds each path.
 */
export function ownFilesOfSync(
  agentDir: string,
  o: {
    home: string;
    trusted: boolean;
    cwd?: string | undefined;
    env?: Readonly<Record<string, string | undefined>> | undefined;
  },
): OwnFilesSync {
  return {
    ...o,
    agentDir,
    walk: heldLinksSync(ownRepositoriesSync(agentDir, o.home), { packages: true }),
  };
}

/** Synchronous twin of {@link ownRepositories} (the same rule, on the same look-ups). */
function ownRepositoriesSync(agentDir: string, home: string): string[] {
  const realHome = realOrSelfSync(home);
  const realAgentDir = realOrSelfSync(agentDir);
  const linked =
    isWithin(agentDir, home) && realAgentDir !== join(realHome, relative(home, agentDir));
  if (!linked) return [realHome, realAgentDir];
  const stowed = mirroredRepositorySync(agentDir, [home, realHome]);
  return stowed ? [realHome, stowed] : [realHome];
}

/** Where the asynchronous door reads what a synchronous read may not. */
const ASYNC_READERS =
  "a synchronous read (loadPromptTemplatesSync, a skill's expansion) cannot check them; the asynchronous loaders (loadPromptTemplates, loadSkills) and expandSkillCommandAsync (`sysprompt expand`) read it through that checkout's door";

/**
 * An untrusted render's file of yours that lies in a checkout: its door judges
 * the checkout's private files (its ignore rules), which no synchronous read
 * can ask, so it is refused here, never read without that check.
 */
const UNTRUSTED_CHECKOUT: Refusal = {
  reason: "private",
  code: "file-private",
  message: `it lies in a checkout, whose private files an untrusted render keeps out, and ${ASYNC_READERS}`,
};

/**
 * A file of yours in a checkout that is not the render's project: its private
 * files are kept out whatever the render's trust (review rev109a F2), which no
 * synchronous read can ask.
 */
function otherCheckout(root: string): Refusal {
  return {
    reason: "private",
    code: "file-private",
    message: `it lies in the checkout ${toPosix(root)}, which is not the project rendered and whose private files a file of yours never brings in, and ${ASYNC_READERS}`,
  };
}

/** {@link OwnFilesSync.cwd}'s project: true when `root` is the repository holding it. */
function isRenderProjectSync(root: string, cwd: string | undefined): boolean {
  if (cwd === undefined) return false;
  const realRoot = realOrSelfSync(root);
  const realCwd = realOrSelfSync(cwd);
  return isWithin(realCwd, realRoot) && realOrSelfSync(findProjectRootSync(realCwd)) === realRoot;
}

/**
 * Synchronous twin of {@link placeOwnFile}: the same walk ({@link heldLinksSync});
 * a file in a checkout gives that checkout's reach when no private check is
 * owed (your stowed dotfiles; the render's own project, trusted); else it is
 * refused ({@link UNTRUSTED_CHECKOUT}, {@link otherCheckout}).
 */
function placeOwnFileSync(
  path: string,
  o: OwnFilesSync,
):
  | { kind: "own" }
  | { kind: "checkout"; reach: Omit<Reach, "isPrivate">; spelled: string }
  | { kind: "refused"; refusal: Refusal } {
  const walked = o.walk(path);
  if (walked.kind === "link-out") return { kind: "refused", refusal: linkOutRefusal(walked) };
  if (walked.kind === "stopped") return { kind: "refused", refusal: stopRefusal(walked) };
  const root = walked.repository;
  if (root === undefined) return { kind: "own" };
  const git = gitFolderRefusal(walked.real, root);
  if (git) return { kind: "refused", refusal: git };
  const mirror = mirroredRepositorySync(path, [o.home, realOrSelfSync(o.home)]);
  if (mirror === undefined || realOrSelfSync(mirror) !== root) {
    const project = isRenderProjectSync(root, o.cwd);
    if (!o.trusted && project) return { kind: "refused", refusal: UNTRUSTED_CHECKOUT };
    if (!o.trusted || !project) return { kind: "refused", refusal: otherCheckout(root) };
  }
  const realRoot = realOrSelfSync(root);
  const reach = reachOf({
    start: root,
    realStart: realRoot,
    found: root,
    realFound: realRoot,
    home: o.home,
    realHome: realOrSelfSync(o.home),
  });
  return { kind: "checkout", reach, spelled: walked.spelled };
}

/**
 * Synchronous twin of {@link readRepoText}, for the callers that cannot
 * await (a skill's expansion, `loadPromptTemplatesSync`). They read a
 * trusted project's `.pi` files only, so the reach has no private check.
 */
export function readRepoTextSync(path: string, o: SyncDoorOptions): RepoText {
  const maxBytes = o.maxBytes ?? MAX_TEXT_FILE_BYTES;
  // A file of yours in a checkout (your `prompts/x.md -> ~/kits/team/x.md`): the checkout's door.
  if (!o.reach && o.own) {
    const place = placeOwnFileSync(path, o.own);
    if (place.kind === "refused") return refused(path, place.refusal);
    if (place.kind === "checkout")
      return readRepoTextSync(place.spelled, { reach: place.reach, maxBytes });
  }
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
  let way: Way | undefined;
  if (o.reach) {
    const refusal = reachRefusalSync(path, real, o.reach, false);
    if (refusal) return refused(path, refusal);
    if (resolve(path) !== real) {
      const walked = wayTo(path, real, before);
      if ("reason" in walked) return refused(path, walked);
      way = walked;
    }
  }
  let fd: number | undefined;
  try {
    const opened = openSync(real, OPEN_FLAGS);
    fd = opened;
    const s = fstatSync(fd);
    if (!s.isFile()) return statFailure(path, s.isDirectory() ? "dir" : "other") as RepoText;
    const now = way && realOrUndefinedSync(path);
    const refusal =
      openedRefusal({ real, before, s, opened: () => openedPath(opened), now }, o.reach, way) ??
      yourPrivateRefusal(
        real,
        s,
        {
          home: o.own?.home ?? o.home,
          agentDir: o.own?.agentDir,
          env: o.own?.env,
          mirrored: (named, homes) => mirroredRepositorySync(named, homes) !== undefined,
        },
        path,
        !o.reach,
      );
    if (refusal) return refused(path, refusal);
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
  o: SyncDoorOptions,
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

function realOrUndefinedSync(path: string): string | undefined {
  try {
    return realpathSyncLinear(path);
  } catch {
    // Gone meanwhile: the way changed.
    return undefined;
  }
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
 * readers read only a trusted project's files): its root found as
 * `findProjectRoot` finds it ({@link findProjectRootSync}: a marker of yours,
 * `.git` or another kind's), the home-folder rule applied.
 */
export function projectReachSync(o: {
  start: string;
  home: string;
  ceiling?: string | undefined;
}): Omit<Reach, "isPrivate"> {
  const found = findProjectRootSync(o.start, o.ceiling);
  return reachOf({
    start: o.start,
    realStart: realOrSelfSync(o.start),
    found,
    realFound: realOrSelfSync(found),
    home: o.home,
    realHome: realOrSelfSync(o.home),
  });
}

/** Synchronous twin of {@link folderRefused} (a trusted project's folders: no private check). */
export function folderRefusedSync(
  dir: string,
  reach: Omit<Reach, "isPrivate"> | undefined,
): Diagnostic | undefined {
  if (reach === undefined) return undefined;
  return folderRefusedAtSync(dir, realOrSelfSync(dir), reach);
}

/** {@link folderRefusedSync} of the folder `dir` whose real path is `real` (that of a folder held open). */
export function folderRefusedAtSync(
  dir: string,
  real: string,
  reach: Omit<Reach, "isPrivate">,
): Diagnostic | undefined {
  const refusal = reachRefusalSync(dir, real, reach, false);
  return refusal && refusalDiagnostic(dir, folderWords(refusal, real, reach));
}
