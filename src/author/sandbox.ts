import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, readlink, rm, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, join, relative, sep } from "node:path";
import { CacheFolderRefused, cacheRoot, readyCacheFolder } from "../_cache-location.js";
import { randomHex } from "../_crypto.js";
import { realpathOrSelf, undecodableName } from "../_fs.js";
import { isWithin } from "../_paths.js";
import { realpathSyncLinear } from "../_realpath.js";
import { KIND_WORDS, makeFolderPath } from "../_safe-write.js";
import {
  MAX_BELOW_CWD_DEPTH,
  MAX_RULE_FOLDER_DEPTH,
  RULE_LOCATION_LEVELS,
} from "../gather/rules/index.js";
import {
  type Enter,
  holdsUsableGit,
  MAX_CHAIN_FOLDERS,
  namesRefusal,
  openedElsewhere,
  type PrivateCheck,
  type Reach,
  reachRefusal,
  type WalkedFolder,
  walkFolders,
} from "../repo-files/index.js";
import { SyspromptError } from "../types.js";
import {
  childState,
  folderIgnoreState,
  type IgnoredFolders,
  type IgnoreState,
  leavesOut,
  rootIgnoreState,
} from "./_copy-ignore.js";

/** Folders not copied with a scenario's folder: never fixtures, possibly huge. */
export const NOT_COPIED: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** A scenario folder holds fixtures: more entries than this is a mistake (a whole repository). */
export const MAX_SCENARIO_ENTRIES = 10_000;

/**
 * Most entries of one folder listed: past the copied entries, the ignored
 * folders and the few never copied, no copy can hold the rest, so a folder of
 * a million files is refused without reading it all.
 */
export const MAX_FOLDER_LISTING = 2 * MAX_SCENARIO_ENTRIES + NOT_COPIED.size + 1;

/** Nor more bytes than this, all files together. */
export const MAX_SCENARIO_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;

/** `bytes` in MiB, to a tenth. */
const mib = (bytes: number): string => (bytes / MIB).toFixed(1);

/**
 * Longest `explain --simulate` copies a project (see `CopyHow.signal`): a
 * copy at its caps on a local disk takes a few seconds.
 */
export const MAX_COPY_MS = 20_000;

/**
 * How many folders below a folder a render starts from (cwd, a workspace
 * root) its readers look into at most: the rule files below cwd
 * ({@link MAX_BELOW_CWD_DEPTH} levels), a rules folder there
 * ({@link RULE_LOCATION_LEVELS}, `.cursor/rules`) and that folder's own
 * subfolders ({@link MAX_RULE_FOLDER_DEPTH}). The workspace tree (8 levels)
 * and the AGENTS.md files it names (5) read less.
 */
export const MAX_READ_BELOW = MAX_BELOW_CWD_DEPTH + RULE_LOCATION_LEVELS + MAX_RULE_FOLDER_DEPTH;

/**
 * Deepest folder a copy holds (the copied folder is 0): the context files,
 * rules and skills are looked for in the {@link MAX_CHAIN_FOLDERS} folders
 * above cwd, and {@link MAX_READ_BELOW} below it. Each entry is opened by its
 * whole path, so a chain of 3,000 folders cost a copy its depth squared (20 s
 * of copying, then 10 s removing it: review rev96b F1). A deeper folder is not
 * copied (`explain --simulate` says so once; a scenario's is a problem), and
 * only a skill or an `@import` that deep is lost to the render.
 */
export const MAX_COPY_DEPTH = MAX_CHAIN_FOLDERS + MAX_READ_BELOW;

/**
 * Longest a command waits for its copy's removal (and the sweep of those a
 * killed run left): past it the removal goes on without it, and what a run
 * that ends first leaves is removed by the next run's sweep.
 */
export const MAX_REMOVE_WAIT_MS = 2_000;

/** Problems listed for one folder before the rest are summed up. */
const MAX_LISTED = 20;

/**
 * A scenario's folder copied into a fresh folder, and an empty home beside
 * it. Scenarios render from the copy, never in place: context files are
 * searched in every folder above cwd and skills up to the git root, so in
 * place a repository's own AGENTS.md (and its location) would end up in the
 * golden. The render is kept from looking above `root` (`ceilingDir`).
 */
export interface Sandbox {
  root: string;
  /** The copy of the scenario's folder; keeps the folder's name. */
  copy: string;
  /** The empty home of scenarios that set none. */
  home: string;
}

