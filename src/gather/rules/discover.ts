import { join } from "node:path";
import { undecodableName } from "../../_fs.js";
import { lstatOrMissing, realpath, stat } from "../../_io.js";
import { pace } from "../../_pace.js";
import { childPath, toPosix } from "../../_paths.js";
import {
  foundRefusal,
  type Reach,
  type Refusal,
  reachRefusal,
  walkFolders,
} from "../../repo-files/index.js";
import type { RuleLocation } from "./formats.js";
import type { RuleFate } from "./types.js";

/** Most rule files read from one rules folder (its subfolders included); the rest are named in one warning. */
export const MAX_RULE_FILES_PER_FOLDER = 200;

/** Deepest subfolder of a `**` rules folder that is searched (`.cursor/rules/a/b/c/d/e/f`). */
export const MAX_RULE_FOLDER_DEPTH = 6;

/** Most subfolders of one `**` rules folder that are listed; the rest are named in one entry. */
export const MAX_RULE_SUBFOLDERS = 100;
/**
 * Most entries of one rules folder that are read. Which of a folder's files
 * count must not depend on the order the file system lists them in, so they
 * are sorted, which needs all of them: a folder with more (a million files
 * in `.roo/rules` took 6.6 s and 845 MB) is refused whole, read a batch at a
 * time and never past this.
 */
export const MAX_RULE_FOLDER_ENTRIES = 10 * MAX_RULE_FILES_PER_FOLDER;

/** A file that may be a rule: where it was found and what it is called. */
export interface RuleCandidate {
  path: string;
  /** Its path below the rules folder, or its file name for a single-file location. */
  rel: string;
  location: RuleLocation;
  /** The file's real path, once it is known to be a regular file that may be read. */
  real?: string;
  size?: number;
  /** Set when the file is found but must not be read. */
  refused?: Extract<RuleFate, { status: "refused" | "over-cap" | "unreadable" }>;
  /** The door's refusal, when it is why the file is `refused` (its words are the reason). */
  door?: Refusal;
  /** Set when the file is found but its agent does not read it here (a fallback whose main location has files). */
  disabled?: string;
}

/**
 * Entries a caller lets several {@link findRuleFiles} calls list in all
 * (`left` goes down as they list); once spent, a call returns nothing.
 */
export interface ListingBudget {
  left: number;
}

/**
 * The rule files of one location under `base`, sorted by path. Never walks
 * beyond the location: a single file, or one folder (and, for `recursive`
 * locations, its subfolders up to {@link MAX_RULE_FOLDER_DEPTH}). Entries are
 * looked at with `lstat`: links to folders are not followed; with `reach`
 * (a project's files), a file or a rules folder is kept only when the door
 * would read it there ({@link reachRefusal}: inside the project, and for an
 * untrusted project not private), and refused with the door's words
 * otherwise; FIFOs, sockets and devices are refused without being opened.
 * `realBase`, when given, is `base`'s real path.
 */
