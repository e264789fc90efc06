import type { Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pushAll } from "../../_arrays.js";
import { realpathOrSelf } from "../../_fs.js";
import { lstatOrMissing, readlink, stat, statOrMissing } from "../../_io.js";
import { checkpoint } from "../../_pace.js";
import { ancestorsOf, childPath, expandHome, homeFolder, toPosix } from "../../_paths.js";
import type { ContextFile, ContextOrigin } from "../../data.js";
import { resolveAgentDir } from "../../locate/layers.js";
import {
  type Checkout,
  capChain,
  chainCutDiagnostic,
  chainFolders,
  checkMaxBytes,
  findProjectRoot,
  folderReaches,
  HOME_IS_TOP,
  heldLinks,
  mirroredRepository,
  NO_DEADLINE,
  ownAgentDir,
  ownRepositories,
  placeOwnFile,
  projectReach,
  type Reach,
  type RefusedRootMarker,
  type RepoCapped,
  reachRefusal,
  readRepoCapped,
  refusalDiagnostic,
  rootMarkerRefusedDiagnostics,
  withCutMarker,
  yourHomeFolders,
} from "../../repo-files/index.js";
import type { Diagnostic } from "../../types.js";
import { CONTEXT_FILE_NAMES } from "../context-names.js";
import { boundedByDefault } from "../deadline.js";
import { realRoots, realWorkingFolder, resolveRoots } from "../roots.js";
import { capTotal, DEFAULT_MAX_TOTAL_CONTEXT_BYTES } from "./_context-total.js";
import { type DroppedContextFile, dedupeWithDropped, type TrimmedContextFile } from "./dedupe.js";
import { expandImports, type ImportState } from "./imports.js";

/**
 * The first candidate in `dir` (of `names`, by default the context file
 * names) that is a regular file. Folders, FIFOs and
 * sockets with a candidate's name are skipped without being opened, and a
 * link to a file that does not exist gets a warning. Other
 * candidates beside the winner are not loaded (one file per folder); each gets
 * an `info` naming the one used, so a CLAUDE.md beside an AGENTS.md is not
 * ignored in silence.
 */