/** Something in a scenario folder that is not copied: a link, a special file, too much. */
export interface SandboxProblem {
  path: string;
  reason: string;
}

/**
 * How a folder is copied. Scenarios take the defaults: a link or special file
 * refuses the copy, and times are the copy's own (they pin `treeMtime`).
 * `explain --simulate` copies a real project: it leaves such entries out
 * (listed in `skipped`) and keeps every file's and folder's mtime, so the
 * copy's workspace tree reads as the project's.
 */
export interface CopyHow {
  /**
   * Leave links, FIFOs, sockets and devices out instead of refusing the copy,
   * but for a link to a regular file inside the copied folder (by real path;
   * `AGENTS.md -> CLAUDE.md`), whose target's bytes are copied as a regular
   * file. Default: false.
   */
  skipSpecial?: boolean;
  /**
   * With `skipSpecial`, the project's reach: a link is copied as its target's
   * bytes only when the door would read it there ({@link reachRefusal}: not out
   * of the project, not a hidden entry of a home that is the root, and for an
   * untrusted project not a private file); else it is left out, in `skipped`
   * with the door's words. In the copy it would be a regular file, which no
   * check by link can refuse any more. Default: none (inside the folder is enough).
   */
  reach?: Reach;
  /** What the copy is for, in a refusal's words. Default: "a sandbox for the scenarios". */
  purpose?: string;
  /** Give every copied file and folder its original access and modification time. Default: false. */
  keepTimes?: boolean;
  /**
   * Leave out the folders git ignores (as the workspace tree reads the
   * ignore files), but for those a render reads anyway; each is named in
   * `ignored` and counts nothing toward the entry cap. A regular file git
   * ignores (but for a name a render reads anyway) counts toward caps of its
   * own, the same sizes: one past them is left out and named in
   * `ignoredFiles`, never a problem (an `@import` may read a small one; one
   * 70 MiB `dev.db` stopped the copy: rev56d F1). Default: everything is
   * copied, and counted.
   */
  skipIgnored?: IgnoredFolders;
  /**
   * Aborted: the copy stops between two entries and is refused with one
   * problem (`timeMs` names the budget in it). The entry and byte caps bound
   * what a copy holds, not how long each entry takes: the project decides
   * that (a link to a link to … of deep paths costs milliseconds to resolve,
   * 10,000 of them most of a minute). Default: none.
   */
  signal?: AbortSignal;
  /** The time `signal` stands for, for the problem's words. */
  timeMs?: number;
  /**
   * The copied folder's real path as the caller judged it (a scenario
   * folder's, `refuseFolderOutside`): the folder the copy holds at its root
   * must be that one, else nothing is copied (rev92a F3). Default: its real
   * path asked when the copy starts.
   */
  real?: string;
  /**
   * The real project's path rules, which a copy (with no `.git`, no exclude
   * file) would lose. `keep` (`explain --simulate`, with `reach`): a folder
   * that is a repository of its own there gets a `.git` in the copy (one git
   * takes when the real one is), and each file or folder `check` calls
   * private there (but for a hidden name, which the copy keeps by itself) is
   * named in the copy's exclude file ({@link writeKeptRules}), so the copy's
   * door refuses what the real one does and reads what it reads, and its
   * tree lists what the real tree lists, trusted or not. `refuse` (scenarios):
   * such a file is a problem, since no golden may hold it. Default: none.
   */
  privateRules?: { mode: "keep" | "refuse"; check: PrivateCheck };
  /**
   * Deepest folder copied (the copied folder is 0). A folder below it is not
   * entered: with `skipSpecial` it is left out (the first in `deep`, with how
   * many), else it refuses the copy, said once. Default: {@link MAX_COPY_DEPTH}.
   */
  maxDepth?: number;
}

/** The folders a copy left out for their depth: the first met, and how many in all. */
export interface TooDeep {
  path: string;
  count: number;
}

/** Files named in one copied exclude file at most (the door's cap on one ignore file): past it, left out. */
const MAX_KEPT_RULES = 2_000;

/** The paths a copy that keeps the real project's rules must name as private: by the folder that holds the `.git` they fall under. */
export type KeptRules = Map<string, string[]>;