export async function findRuleFiles(
  base: string,
  location: RuleLocation,
  reach: Reach | undefined,
  signal?: AbortSignal,
  listed?: ListingBudget,
  realBase?: string,
): Promise<RuleCandidate[]> {
  // Its turn first, then the signal: a cwd a thousand folders deep starts tens
  // of thousands of these at once, and none looks once the render gave up.
  const turn = pace();
  if (turn) await turn;
  if (signal?.aborted) return [];
  const top = location.rel === "" ? base : childPath(base, location.rel);
  const own = await lstatOrUndefined(top);
  if (!own) return [];
  // A link where a folder may be: what it leads to decides (the door's verdict below, by real path).
  const target =
    own.isSymbolicLink() && location.kind !== "file" ? await statOrUndefined(top) : own;
  const asDir = target?.isDirectory() === true && location.kind !== "file";
  if (!asDir) {
    if (location.kind === "dir" && own.isSymbolicLink() && !target) {
      // A link where a rules folder goes, to nothing (gone, or a loop): surely meant to be read.
      return [
        refuse({ path: top, rel: "", location }, "a link whose target does not exist (or loops)"),
      ];
    }
    if (location.kind === "dir") return [];
    const name = location.rel.split("/").pop() ?? location.rel;
    return [await checkFile({ path: top, rel: name, location }, own, reach, undefined)];
  }
  // The folder itself (Roo's mode files): its real path, when the caller knows it, costs no walk of a long path.
  const real =
    location.rel === "" && realBase !== undefined ? realBase : await realpath(top).catch(() => top);
  const refusal = reach && (await reachRefusal(top, real, reach, location.named === true));
  if (refusal) return [doorRefused({ path: top, rel: "", location }, refusal)];
  // A render that gave up on the step lists no folder more (its value is no longer read).
  if (signal?.aborted) return [];
  const found: { path: string; rel: string }[] = [];
  const skipped: RuleCandidate[] = [];
  try {
    await listRulesFolder(top, real, location, found, skipped, listed, signal);
  } catch (error) {
    // Stopped mid-walk (a rules tree of 200,000 entries is a second's listing): nothing of it kept.
    if (signal?.aborted && error === signal.reason) return [];
    throw error;
  }
  // The caller's total ran out in this location: none of it is kept (the caller says it stopped).
  if (listed !== undefined && listed.left <= 0) return [];
  found.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const out: RuleCandidate[] = [...skipped];
  for (const [i, f] of found.entries()) {
    const candidate = { path: f.path, rel: f.rel, location };
    if (i >= MAX_RULE_FILES_PER_FOLDER) {
      out.push({
        ...candidate,
        refused: {
          status: "over-cap",
          reason: `more than ${MAX_RULE_FILES_PER_FOLDER} rule files in ${toPosix(top)}`,
        },
      });
      continue;
    }
    // Each check is a few look-ups, synchronous in slices: past the deadline, none of this folder is kept.
    if (i % 16 === 0) {
      const turn = pace();
      if (turn) await turn;
      if (signal?.aborted) return [];
    }
    const s = await lstatOrUndefined(f.path);
    out.push(s ? await checkFile(candidate, s, reach, f.rel) : await goneOrUndecodable(candidate));
  }
  return out;
}

/**
 * The files of one rules folder that its location matches, and (for a
 * recursive location) of its subfolders: a repository walk that never
 * enters a link, at most {@link MAX_RULE_FOLDER_DEPTH} deep and
 * {@link MAX_RULE_SUBFOLDERS} subfolders wide, each folder of at most
 * {@link MAX_RULE_FOLDER_ENTRIES} entries. A folder that is cut or cannot be
 * listed is one `skipped` entry.
 */