export async function findContextFile(
  dir: string,
  names: readonly string[] = CONTEXT_FILE_NAMES,
): Promise<{ path?: string; present: string[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  // Every candidate that is a regular file here, the winner and those it shadows.
  const present: string[] = [];
  let winner: { name: string; path: string; dev: number; ino: number } | undefined;
  for (const name of names) {
    const path = childPath(dir, name);
    try {
      // lstat first: as cheap for the usual missing name, and it tells a
      // link whose target is gone (stat would call that missing too).
      const own = await lstatOrMissing(path);
      if (own === undefined) continue;
      const s = own.isSymbolicLink() ? await followLink(path) : own;
      if (s === undefined) {
        if (!winner) diagnostics.push(await danglingLink(path, name));
        continue;
      }
      if (s.isFile()) present.push(name);
      if (winner) {
        // A case-insensitive file system answers AGENTS.MD with AGENTS.md: same file, no news.
        if (s.isFile() && (s.ino !== winner.ino || s.dev !== winner.dev)) {
          diagnostics.push({
            level: "info",
            code: "context-shadowed",
            message: `${name} is not loaded: ${winner.name} in the same folder is used (one context file per folder)`,
            path,
          });
        }
        continue;
      }
      if (s.isFile()) {
        winner = { name, path, dev: s.dev, ino: s.ino };
        continue;
      }
      diagnostics.push({
        level: "info",
        code: "context-not-file",
        message: `${name} is not a regular file; skipped without opening it`,
        path,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Missing is the normal case; a loop or a permission problem is worth saying.
      if (code !== "ENOENT" && code !== "ENOTDIR" && !winner) {
        diagnostics.push({
          level: "warning",
          code: "context-unreadable",
          message: `cannot inspect ${name}: ${(error as Error).message}`,
          path,
        });
      }
    }
  }
  return winner ? { path: winner.path, present, diagnostics } : { present, diagnostics };
}

/** What the link at `path` leads to; undefined when its target does not exist (other failures throw). */
function followLink(path: string): Promise<Stats | undefined> {
  return statOrMissing(path);
}

/** A link whose target does not exist: named, since it was surely meant to be read. */
async function danglingLink(path: string, name: string): Promise<Diagnostic> {
  // Gone or replaced since: the target is unknown.
  const target = await readlink(path).catch(() => "?");
  return {
    level: "warning",
    code: "symlink-broken",
    message: `${name} is a symbolic link to ${target}, which does not exist; skipped`,
    path,
  };
}

/** A folder searched for a context file, with the rules for what its file may reach. */
export interface ContextFolder {
  dir: string;
  origin: ContextOrigin;
  /** Where the imports of a folder without a reach (the agent dir) may lead. */
  allowed: string[];
  allowedText: string;
  /**
   * A project's folder: the reach the door reads its file and imports within.
   * Trusted or not, the file stays in its project, as its imports do:
   * `AGENTS.md -> ~/.ssh/id_rsa` in a cloned repository is refused. Undefined
   * (the agent dir): the user's own, links followed anywhere.
   */
  reach?: Reach;
  /**
   * A folder without a reach (the agent dir): the real folders whose
   * repositories are yours (the home folder, the agent dir, the working
   * folder), for the walk that holds its file and its imports to the links of
   * other repositories ({@link heldLinks}): `@~/prompt-kit/base.md`, or
   * `AGENTS.md` your link to it, with the kit's `base.md -> ../.ssh/id_rsa`, is
   * refused.
   */
  ownReal?: string[];
}

export interface ContextFilesOptions {
  /** Working directory; `~` and relative paths are resolved. */
  cwd: string;
  /** User layer folder. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Extra workspace roots; each root's ancestors are searched after cwd's. Each must be a folder. */
  roots?: readonly string[];
  /** Home folder, for `~` and the confinement of user-level imports. Default: `os.homedir()`. */
  home?: string;
  /** Cap of each context file and each import, in bytes. Default: 256 KiB. */
  maxBytes?: number;
  /** When false, a file that resolves outside the project is not loaded. Default: true. */
  projectTrusted?: boolean;
  /** No folder above this one is searched (nor looked at for `.git`). Default: none: up to `/`. */
  ceilingDir?: string;
  /** Cap of all context files together, imports included, in bytes. Default: 2 MiB. */
  maxTotalBytes?: number;
  /**
   * The agent the prompt is for loads context files itself: in each project
   * folder, the files of the first entry of `names` the folder holds (Claude
   * Code: CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, else AGENTS.md), and
   * with `imports` what they `@import`. The folder's file is left out when it
   * is one of those, so the agent does not get its instructions twice, and
   * kept otherwise, so none is lost. The agent dir's file is sysprompt's own
   * and always loads. Default: none.
   */
  agentLoads?: { agent: string; names: readonly (readonly string[])[]; imports?: boolean };
  /**
   * Stops the reading between two files (the promise rejects with the
   * signal's reason): a render that gave up on it. Without one,
   * `loadContextFiles` stops at a render's default deadline (5 s): no files,
   * and a `load-deadline` warning.
   */
  signal?: AbortSignal;
}

/**
 * The folders searched, in prompt order, each listed once: the agent dir,
 * then cwd's ancestors from the outermost down, then each root's the same
 * way. Only the agent dir's file is the user's and may import from the home
 * folder. Every other file is the repository's, confined to its own project:
 * the project root of its folder, found as git finds it (the nearest folder,
 * its own included, with a `.git` folder or file), else the folder itself. A
 * folder above cwd's project root is so confined to its own project, not
 * cwd's (a superproject's file stays in the superproject, an unpacked
 * archive's parent folder in that folder). A root that is or holds the home
 * folder is narrowed to the folder itself, as the door's reach says
 * ({@link projectReach}): above the home folder it reaches nothing of it; at
 * the home folder, none of its hidden entries through a link or an import.
 */
async function contextFolders(o: {
  user: ContextFolder;
  cwd: string;
  roots: readonly string[];
  home: string;
  realHome: string;
  projectTrusted: boolean;
  ceilingDir?: string | undefined;
  signal?: AbortSignal | undefined;
}): Promise<{ folders: ContextFolder[]; diagnostics: Diagnostic[] }> {
  const { realHome } = o;
  const ceiling = o.ceilingDir;
  const folders: ContextFolder[] = [o.user];
  const listed = new Set([o.user.dir]);
  const diagnostics: Diagnostic[] = [];
  // Each folder in its own project; one private-path checker per project, so each .gitignore is read once.
  const reachOfFolder = folderReaches({
    home: o.home,
    realHome,
    trusted: o.projectTrusted,
    signal: o.signal ?? NO_DEADLINE,
  });
  // A marker passed over (another user's, or in a folder anyone may write to) is said once, by its
  // folder, where it changes a folder's root: never the start's own (it is its own root either way).
  const refused: RefusedRootMarker[] = [];
  const said = new Set<string>();
  for (const start of [o.cwd, ...o.roots]) {
    const passed: RefusedRootMarker[] = [];
    const root = await findProjectRoot(start, ceiling, o.signal, passed);
    pushAll(
      refused,
      passed.filter((r) => r.dir !== start),
    );
    const cut = capChain(ancestorsOf(start, ceiling), root);
    if (cut.skipped > 0)
      diagnostics.push(chainCutDiagnostic(start, root, cut.skipped, "context files"));
    // Each folder's root and real path from its parent's: a look-up per folder walks the whole path.
    const chain = await chainFolders(cut.folders, o.signal, refused);
    const realOf = new Map(chain.map((f) => [f.dir, f.real]));
    for (const { dir, root: found, real } of chain) {
      if (listed.has(dir)) continue;
      listed.add(dir);
      const reach = reachOfFolder({
        dir,
        real,
        root: found,
        realRoot: realOf.get(found) ?? (await realpathOrSelf(found)),
      });
      folders.push({
        dir,
        origin: "project",
        reach,
        allowed: [reach.root, reach.realRoot],
        allowedText: `the project root ${toPosix(reach.root)}`,
      });
    }
    // The root the folders below each marker are read in instead: the one found above it, if any.
    for (const r of refused) {
      if (said.has(r.dir)) continue;
      said.add(r.dir);
      const root = chain.find((f) => f.dir === r.dir)?.root;
      pushAll(
        diagnostics,
        rootMarkerRefusedDiagnostics([r], "context", root === r.dir ? undefined : root),
      );
    }
  }
  return { folders, diagnostics };
}

/**
 * Loads the context files: the agent dir's first, then one per folder from
 * the outermost ancestor of cwd down to cwd, then each extra root's chain the
 * same way. The same real file reached twice loads once. Each file is capped
 * at `maxBytes` (cut with a marker line), its `@imports` are expanded
 * (confined to the project root for project files, to the home folder for the
 * user's), and paragraphs a more authoritative file states are left out
 * ({@link dedupeContextFiles}). With `projectTrusted: false` a file whose real
 * path leaves the project root (or, above the root, the folder it was found
 * in) is not loaded. Problems in files are diagnostics; a bad option
 * (`roots` that are not folders, a bad `maxBytes`) throws a SyspromptError.
 */
export async function loadContextFiles(
  options: ContextFilesOptions,
): Promise<{ files: ContextFile[]; diagnostics: Diagnostic[] }> {
  if (options.signal === undefined) {
    return boundedByDefault(
      undefined,
      "context files",
      (signal) => loadContextFiles({ ...options, signal }),
      { files: [], diagnostics: [] },
    );
  }
  const { files, diagnostics } = await traceContextFiles(options);
  return { files, diagnostics };
}

/** One context file that was read, with what its imports pulled in. */
export interface ContextFileTrace {
  /** As in `files` (forward slashes). */
  path: string;
  /** Whose it is, as in `files`: the agent dir's is yours (`user`), with all it imports. */
  origin: ContextOrigin;
  /** Real paths of the files its `@imports` pulled in, every level, in the order expanded. */
  imports: string[];
  /** Of the file and its imports, those cut at `maxBytes` (real paths for imports). */
  cut: string[];
}

/** Where the context files came from: what `sysprompt explain` shows and `sysprompt watch` watches. */
export interface ContextProvenance {
  /** The folders searched for a context file, in prompt order (the agent dir first). */
  folders: string[];
  /** Every file read, in prompt order, including those dedupe dropped. */
  files: ContextFileTrace[];
  /** Files left out because more authoritative files state every paragraph of them. */
  dropped: DroppedContextFile[];
  /** Files kept without some paragraphs that more authoritative files state (a marker line stands for them). */
  trimmed?: TrimmedContextFile[];
  /** Context files left out because the agent loads its own file in that folder (`agentLoads`). */
  agentLoaded?: string[];
}

export const NO_CONTEXT: ContextProvenance = { folders: [], files: [], dropped: [] };

/** What {@link traceContextFiles} gives. */
export interface ContextTrace {
  files: ContextFile[];
  diagnostics: Diagnostic[];
  provenance: ContextProvenance;
}

/** The agent dir's folder: the user's own, whose imports may lead anywhere in the home folder. */
async function userFolder(
  agentDir: string,
  home: string,
  realHome: string,
): Promise<ContextFolder> {
  const realAgentDir = await realpathOrSelf(agentDir);
  const homes = yourHomeFolders(home, realHome);
  return {
    dir: agentDir,
    origin: "user",
    // Your own repositories: the home's and the one the agent dir is (or lies in), not one a link
    // of yours into a checkout puts it in (`~/.pi -> ~/kits/team`, rev98a F1). Not the working
    // folder's: that is the project (a kit or a monorepo you started in), whose door an import of
    // yours into it goes through, with the render's trust.
    ownReal: await ownRepositories(agentDir, home),
    // Not a home folder at the top of the file system (`HOME=/`): that is every file (rev109a F3).
    ...(homes.length > 0
      ? {
          allowed: [...homes, agentDir, realAgentDir],
          allowedText: `the home folder ${toPosix(home)} or the agent dir ${toPosix(agentDir)}`,
        }
      : {
          allowed: [agentDir, realAgentDir],
          allowedText: `the agent dir ${toPosix(agentDir)} (${HOME_IS_TOP(home)}: your files are read only within your agent dir)`,
        }),
  };
}

/**
 * Your own context file (the agent dir's) with its `@imports` expanded, read
 * as {@link traceContextFiles} reads it first; undefined when there is none.
 * What a touch with no render before it (a hook's) reads your file's element
 * names from: before, it read the file as written, and a repository's nested
 * AGENTS.md closed the element of a file you import raw (review rev48b F2).
 */
export async function loadOwnContextFile(
  agentDir: string,
  limits: Omit<LoadLimits, "reads" | "maxTotalBytes">,
): Promise<string | undefined> {
  const found = await findContextFile(agentDir);
  if (found.path === undefined) return undefined;
  const user = await userFolder(agentDir, limits.home, await realpathOrSelf(limits.home));
  const all = { ...limits, maxTotalBytes: DEFAULT_MAX_TOTAL_CONTEXT_BYTES, reads: new Map() };
  const loaded = await loadOne(found.path, await realpathOrSelf(found.path), user, all);
  return loaded.file?.content;
}

/**
 * {@link loadContextFiles}, with the provenance of every file. The agent
 * dir's file is read first, before any of the repository's folders is looked
 * at, and what it gives alone goes to `soFar.value`: a render that gives up on
 * the step (a cwd hundreds of folders deep) still has the user's file.
 */
export async function traceContextFiles(
  options: ContextFilesOptions & {
    soFar?: { value?: ContextTrace };
    /** Awaited once the user's file is read, before any of the repository's folders is looked at. */
    beforeProject?: () => Promise<void>;
  },
): Promise<ContextTrace> {
  const maxBytes = checkMaxBytes(options.maxBytes, "maxBytes");
  const maxTotalBytes =
    options.maxTotalBytes === undefined
      ? DEFAULT_MAX_TOTAL_CONTEXT_BYTES
      : checkMaxBytes(options.maxTotalBytes, "maxTotalBytes");
  const home = options.home ?? homeFolder();
  const signal = options.signal;
  // The project is found from cwd's real folder (and each root's); paths you name resolve from cwd as given.
  const shownCwd = resolve(expandHome(options.cwd, home));
  const cwd = await realWorkingFolder(shownCwd, { signal, home });
  // Not an agent dir the untrusted project holds (HOME inside the checkout), unless you named it.
  const { dir: agentDir } = await ownAgentDir(
    resolveAgentDir({ agentDir: options.agentDir, env: process.env, home, cwd: shownCwd }),
    { cwd, home, trusted: options.projectTrusted !== false, named: options.agentDir !== undefined },
  );
  const roots = await realRoots(await resolveRoots(options.roots, shownCwd, home), cwd, {
    signal,
    home,
  });
  const ceilingDir =
    options.ceilingDir === undefined
      ? undefined
      : await realWorkingFolder(resolve(options.ceilingDir), { signal, home, what: "ceilingDir" });
  const reads = new Map<string, Promise<RepoCapped>>();
  const trusted = options.projectTrusted !== false;
  const limits = {
    home,
    maxBytes,
    maxTotalBytes,
    reads,
    trusted,
    cwd,
    ...(signal ? { signal } : {}),
  };
  const realHome = await realpathOrSelf(home);
  const user = await userFolder(agentDir, home, realHome);
  // The user's file first, on its own: what a late step still gives.
  const userFound = await findContextFile(agentDir);
  const userReal = userFound.path ? await realpathOrSelf(userFound.path) : "";
  const soFar = options.soFar;
  const userSoFar = (load: { file?: LoadedFile; diagnostics: Diagnostic[] } | undefined) => {
    if (!soFar) return;
    const file = load?.file;
    soFar.value = finish(
      [user],
      file ? [file] : [],
      [...userFound.diagnostics, ...(load?.diagnostics ?? [])],
      [],
      maxTotalBytes,
    );
  };
  // Read, your file is kept with its imports as written until they are expanded: a deadline
  // that passes while one is walked (a kit's long chain of links) still leaves your file.
  const userLoad = userFound.path
    ? await loadOne(userFound.path, userReal, user, limits, soFar && userSoFar)
    : undefined;
  userSoFar(userLoad);
  await options.beforeProject?.();
  const { folders, diagnostics: chainCut } = await contextFolders({
    user,
    cwd,
    roots,
    home,
    realHome,
    projectTrusted: options.projectTrusted !== false,
    ceilingDir,
    signal,
  });
  // Parallel look-ups, but diagnostics and files are collected in folder order; each hears the deadline first.
  const found = await Promise.all(
    folders.map(async (f, i) => {
      if (i === 0) return userFound;
      await checkpoint(signal);
      return findContextFile(f.dir);
    }),
  );
  const reals = await Promise.all(
    found.map(async ({ path }, i) => {
      if (i === 0) return userReal;
      await checkpoint(signal);
      return path ? realpathOrSelf(path) : "";
    }),
  );
  const perFolder: Diagnostic[][] = found.map((f) => [...f.diagnostics]);
  const seen = new Set<string>();
  const toLoad: { i: number; path: string; real: string; folder: ContextFolder }[] = [];
  const agentLoads = options.agentLoads;
  const agentLoaded: string[] = [];
  // The door's verdict on each project folder's file: where it leads, and for an untrusted project whether it is private.
  const verdicts = await Promise.all(
    found.map(({ path }, i) => {
      const reach = folders[i]?.reach;
      return path && reach ? reachRefusal(path, reals[i] ?? path, reach, false) : undefined;
    }),
  );
  for (const [i, { path, present }] of found.entries()) {
    const real = reals[i] ?? "";
    const folder = folders[i];
    if (!path || !folder) continue;
    if (agentLoads !== undefined && folder.origin === "project") {
      const kept = await leaveOutForAgent(agentLoads, folder, path, present, limits);
      if (kept.leftOut.length > 0) {
        pushAll(
          agentLoaded,
          kept.leftOut.map((p) => toPosix(p)),
        );
        const named = new Set(kept.leftOut);
        // A file the agent reads is not "shadowed": it reaches the model, by the agent.
        perFolder[i] = (perFolder[i] ?? []).filter(
          (d) => !(d.code === "context-shadowed" && d.path !== undefined && named.has(d.path)),
        );
      }
      const said = perFolder[i];
      if (said) pushAll(said, kept.diagnostics);
      if (!kept.load) continue;
    }
    // A link to a file already loaded adds nothing, wherever it is.
    if (seen.has(real)) continue;
    const refusal = verdicts[i];
    if (refusal) {
      perFolder[i]?.push(refusalDiagnostic(path, refusal, "context"));
      continue;
    }
    seen.add(real);
    toLoad.push({ i, path, real, folder });
  }
  const loaded = await Promise.all(
    toLoad.map(async ({ i, path, real, folder }) => {
      // The user's file was read first (the agent dir is always the first folder).
      const one = (i === 0 ? userLoad : undefined) ?? (await loadOne(path, real, folder, limits));
      const said = perFolder[i];
      if (said) pushAll(said, one.diagnostics);
      return one.file;
    }),
  );
  const read = loaded.filter((f): f is LoadedFile => f !== undefined);
  const done = finish(folders, read, perFolder.flat(), agentLoaded, maxTotalBytes);
  return { ...done, diagnostics: [...chainCut, ...done.diagnostics] };
}

/** The files read, in prompt order, deduped and capped together, with their provenance. */
function finish(
  folders: readonly ContextFolder[],
  read: readonly LoadedFile[],
  diagnostics: readonly Diagnostic[],
  agentLoaded: readonly string[],
  maxTotalBytes: number,
): ContextTrace {
  const deduped = dedupeWithDropped(
    read.map(({ path, content, origin }) => ({ path, content, origin })),
  );
  const capped = capTotal(deduped.files, maxTotalBytes);
  return {
    files: capped.files,
    diagnostics: [...diagnostics, ...deduped.diagnostics, ...capped.diagnostics],
    provenance: {
      folders: folders.map((f) => toPosix(f.dir)),
      files: read.map(({ path, origin, imports, cut }) => ({ path, origin, imports, cut })),
      dropped: deduped.dropped,
      ...(deduped.trimmed.length > 0 ? { trimmed: deduped.trimmed } : {}),
      ...(agentLoaded.length > 0 ? { agentLoaded: [...agentLoaded] } : {}),
    },
  };
}

export type LoadedFile = ContextFile & Omit<ContextFileTrace, "path" | "origin">;

/**
 * What the agent reads itself in one project folder, against sysprompt's file there
 * (`path`, the folder's winner; `present`, every candidate name the folder holds). The
 * agent reads the first entry of `agentLoads.names` the folder has a file of (every file
 * of that entry); sysprompt's file is left out when it is one of them or, with `imports`,
 * one they import, and kept otherwise (Claude Code reads CLAUDE.md, not the AGENTS.md
 * beside it: that one stays in the prompt). `leftOut` also names the folder's other
 * candidates that the agent reads, so none of them is reported as unread.
 */
async function leaveOutForAgent(
  agentLoads: NonNullable<ContextFilesOptions["agentLoads"]>,
  folder: ContextFolder,
  path: string,
  present: readonly string[],
  limits: LoadLimits,
): Promise<{ load: boolean; leftOut: string[]; diagnostics: Diagnostic[] }> {
  const chosen = await agentChoice(folder.dir, agentLoads.names);
  if (chosen.length === 0) return { load: true, leftOut: [], diagnostics: [] };
  const winner = present.find((n) => join(folder.dir, n) === path) ?? "";
  const byAgent = present.filter((n) => chosen.includes(n));
  const leftOut = byAgent.map((n) => join(folder.dir, n));
  const own = chosen.join(" and ");
  const diagnostics: Diagnostic[] = leftOut.map((p) => ({
    level: "info",
    code: "context-agent-loads",
    message: `left out: ${agentLoads.agent} loads ${own} in this folder itself`,
    path: p,
  }));
  if (byAgent.includes(winner)) return { load: false, leftOut, diagnostics };
  if (agentLoads.imports) {
    const real = await realpathOrSelf(path);
    for (const name of chosen) {
      const file = join(folder.dir, name);
      const fileReal = await realpathOrSelf(file);
      // Only read to see what it imports, and still never where the door would not read it.
      if (folder.reach && (await reachRefusal(file, fileReal, folder.reach, false))) continue;
      const one = await loadOne(file, fileReal, folder, limits);
      if (one.file?.imports.includes(real)) {
        leftOut.push(path);
        diagnostics.push({
          level: "info",
          code: "context-agent-loads",
          message: `left out: ${agentLoads.agent} loads ${name} in this folder itself, and ${name} imports this file`,
          path,
        });
        return { load: false, leftOut, diagnostics };
      }
    }
  }
  diagnostics.push({
    level: "info",
    code: "context-agent-skips",
    message: `kept: ${agentLoads.agent} loads ${own} in this folder itself, but not this file`,
    path,
  });
  return { load: true, leftOut, diagnostics };
}

/** The files of the first entry of `names` that `dir` holds as regular files (links followed). */
async function agentChoice(dir: string, names: readonly (readonly string[])[]): Promise<string[]> {
  for (const entry of names) {
    const held: string[] = [];
    for (const name of entry) {
      const s = await stat(join(dir, name)).catch(() => undefined);
      if (s?.isFile()) held.push(name);
    }
    if (held.length > 0) return held;
  }
  return [];
}

/** What every file of one load shares: the caps, and the reads already made. */
export interface LoadLimits {
  home: string;
  maxBytes: number;
  maxTotalBytes: number;
  reads: Map<string, Promise<RepoCapped>>;
  /** Once it fires, no further file is read: each read, the file's and each import's, checks it first. */
  signal?: AbortSignal;
  /** The render's trust in the project, which another repository's door takes too (a kit is not yours). Default: trusted. */
  trusted?: boolean;
  /** The folder the render starts in: its project, trusted, is the one checkout whose private files your file may lead to (`checkoutReach`). */
  cwd?: string | undefined;
}

/**
 * Reads one context file found in `folder` (at `path`, whose real path is
 * `real`): capped at `maxBytes` with the marker line, its `@imports`
 * expanded within what the folder allows.
 */
export async function loadOne(
  path: string,
  real: string,
  folder: ContextFolder,
  { home, maxBytes, maxTotalBytes, reads, signal, trusted = true, cwd }: LoadLimits,
  early?: (unexpanded: { file: LoadedFile; diagnostics: Diagnostic[] }) => void,
): Promise<{ file?: LoadedFile; diagnostics: Diagnostic[] }> {
  await checkpoint(signal);
  // Your file (the agent dir's) and its imports: the repository its real folder lies in is yours
  // only when it is already (your home's, your agent dir's) or mirrors your home there (a stowed
  // ~/dotfiles/pi/.pi/agent/AGENTS.md); a kit's AGENTS.md you link to stays the kit's.
  const stowed =
    folder.ownReal && (await mirroredRepository(path, [home, ...folder.ownReal.slice(0, 1)]));
  const own = folder.ownReal && [...folder.ownReal, ...(stowed ? [stowed] : [])];
  // An imported file of an npm package (`~/.local/lib/node_modules/prompt-kit`) is a kit's too.
  const held = own && heldLinks(own, { signal, packages: true });
  // Your link to another repository's file (a kit's AGENTS.md): read, with its imports, through
  // the door rooted at that repository, with the render's trust, as an import of a kit file is.
  let kit: Checkout | undefined;
  // The agent dir's own file: its pi configuration is private wherever the agent dir lies.
  const agentDir = folder.origin === "user" && !folder.reach ? folder.dir : undefined;
  if (!folder.reach && held) {
    const place = await placeOwnFile(path, { walk: held, home, trusted, cwd, signal });
    if (place.kind === "refused")
      return { diagnostics: [refusalDiagnostic(path, place.refusal, "context")] };
    if (place.kind === "checkout") kit = place;
  }
  const read = kit
    ? await readRepoCapped(kit.spelled, { reach: kit.reach, maxBytes })
    : // Placed above (placeOwnFile, with the walk its imports take too): yours, or the project's.
      await readRepoCapped(path, {
        reach: folder.reach,
        own: undefined,
        maxBytes,
        home,
        agentDir,
        signal,
      });
  if (!read.ok) return { diagnostics: read.diagnostics };
  // `early`: the file as read, its imports as written, for a step given up on while they are expanded.
  if (early && read.text.includes("@")) {
    early({
      file: loadedFile(path, folder.origin, read.text.trim(), read.omitted, maxBytes, [], []),
      diagnostics: [
        ...read.diagnostics,
        {
          level: "warning",
          code: "import-late",
          path: toPosix(path),
          message: `${toPosix(path)}: the render's deadline passed before its @imports were read; they are left as written`,
        },
      ],
    });
  }
  const state: ImportState = {
    visited: new Set([real]),
    tried: 0,
    cut: [],
    bytes: Buffer.byteLength(read.text),
    reads,
  };
  const expanded = await expandImports(
    read.text,
    { path, dir: dirname(real) },
    {
      home,
      agentDir,
      maxBytes,
      maxTotalBytes,
      allowed: folder.allowed,
      allowedText: kit ? `the repository ${toPosix(kit.root)}` : folder.allowedText,
      trusted,
      cwd,
      ...(signal ? { signal } : {}),
      ...(kit ? { reach: kit.reach } : folder.reach ? { reach: folder.reach } : {}),
      ...(held && !kit ? { held } : {}),
    },
    state,
  );
  // The set starts with the file itself; the rest are its imports, in the order expanded.
  const imports = [...state.visited].slice(1);
  return {
    file: loadedFile(
      path,
      folder.origin,
      expanded.text.trim(),
      read.omitted,
      maxBytes,
      imports,
      state.cut ?? [],
    ),
    diagnostics: [...read.diagnostics, ...expanded.diagnostics],
  };
}

/** A context file as loaded: its text (with the cut marker when `omitted`), its imports and the files cut. */
function loadedFile(
  path: string,
  origin: ContextFolder["origin"],
  text: string,
  omitted: number,
  maxBytes: number,
  imports: string[],
  cutFiles: string[],
): LoadedFile {
  let content = text;
  const cut = cutFiles.map((p) => toPosix(p));
  if (omitted > 0) {
    content = withCutMarker(content, omitted, maxBytes);
    cut.unshift(toPosix(path));
  }
  return { path: toPosix(path), content, origin, imports: imports.map((p) => toPosix(p)), cut };
}