/** The folder sandboxes are made in: `$XDG_CACHE_HOME/sysprompt/snapshots`, else `~/.cache/…`. */
export function defaultSandboxParent(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  return join(cacheRoot(env, home), "snapshots");
}

/**
 * Copies `dir` into a fresh folder under `parent` (not a shared /tmp, whose
 * AGENTS.md any local user can write). Only folders and regular files are
 * copied: a symbolic link, a FIFO, a socket or a device is a problem at its
 * path, as are more than {@link MAX_SCENARIO_ENTRIES} entries or
 * {@link MAX_SCENARIO_BYTES} bytes. The names in `ownChecks` (the scenario
 * files and goldens directly in `dir`) are copied when they are regular files
 * and otherwise left out without a problem: each is refused with its own
 * message where it is read. Sandboxes that a killed run left behind (their
 * process is gone) are removed first.
 */
export async function makeSandbox(
  dir: string,
  parent: string,
  ownChecks: ReadonlySet<string> = new Set(),
  how: CopyHow = {},
): Promise<{
  sandbox?: Sandbox;
  problems: SandboxProblem[];
  skipped: SandboxProblem[];
  /** The folders left out because git ignores them (`skipIgnored`), in the order met. */
  ignored: string[];
  /** The regular files git ignores left out past their own caps (`skipIgnored`), in the order met. */
  ignoredFiles: string[];
  /** With `privateRules` `keep`: what {@link writeKeptRules} writes once the copy is done. */
  kept: KeptRules;
  /** With `skipSpecial`: the folders below `maxDepth`, left out. */
  deep?: TooDeep;
}> {
  const name = `run-${hostTag()}-${process.pid}-${randomHex(6)}`;
  let root: string;
  try {
    readyCacheFolder(parent);
    await removeAbandoned(parent);
    await mkdir(join(parent, name), { mode: 0o700 });
    // The real path: on macOS the cache folder may be reached through a link.
    root = realpathSyncLinear(join(parent, name));
  } catch (error) {
    // One piece of advice: a refusal that gives its own is not given another (review rev77d F3).
    const message = (error as Error).message;
    const advice =
      error instanceof CacheFolderRefused && error.advice !== undefined
        ? ""
        : "; set XDG_CACHE_HOME to a folder you can write";
    throw new SyspromptError(
      "bad-environment",
      `cannot make ${how.purpose ?? "a sandbox for the scenarios"} in ${parent}: ${message}${advice}`,
      { cause: error },
    );
  }
  const sandbox = { root, copy: join(root, "scenario", basename(dir)), home: join(root, "home") };
  const budget = {
    project: { entries: MAX_SCENARIO_ENTRIES, bytes: MAX_SCENARIO_BYTES },
    ignored: { entries: MAX_SCENARIO_ENTRIES, bytes: MAX_SCENARIO_BYTES },
  };
  const problems: SandboxProblem[] = [];
  const copy: Copy = {
    budget,
    problems,
    skipped: [],
    ignored: [],
    ignoredFoldersOver: false,
    ignoredFiles: [],
    how,
    // The folder the sandboxes are in, when it is inside the copied one (a project in ~):
    // never copied into itself.
    within: how.real ?? (await realpathOrSelf(dir)),
    parent: await realpathOrSelf(parent),
    from: dir,
    copyRoot: sandbox.copy,
    kept: new Map([["", []]]),
    deep: undefined,
  };
  const maxDepth = how.maxDepth ?? MAX_COPY_DEPTH;
  try {
    await mkdir(join(root, "scenario"));
    await mkdir(sandbox.home);
    const ignore = how.skipIgnored ? await rootIgnoreState(dir) : undefined;
    if (await madeFolder(dir, sandbox.copy, problems)) {
      await walkFolders<Into>(
        dir,
        { to: sandbox.copy, ownChecks, ignore },
        {
          // The folder held at the root is the one judged, and each below lies at its real path
          // and its names (walk.ts): the copy never reads through a folder swapped for a link.
          real: copy.within,
          maxEntries: MAX_FOLDER_LISTING,
          onUnreadable: (path, _rel, error) => {
            problems.push({ path, reason: `cannot list it: ${error.message}` });
          },
          onCapped: (path) => {
            problems.push({
              path,
              reason: `more than ${MAX_FOLDER_LISTING} entries in one folder: too many to copy`,
            });
          },
          // Bounded: each entry is opened by its whole path, so a deep chain costs its depth squared.
          maxDepth,
          onTooDeep: (path) => {
            if (copy.deep !== undefined) {
              copy.deep.count++;
              return;
            }
            copy.deep = { path, count: 1 };
            if (!how.skipSpecial) {
              problems.push({
                path,
                reason: `deeper than ${maxDepth} folders below the scenario folder, which no render reads; keep the fixtures shallower`,
              });
            }
          },
          visit: (folder) => copyFolder(folder, copy),
          signal: how.signal,
        },
      );
    }
  } catch (error) {
    if (!how.signal?.aborted || error !== how.signal.reason) {
      await removeSandbox(sandbox);
      throw error;
    }
    problems.push({
      path: dir,
      reason: `the copy took longer than ${how.timeMs === undefined ? "the time given" : `${how.timeMs / 1000} s`}: its entries are too many or too slow to resolve (links to links of long paths)`,
    });
  }
  if (problems.length > 0) {
    await removeSandbox(sandbox);
    const extra = problems.length - MAX_LISTED;
    const listed = problems.slice(0, MAX_LISTED);
    if (extra > 0) listed.push({ path: dir, reason: `and ${extra} more such entries` });
    const { skipped, ignored, ignoredFiles, kept, deep } = copy;
    return { problems: listed, skipped, ignored, ignoredFiles, kept, ...(deep && { deep }) };
  }
  const { skipped, ignored, ignoredFiles, kept, deep } = copy;
  return { sandbox, problems, skipped, ignored, ignoredFiles, kept, ...(deep && { deep }) };
}