async function listRulesFolder(
  top: string,
  real: string,
  location: RuleLocation,
  found: { path: string; rel: string }[],
  skipped: RuleCandidate[],
  listed: ListingBudget | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  let folders = 0;
  const skip = (path: string, rel: string, refused: NonNullable<RuleCandidate["refused"]>) => {
    skipped.push({ path, rel, location, refused });
  };
  // A project folder listed for a few names (Roo's mode files, never used):
  // one too large to list, or unlistable, is not a rules folder lost, so no warning.
  const quiet = location.rel === "";
  const match = location.match ?? (() => true);
  await walkFolders<undefined>(top, undefined, {
    // The folder the door judged: one swapped for a link since is not listed (rev89h F1).
    real,
    signal,
    sort: "bytes",
    maxEntries: MAX_RULE_FOLDER_ENTRIES,
    total: listed,
    maxDepth: MAX_RULE_FOLDER_DEPTH,
    onUnreadable: (path, rel, error) => {
      // Gone meanwhile, or not a folder after all: nothing to say.
      if (quiet || error.code === "ENOENT" || error.code === "ENOTDIR") return;
      skip(path, rel, { status: "unreadable", reason: "cannot list the folder" });
    },
    onCapped: (path, rel) => {
      if (quiet) return;
      skip(path, rel, {
        status: "over-cap",
        reason: `more than ${MAX_RULE_FOLDER_ENTRIES} entries in one rules folder: none of them read`,
      });
    },
    onTooDeep: (path, rel) =>
      skip(path, rel, {
        status: "over-cap",
        reason: `folder deeper than ${MAX_RULE_FOLDER_DEPTH} levels not searched`,
      }),
    *visit(folder) {
      for (const e of folder.entries) {
        const childRel = folder.rel === "" ? e.name : `${folder.rel}/${e.name}`;
        if (e.isDirectory()) {
          if (!location.recursive || (location.select && !location.select(`${childRel}/`))) {
            continue;
          }
          // Sorted before: which subfolders fit under the cap does not depend on the file system's order.
          if (folders >= MAX_RULE_SUBFOLDERS) {
            if (folders++ === MAX_RULE_SUBFOLDERS) {
              skip(join(folder.path, e.name), childRel, {
                status: "over-cap",
                reason: `more than ${MAX_RULE_SUBFOLDERS} subfolders in one rules folder: this one and those after it not searched`,
              });
            }
            continue;
          }
          folders++;
          yield { name: e.name, state: undefined };
        } else if (match(e.name) && (location.select?.(childRel) ?? true)) {
          found.push({ path: join(folder.path, e.name), rel: childRel });
        }
      }
    },
  });
}

/**
 * A found file, checked: a regular file (directly or through a link) that the
 * door would read; `below`, for a file listed in a rules folder, its path
 * there, whose hidden names the door refuses for an untrusted project.
 */
async function checkFile(
  candidate: RuleCandidate,
  own: import("node:fs").Stats,
  reach: Reach | undefined,
  below: string | undefined,
): Promise<RuleCandidate> {
  let s = own;
  let real = candidate.path;
  try {
    if (own.isSymbolicLink()) {
      real = await realpath(candidate.path);
      s = await stat(real);
    } else {
      real = await realpath(candidate.path);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(
      candidate,
      code === "ENOENT"
        ? "a link whose target does not exist"
        : `cannot resolve: ${(error as Error).message}`,
    );
  }
  const named = candidate.location.named === true;
  // Untrusted, a file found at its own place is refused where the door calls it private, but for
  // a format's local file (`CLAUDE.local.md`: yours, kept out of git by design).
  const refusal =
    reach &&
    (named || candidate.location.local
      ? await reachRefusal(candidate.path, real, reach, named)
      : await foundRefusal(candidate.path, real, reach, below));
  if (refusal) return { ...doorRefused(candidate, refusal), real };
  if (s.isDirectory()) return refuse(candidate, "a link to a folder (not followed)");
  if (!s.isFile())
    return refuse(candidate, "not a regular file (FIFO, socket or device); not opened");
  return { ...candidate, real, size: s.size };
}

/** A listed file that lstat cannot find: its name is not UTF-8 (worded as skills' are), or it went. */
async function goneOrUndecodable(candidate: RuleCandidate): Promise<RuleCandidate> {
  const name = await undecodableName(candidate.path, "file");
  if (!name) return refuse(candidate, "gone while being read");
  return {
    ...candidate,
    refused: { status: "refused", reason: name.message, code: "name-not-utf8" },
  };
}

function refuse(candidate: RuleCandidate, reason: string): RuleCandidate {
  return { ...candidate, refused: { status: "refused", reason } };
}

function doorRefused(candidate: RuleCandidate, door: Refusal): RuleCandidate {
  return { ...refuse(candidate, door.message), door };
}

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch {
    // A link whose target is gone: not a folder; checkFile says what it is.
    return undefined;
  }
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstatOrMissing(path);
  } catch {
    // Missing (the normal case) or not searchable: nothing to read here either way.
    return undefined;
  }
}