/**
 * Writes the real project's private paths into the copy's exclude files: at
 * `copy` (whose `.git` the caller has made, as for the root) and in each
 * repository of its own marked during the copy, as anchored patterns, one
 * path a line. The copy's door then reads them as the real door reads the
 * project's own lists.
 */
export async function writeKeptRules(copy: string, kept: KeptRules): Promise<void> {
  for (const [repo, paths] of kept) {
    if (paths.length === 0) continue;
    const info = join(copy, repo, ".git", "info");
    makeFolderPath(info, 0o777);
    await writeFile(join(info, "exclude"), `${paths.map(anchored).join("\n")}\n`, { flag: "wx" });
  }
}

/** `rel` ("a/b", no line break) as a pattern that names it alone: every character git reads as a glob escaped. */
function anchored(rel: string): string {
  // A folder's keeps its final slash: the pattern names the folder, not a file of its name.
  return `/${rel.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`)}`;
}

/**
 * Removes a sandbox, waiting {@link MAX_REMOVE_WAIT_MS} at most: a slower
 * removal goes on without the caller (a CLI run that ends first leaves the
 * rest to the next run's sweep, {@link removeAbandoned}). A failure within
 * the wait is thrown.
 */
export async function removeSandbox(sandbox: Sandbox): Promise<void> {
  await removeWithin([sandbox.root]);
}

/** Sentinel: the removal was still running when the wait ended. */
const STILL_REMOVING = Symbol("still removing");

/**
 * Removes `paths` one after the other, waiting {@link MAX_REMOVE_WAIT_MS} at
 * most; an error within the wait is thrown, one after it is dropped (what is
 * left is a stale sandbox of a run that is gone, swept by the next run).
 */
async function removeWithin(paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const removal = (async () => {
    for (const path of paths) await rm(path, { recursive: true, force: true });
  })().then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof STILL_REMOVING>((done) => {
    timer = setTimeout(() => done(STILL_REMOVING), MAX_REMOVE_WAIT_MS);
  });
  try {
    const outcome = await Promise.race([removal, late]);
    if (outcome !== undefined && outcome !== STILL_REMOVING) throw outcome.error;
  } finally {
    clearTimeout(timer);
  }
}

/** This machine's name as a file name part: a home shared between machines has others' sandboxes. */
function hostTag(): string {
  return (
    hostname()
      .replace(/[^A-Za-z0-9]/g, "_")
      .slice(0, 64) || "host"
  );
}

/**
 * Removes this machine's `run-<host>-<pid>-…` folders whose process no longer
 * runs (a run killed mid-way, or one that ended before its removal did),
 * waiting {@link MAX_REMOVE_WAIT_MS} at most.
 */
async function removeAbandoned(parent: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(parent);
  } catch {
    // Unlistable: nothing to tidy; making the sandbox reports a real problem.
    return;
  }
  const gone: string[] = [];
  for (const name of names) {
    const match = /^run-(.+)-(\d+)-[0-9a-f]+$/.exec(name);
    if (match?.[1] !== hostTag()) continue;
    const pid = Number(match[2]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    gone.push(join(parent, name));
  }
  await removeWithin(gone);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** One copy in progress: what is left of the caps, what went wrong, what was left out. */
interface Copy {
  /** What is left of the caps: `project`'s, and (`skipIgnored`) those of the files git ignores. */
  budget: Record<"project" | "ignored", Budget>;
  problems: SandboxProblem[];
  skipped: SandboxProblem[];
  ignored: string[];
  /** Whether the cap on the folders git ignores was passed, and said. */
  ignoredFoldersOver: boolean;
  ignoredFiles: string[];
  how: CopyHow;
  /** The copied folder's real path: what a link must lead into to be copied. */
  within: string;
  /** The sandboxes' folder's real path: left out of a copy it is inside. */
  parent: string;
  /** The copied folder as given, and its copy: where a kept rule's paths are counted from. */
  from: string;
  copyRoot: string;
  /** With `privateRules` `keep`: the private paths found, by the repository they fall under ("" the copy's root). */
  kept: KeptRules;
  /** The folders below the copy's depth, not entered. */
  deep: TooDeep | undefined;
}

interface Budget {
  entries: number;
  bytes: number;
}

/** Where one folder of the walk is copied to, and how its entries are judged. */
interface Into {
  to: string;
  ownChecks: ReadonlySet<string>;
  ignore: IgnoreState | undefined;
}

/** Makes the copy's folder for `from`; false (and a problem) when it cannot be made. */
async function madeFolder(from: string, to: string, problems: SandboxProblem[]): Promise<boolean> {
  try {
    await mkdir(to);
    return true;
  } catch (error) {
    problems.push({ path: from, reason: `cannot list it: ${(error as Error).message}` });
    return false;
  }
}

/**
 * Copies one listed folder's entries, yielding each subfolder to the walk
 * (which copies it before the next entry), then gives the copy the folder's
 * times: last, since writing the entries moved its mtime.
 */
async function* copyFolder(folder: WalkedFolder<Into>, copy: Copy): AsyncGenerator<Enter<Into>> {
  const { path: from, state } = folder;
  const rules = state.ignore && (await folderIgnoreState(state.ignore, from));
  try {
    yield* copyEntries(folder, state.to, copy, state.ownChecks, rules);
  } finally {
    if (copy.how.keepTimes) await keepTimesOf(from, state.to, copy.problems);
  }
}

/** Why an entry whose name is not UTF-8 is left out of a copy, as `name-not-utf8` says it elsewhere. */
const NOT_UTF8 =
  "its name is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it";

async function* copyEntries(
  folder: Pick<WalkedFolder<unknown>, "path" | "real" | "entries">,
  to: string,
  copy: Copy,
  ownChecks: ReadonlySet<string>,
  ignore: IgnoreState | undefined,
): AsyncGenerator<Enter<Into>> {
  const { problems } = copy;
  const budget = copy.budget.project;
  const skip = copy.how.skipIgnored;
  const { path: from, entries } = folder;
  // Where a file of the folder must lie once opened by its path: the held folder's real path and its name.
  const at = (name: string) => (folder.real === undefined ? undefined : join(folder.real, name));
  for (const { name } of entries) {
    if (NOT_COPIED.has(name)) continue;
    // One folder may hold all 10,000 entries: the time is heard between two.
    if (copy.how.signal?.aborted) throw copy.how.signal.reason;
    const source = join(from, name);
    if (source === copy.parent || isWithin(copy.parent, source)) {
      // The sandboxes' own folder, or one holding it: copying it would copy the copy.
      copy.skipped.push({ path: source, reason: "holds the temporary copies: not copied" });
      continue;
    }
    const s = await lstat(source).catch(() => undefined);
    if (s === undefined && (await undecodableName(source, "file"))) {
      // Listed but not addressable (a Latin-1 name): the render cannot read it either.
      copy.skipped.push({ path: source, reason: NOT_UTF8 });
      continue;
    }
    if (s?.isDirectory() && ignore && skip && leavesOut(ignore, name, source, skip, true)) {
      // Not entered, but each costs a look: a repository of a million ignored
      // folders must not make the copy unbounded.
      if (copy.ignored.length >= MAX_SCENARIO_ENTRIES) {
        // Said once: the walk goes on in the folders after this one (rev58b F4).
        if (!copy.ignoredFoldersOver) {
          copy.ignoredFoldersOver = true;
          problems.push({
            path: source,
            reason: `the project has more than ${MAX_SCENARIO_ENTRIES} folders git ignores: too many to look at`,
          });
        }
        return;
      }
      copy.ignored.push(source);
      continue;
    }
    if (s?.isFile() && ignore && skip && leavesOut(ignore, name, source, skip, false)) {
      // Copied under caps of its own, so an import of it reads as in place; past them, left out.
      // Counted as looked at, whatever left it out: `ignoredFiles` also holds those over the
      // bytes cap, and counting it refused 12,003 files as "more than 20000" (rev58b F4).
      const left = --copy.budget.ignored.entries;
      if (left < -MAX_SCENARIO_ENTRIES) {
        // Said once, at the first file past the count: the walk goes on in other folders.
        if (left === -MAX_SCENARIO_ENTRIES - 1) {
          problems.push({
            path: source,
            reason: `the project has more than ${2 * MAX_SCENARIO_ENTRIES} files git ignores: too many to look at`,
          });
        }
        return;
      }
      if (left < 0) {
        copy.ignoredFiles.push(source);
      } else if (!(await keptOut(source, copy)))
        await copyFile(source, join(to, name), copy, at(name), true);
      continue;
    }
    if (--budget.entries < 0) {
      if (budget.entries === -1) {
        problems.push({
          path: source,
          reason: skip
            ? `the project has more than ${MAX_SCENARIO_ENTRIES} entries besides what git ignores (.git, node_modules and what git ignores are not copied): too many to copy`
            : `the scenario folder has more than ${MAX_SCENARIO_ENTRIES} entries; keep only the fixtures in it`,
        });
      }
      return;
    }
    if (s?.isDirectory()) {
      const below = ignore && skip ? childState(ignore, name, source, skip) : undefined;
      const into = join(to, name);
      if (await madeFolder(source, into, problems)) {
        await keptFolder(source, copy);
        await markRepository(source, into, copy);
        yield { name, state: { to: into, ownChecks: new Set(), ignore: below } };
      }
    } else if (s?.isFile()) {
      if (await keptOut(source, copy)) continue;
      await copyFile(source, join(to, name), copy, at(name));
    } else if (ownChecks.has(name)) {
      // Not copied: where it is read, it gets its own refusal.
    } else if (s?.isSymbolicLink() && copy.how.skipSpecial) {
      const linked = await linkedFileInside(source, copy);
      if (typeof linked === "string") await copyFile(linked, join(to, name), copy, linked);
      else copy.skipped.push({ path: source, reason: linked?.reason ?? specialKind(s) });
    } else if (s && copy.how.skipSpecial) {
      copy.skipped.push({ path: source, reason: specialKind(s) });
    } else if (s?.isSymbolicLink()) {
      const target = await readlink(source).catch(() => "?");
      problems.push({
        path: source,
        reason: `${KIND_WORDS.link} (to ${JSON.stringify(target)}): a scenario folder holds only regular files and folders, so a fixture cannot lead outside it; put a copy of the file there instead`,
      });
    } else {
      const kind = s?.isFIFO() ? "fifo" : s?.isSocket() ? "socket" : "device";
      problems.push({
        path: source,
        reason: s
          ? `${KIND_WORDS[kind]}: a scenario folder holds only regular files and folders`
          : "gone while it was copied",
      });
    }
  }
}

/**
 * With `privateRules` `keep`: gives the copy of `source` a `.git` when
 * `source` is a repository of its own in the real project (a clone, not a
 * submodule or a worktree of it: {@link Reach.nested}), so that the copy's
 * door keeps it out of the project's reach as the real one does.
 */
async function markRepository(source: string, into: string, copy: Copy): Promise<void> {
  const reach = copy.how.reach;
  if (copy.how.privateRules?.mode !== "keep" || reach === undefined) return;
  const real = join(copy.within, relative(copy.from, source));
  if ((await reach.nested(join(real, "-"))) !== real) return;
  await markGit(real, into);
  copy.kept.set(relative(copy.copyRoot, into).split(sep).join("/"), []);
}

/**
 * Gives the copy `into` of the repository top `real` a `.git`: an empty
 * folder, or, when git takes `real`'s for a repository ({@link holdsUsableGit}),
 * the least one git takes too (`HEAD`, `objects/`, `refs/`, no history), so
 * that the copy's tree finds its repository, and its exclude file, as the
 * real tree does.
 */
export async function markGit(real: string, into: string): Promise<void> {
  const git = join(into, ".git");
  makeFolderPath(git, 0o777);
  if (!(await holdsUsableGit(real))) return;
  makeFolderPath(join(git, "objects"), 0o777);
  makeFolderPath(join(git, "refs"), 0o777);
  await writeFile(join(git, "HEAD"), "ref: refs/heads/main\n");
}

/**
 * With `privateRules` `keep`: notes the folder `source` for the exclude file
 * of the repository it falls under when the real project's rules make the
 * folder itself private (`myprivate/` in your exclude file or your global
 * excludes), as the workspace tree asks before listing it.
 */
async function keptFolder(source: string, copy: Copy): Promise<void> {
  const rules = copy.how.privateRules;
  if (rules?.mode !== "keep") return;
  // A folder the render works in, or one holding it, is never listed by its tree; named, it
  // would make the tree set the whole exclude file aside ("you work there") and list more.
  if (copy.how.skipIgnored?.keep.some((k) => isWithin(k, source))) return;
  const rel = relative(copy.from, source);
  const verdict = await rules.check(join(copy.within, rel), true);
  if (verdict === undefined || verdict.why.startsWith("hidden") || verdict.why.startsWith("inside"))
    return;
  note(rel.split(sep).join("/"), true, copy);
}

/**
 * Adds `posix` (a folder's with `folder`) to the exclude file of the innermost
 * repository of the copy holding it; false past {@link MAX_KEPT_RULES} or for
 * a name with a line break, which no pattern can hold.
 */
function note(posix: string, folder: boolean, copy: Copy): boolean {
  const repo = [...copy.kept.keys()]
    .filter((r) => r === "" || posix.startsWith(`${r}/`))
    .reduce((a, b) => (b.length > a.length ? b : a), "");
  const paths = copy.kept.get(repo) ?? [];
  if (paths.length >= MAX_KEPT_RULES || /[\r\n]/.test(posix)) return false;
  const below = repo === "" ? posix : posix.slice(repo.length + 1);
  paths.push(folder ? `${below}/` : below);
  return true;
}

/**
 * Whether the regular file `source` stays out of the copy, by the real
 * project's rules (`privateRules`): `refuse` makes it a problem, `keep`
 * notes it for the exclude file of the repository it falls under and copies
 * it (true only past {@link MAX_KEPT_RULES}, or for a name no pattern can
 * hold, of an untrusted project: left out, in `skipped`). A hidden name is
 * private in the copy too.
 */
async function keptOut(source: string, copy: Copy): Promise<boolean> {
  const rules = copy.how.privateRules;
  if (rules === undefined) return false;
  const rel = relative(copy.from, source);
  const verdict = await rules.check(join(copy.within, rel));
  if (verdict === undefined || verdict.why.startsWith("hidden") || verdict.why.startsWith("inside"))
    return false;
  const words = `${verdict.rel} is ${verdict.why}`;
  if (rules.mode === "refuse") {
    copy.problems.push({
      path: source,
      reason: `private in the repository (${words}): a golden would hold your file; move it out of the scenario folder`,
    });
    return true;
  }
  if (note(rel.split(sep).join("/"), false, copy)) return false;
  // A trusted project's door reads it (only its tree would hide it): copied all the same.
  if (copy.how.reach?.isPrivate === undefined) return false;
  copy.skipped.push({ path: source, reason: `private (${words}): not copied` });
  return true;
}

/**
 * The real path of the regular file a link leads to, when that is inside the
 * copied folder and the door would read it through the link; the door's
 * refusal when it would not; else undefined.
 */
async function linkedFileInside(
  link: string,
  copy: Copy,
): Promise<string | { reason: string } | undefined> {
  const real = realOf(link);
  if (real === undefined || !isWithin(real, copy.within)) return undefined;
  const s = await lstat(real).catch(() => undefined);
  if (!s?.isFile()) return undefined;
  const refusal = copy.how.reach && (await reachRefusal(link, real, copy.how.reach, false));
  if (refusal) return { reason: `${KIND_WORDS.link}, not copied: ${refusal.message}` };
  return real;
}

/**
 * The real path of a link of the project, or undefined when it leads nowhere:
 * in one walk of each path it leads through (see `realpathSyncLinear`), where
 * the thread pool's realpath took seconds for a link to a link to … of deep
 * paths, and a copy has thousands of links to resolve.
 */
function realOf(link: string): string | undefined {
  try {
    return realpathSyncLinear(link);
  } catch {
    // Dangling, a loop, or a folder we may not search: not copied.
    return undefined;
  }
}

/** What an entry that is neither a folder nor a regular file is, in the words of the other refusals. */
function specialKind(s: Awaited<ReturnType<typeof lstat>>): string {
  const kind = s.isSymbolicLink()
    ? "link"
    : s.isFIFO()
      ? "fifo"
      : s.isSocket()
        ? "socket"
        : "device";
  return kind === "link"
    ? `${KIND_WORDS.link}, not to a regular file inside the project: not copied`
    : `${KIND_WORDS[kind]}: not copied`;
}

/** Gives `to` the access and modification times `from` has (lstat: a swapped-in link is not followed). */
async function keepTimesOf(from: string, to: string, problems: SandboxProblem[]): Promise<void> {
  try {
    const s = await lstat(from);
    await utimes(to, s.atime, s.mtime);
  } catch (error) {
    problems.push({ path: from, reason: `cannot keep its times: ${(error as Error).message}` });
  }
}

/**
 * Copies one regular file; `at`: where the file opened must lie (its held
 * folder's real path and its name, or a link's judged target), else it is
 * not copied: `O_NOFOLLOW` guards the last name only, and a folder on the way
 * swapped for a link would take the open elsewhere (decided, review rev92a
 * F3: your `~/.ssh/id_rsa` was copied as a fixture and written in a golden).
 * A file with more than one name (a hard link) is never copied: left out
 * (`skipSpecial`) or a problem, in the door's words ({@link namesRefusal}).
 * `ignored`: one git ignores, under its own caps (see `skipIgnored`).
 */
async function copyFile(
  source: string,
  target: string,
  copy: Copy,
  at: string | undefined,
  ignored = false,
): Promise<void> {
  const { problems } = copy;
  const budget = copy.budget[ignored ? "ignored" : "project"];
  if (budget.bytes < 0) return; // over the cap already, and said so
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // No link followed and no wait on a FIFO swapped in after the lstat.
    handle = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (at !== undefined && openedElsewhere(handle.fd, at)) {
      problems.push({ path: source, reason: "gone while it was copied" });
      return;
    }
    const s = await handle.stat();
    if (!s.isFile()) {
      problems.push({
        path: source,
        reason: "not a regular file: a scenario folder holds only regular files and folders",
      });
      return;
    }
    // A file of more names than this one may be any file of yours: not copied, as the door
    // does not read it; a scenario's refuses the copy, as a link does (review rev96a F1).
    const names = namesRefusal(s, source);
    if (names !== undefined) {
      (copy.how.skipSpecial ? copy.skipped : problems).push({
        path: source,
        reason: `not copied: ${names.message}`,
      });
      return;
    }
    if (s.size > budget.bytes && ignored) {
      copy.ignoredFiles.push(source);
      return;
    }
    if (s.size > budget.bytes) {
      problems.push({
        path: source,
        reason: copy.how.skipIgnored
          ? `the project's files are over ${MAX_SCENARIO_BYTES / MIB} MiB together besides what git ignores (.git, node_modules and what git ignores are not copied; this file is ${mib(s.size)} MiB): too much to copy`
          : `the scenario folder's files are over ${MAX_SCENARIO_BYTES} bytes together; keep only the fixtures in it`,
      });
      budget.bytes = -1;
      return;
    }
    const bytes = Buffer.alloc(s.size);
    let filled = 0;
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    budget.bytes -= filled;
    await writeFile(target, bytes.subarray(0, filled), { flag: "wx" });
    // The times of the file that was read (fstat), not of whatever the path names now.
    if (copy.how.keepTimes) await utimes(target, s.atime, s.mtime);
  } catch (error) {
    problems.push({ path: source, reason: `cannot copy it: ${(error as Error).message}` });
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
