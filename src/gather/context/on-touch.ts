import { homedir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { realpathOrSelf } from "../../_fs.js";
import { realpath, stat } from "../../_io.js";
import { expandHome, toPosix } from "../../_paths.js";
import { escapeWrapperTags, oneLine } from "../../_prompt-text.js";
import { projectReach, type Reach } from "../../repo-files/index.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { checkMaxBytes } from "../capped-read.js";
import { isWithin } from "../project-root.js";
import { ruleBase } from "../rules/base.js";
import { geminiContextNames } from "../rules/gemini-settings.js";
import { globMatcher } from "../rules/globs.js";
import type { Rule } from "../rules/types.js";
import { capTotal, DEFAULT_MAX_TOTAL_CONTEXT_BYTES } from "./_context-total.js";
import {
  ancestorsOf,
  CONTEXT_FILE_NAMES,
  type ContextFolder,
  findContextFile,
  loadOne,
} from "./context-files.js";
import { type PrivateVerdict, privatePaths } from "./private-paths.js";

/** One instruction file a touched path brings in. */
export interface TouchedFile {
  /** Where it was found (absolute, forward slashes), escaped to one line. */
  path: string;
  /** Its text: capped, imports expanded, no tag of the prompt's elements left live. */
  content: string;
  /** `context`: a nested AGENTS.md / CLAUDE.md / GEMINI.md (or a configured name); `rule`: a glob rule whose globs match. */
  kind: "context" | "rule";
  /** A rule's name. */
  name?: string;
}

export interface TouchedContext {
  files: TouchedFile[];
  diagnostics: Diagnostic[];
}

/** Most paths one call looks at; the rest are named in one diagnostic. */
export const MAX_TOUCH_PATHS = 64;
/** Most folders one call searches for a context file (a deep path has one per level). */
export const MAX_TOUCH_FOLDERS = 256;

/** The element a host wraps each file in: its text may not close it. */
export const TOUCH_ELEMENT = "instructions";

export interface ContextForOptions {
  /** Working directory; its project root (as git finds it) bounds every path. */
  cwd: string;
  /** Home folder, for `~`. Default: `os.homedir()`. */
  home?: string;
  /** Cap of each file and each import, in bytes. Default: 256 KiB, as context files. */
  maxBytes?: number;
  /** Cap of what one call returns, imports included. Default: 2 MiB, as context files. */
  maxTotalBytes?: number;
  /** False: a link may not bring a private file (`.git/`, hidden, ignored) in. Default: true. */
  projectTrusted?: boolean;
  /** No folder above this one is looked at for `.git`. Default: none. */
  ceilingDir?: string;
  /** Rules as the rules step loaded them; those with `activation: "glob"` are matched. Default: none. */
  rules?: readonly Rule[];
  /** False: no context files, only rules (the caller turned context files off). Default: true. */
  contextFiles?: boolean;
  /** Name of the project layer folder (`.pi`): its rules' globs are relative to cwd. Default: `.pi`. */
  projectDir?: string;
  /**
   * The agent loads these context files itself when a call touches their
   * folder (Claude Code's nested CLAUDE.md): a folder holding one gives
   * nothing, as in the prompt's `agentLoads`. Default: none.
   */
  agentLoads?: { agent: string; names: readonly string[] };
  /** Element names the text may not open or close, besides {@link TOUCH_ELEMENT}. */
  wrappers?: Iterable<string>;
  /**
   * What was already given, by key; the call adds what it gives. A session
   * passes the same set every time, so each file comes once. Default: a new set.
   */
  delivered?: Set<string>;
}

/**
 * The instruction files that `paths` (absolute, or relative to cwd; a file
 * or a folder, existing or about to be written) bring in and the prompt does
 * not hold: the context file of each folder from the project root down to
 * the path's folder, skipping cwd and the folders above it (the prompt has
 * theirs), then each glob rule whose globs match the path relative to the
 * rule's folder (the folder holding `.cursor/`, `.claude/`…; cwd for `.pi/rules`;
 * the project root for the user's rules). Each comes once per `delivered` set.
 *
 * A context file that git ignores (or inside `.git/` or `node_modules`) is
 * a dependency's or a build's, not written for this project: not loaded,
 * with an `info`. Everything is confined to the project root by real path: a path that
 * resolves outside it (a link out, `/etc`, another checkout) brings nothing
 * and gets an `info`; a context file that is a folder, a FIFO, a device or a
 * link out is not opened and gets a diagnostic, once. Files are capped and
 * their imports expanded as context files are, and text is escaped as the
 * prompt's is. A path that is not a string throws; every other problem is a diagnostic.
 */
export async function loadContextForPaths(
  paths: readonly string[],
  options: ContextForOptions,
): Promise<TouchedContext> {
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== "string")) {
    throw new SyspromptError("bad-option", "contextFor: paths must be an array of strings");
  }
  const maxBytes = checkMaxBytes(options.maxBytes, "maxBytes");
  const maxTotalBytes =
    options.maxTotalBytes === undefined
      ? DEFAULT_MAX_TOTAL_CONTEXT_BYTES
      : checkMaxBytes(options.maxTotalBytes, "maxTotalBytes");
  const home = options.home ?? homedir();
  const cwd = resolve(expandHome(options.cwd, home));
  const ceiling = options.ceilingDir === undefined ? undefined : resolve(options.ceilingDir);
  const delivered = options.delivered ?? new Set<string>();
  const wrappers = new Set([TOUCH_ELEMENT, ...[...(options.wrappers ?? [])].map(lower)]);
  const trusted = options.projectTrusted !== false;

  // The project's reach, as the door reads it (a root that is or holds the home folder narrowed to cwd).
  const reach = await projectReach({ start: cwd, home, trusted, ceiling });
  const { root, realRoot } = reach;
  const realCwd = await realpathOrSelf(cwd);
  const folder: ContextFolder = {
    dir: root,
    origin: "project",
    confine: realRoot,
    allowed: [root, realRoot],
    excluded: [...reach.excluded],
    allowedText: `the project root ${toPosix(root)}`,
    ...(reach.isPrivate ? { isPrivate: reach.isPrivate } : {}),
    reach,
  };
  // Files git ignores (dependencies, builds) and .git/ are not the project's instructions.
  const ignored = privatePaths(realRoot, { hidden: false });
  // The prompt holds the files of cwd and its ancestors: a link to one of them adds nothing.
  const held = await heldFiles(cwd, root, ceiling);
  const names = await nestedNames(cwd, reach);

  const diagnostics: Diagnostic[] = [];
  const found: TouchedFile[] = [];
  const limits = { home, maxBytes, maxTotalBytes, reads: new Map() };
  const searched = new Set<string>();
  let tooDeep = false;
  const glob = globRules(options.rules ?? [], {
    cwd,
    root,
    ceiling,
    projectDir: options.projectDir,
  });

  if (paths.length > MAX_TOUCH_PATHS) {
    diagnostics.push({
      level: "warning",
      code: "touch-too-many",
      message: `${paths.length - MAX_TOUCH_PATHS} of ${paths.length} paths not looked at: one call takes at most ${MAX_TOUCH_PATHS}`,
    });
  }
  for (const written of paths.slice(0, MAX_TOUCH_PATHS)) {
    if (written === "" || written.includes("\0")) continue;
    const abs = resolve(cwd, expandHome(written, home));
    if (abs.length > MAX_TOUCH_PATH_LENGTH) {
      diagnostics.push({
        level: "info",
        code: "touch-unresolvable",
        message: `nothing loaded for this path: it is ${abs.length} characters long, and no file's path is longer than ${MAX_TOUCH_PATH_LENGTH}`,
        path: oneLine(toPosix(abs.slice(0, 200))),
      });
      continue;
    }
    const target = await realTarget(abs);
    if (target === undefined) {
      diagnostics.push({
        level: "info",
        code: "touch-unresolvable",
        message:
          "nothing loaded for this path: it cannot be resolved (a link loop, or a folder that may not be searched)",
        path: oneLine(toPosix(abs)),
      });
      continue;
    }
    if (!isWithin(target.real, realRoot)) {
      diagnostics.push({
        level: "info",
        code: "touch-outside-project",
        message: `nothing loaded for this path: it resolves to ${oneLine(toPosix(target.real))}, outside the project root ${oneLine(toPosix(realRoot))}`,
        path: oneLine(toPosix(abs)),
      });
      continue;
    }
    const dir = target.isDir ? target.real : dirname(target.real);
    const parts = relative(realRoot, dir)
      .split(sep)
      .filter((p) => p !== "");
    const depths = options.contextFiles === false ? -1 : parts.length;
    for (let depth = 0; depth <= depths; depth++) {
      const realDir = join(realRoot, ...parts.slice(0, depth));
      // cwd and the folders above it: the prompt has their context files.
      if (isWithin(realCwd, realDir) || searched.has(realDir)) continue;
      if (searched.size >= MAX_TOUCH_FOLDERS) {
        tooDeep = true;
        break;
      }
      searched.add(realDir);
      const key = `context\0${realDir}`;
      if (delivered.has(key)) continue;
      // A link to a file the prompt holds, or that was given already, adds nothing: not even read.
      const given = (real: string) => held.has(real) || delivered.has(`file\0${real}`);
      const one = await contextOf(
        realDir,
        join(root, ...parts.slice(0, depth)),
        { ...folder, ignored, given, names, agentLoads: options.agentLoads },
        limits,
      );
      if (one.path === undefined && one.diagnostics.length === 0) continue;
      // Found (given or refused): not looked at again this session.
      delivered.add(key);
      diagnostics.push(...one.diagnostics);
      if (one.file === undefined || one.real === undefined) continue;
      delivered.add(`file\0${one.real}`);
      found.push({
        path: oneLine(one.file.path),
        content: escapeWrapperTags(one.file.content, wrappers),
        kind: "context",
      });
    }
    for (const rule of await glob) {
      const key = `rule\0${rule.rule.path}`;
      if (delivered.has(key)) continue;
      const rel = toPosix(relative(rule.realBase, target.real));
      if (!rule.matches(rel)) continue;
      delivered.add(key);
      found.push({
        path: oneLine(rule.rule.path),
        content: escapeWrapperTags(rule.rule.content, wrappers),
        kind: "rule",
        name: oneLine(rule.rule.name),
      });
    }
  }
  if (tooDeep) {
    diagnostics.push({
      level: "warning",
      code: "touch-too-deep",
      message: `more than ${MAX_TOUCH_FOLDERS} folders to search in one call: the deeper ones were not searched`,
    });
  }
  const capped = capTotal(
    found.map((f) => ({ ...f, origin: "project" as const })),
    maxTotalBytes,
  );
  return {
    files: capped.files.map(({ origin: _, ...f }) => f),
    diagnostics: [...diagnostics, ...capped.diagnostics],
  };
}

function lower(name: string): string {
  return name.toLowerCase();
}

/**
 * Longest path looked at: PATH_MAX on Linux, in bytes (so no fewer
 * characters); the system opens no longer one. realTarget walks up a missing
 * path a folder at a time, which costs its length squared: a tool path of
 * 30,000 folders (60 KB, from the agent's side) held contextFor for 29 s.
 */
const MAX_TOUCH_PATH_LENGTH = 4096;

/**
 * The real path of `abs`, and whether it is a folder. A path that does not
 * exist yet (a file about to be written) is its nearest existing ancestor's
 * real path with the rest as written: a link on the way still counts.
 */
async function realTarget(abs: string): Promise<{ real: string; isDir: boolean } | undefined> {
  let rest = "";
  let current = abs;
  for (;;) {
    try {
      const real = await realpath(current);
      if (rest !== "") return { real: join(real, rest), isDir: false };
      const s = await stat(real);
      return { real, isDir: s.isDirectory() };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A loop or a folder we may not search: where it leads is unknown, so nothing is read.
      if (code !== "ENOENT" && code !== "ENOTDIR") return undefined;
      // Missing: a file about to be written; its folder is the nearest that exists.
      const up = dirname(current);
      if (up === current) return { real: abs, isDir: false };
      rest = rest === "" ? basename(current) : join(basename(current), rest);
      current = up;
    }
  }
}

/** The names known here; any other was set by the repository's `.gemini/settings.json`. */
const KNOWN_NAMES: ReadonlySet<string> = new Set([...CONTEXT_FILE_NAMES, "GEMINI.md"]);

/**
 * The names a nested folder is searched for, the first regular file winning:
 * the context file names, then Gemini CLI's GEMINI.md, which Gemini CLI loads
 * just in time for a touched folder (docs/cli/gemini-md.md of gemini-cli at
 * 5411f113ca, 2026-08-21), or the names `context.fileName` in cwd's
 * .gemini/settings.json sets instead (that file's problems are the rules step's to report).
 */
async function nestedNames(cwd: string, reach: Reach): Promise<string[]> {
  const gemini = await geminiContextNames(cwd, reach);
  return [...new Set([...CONTEXT_FILE_NAMES, ...(gemini.names ?? ["GEMINI.md"])])];
}

/**
 * The names a nested folder below `cwd` is searched for, in precedence (see
 * nestedNames): what on-touch delivery looks for, and what the workspace
 * tree names in `dir_context`.
 */
export async function nestedContextNames(
  cwd: string,
  options: { home: string; trusted: boolean; ceilingDir?: string },
): Promise<string[]> {
  const start = resolve(cwd);
  const ceiling = options.ceilingDir === undefined ? undefined : resolve(options.ceilingDir);
  const reach = await projectReach({
    start,
    home: options.home,
    trusted: options.trusted,
    ceiling,
  });
  return nestedNames(start, reach);
}

/** Real paths of the context files in cwd and its ancestors up to the project root. */
async function heldFiles(
  cwd: string,
  root: string,
  ceiling: string | undefined,
): Promise<Set<string>> {
  const dirs = ancestorsOf(cwd, ceiling).filter((d) => isWithin(d, root));
  const found = await Promise.all(dirs.map((d) => findContextFile(d)));
  const reals = await Promise.all(
    found.map(({ path }) => (path ? realpathOrSelf(path) : undefined)),
  );
  return new Set(reals.filter((r): r is string => r !== undefined));
}

/** The context file of one folder inside the project, read and checked; what was refused, said. */
async function contextOf(
  realDir: string,
  writtenDir: string,
  folder: ContextFolder & {
    ignored: (path: string) => Promise<PrivateVerdict | undefined>;
    given: (real: string) => boolean;
    names: readonly string[];
    agentLoads: ContextForOptions["agentLoads"];
  },
  limits: Parameters<typeof loadOne>[3],
): Promise<{
  path?: string;
  real?: string;
  file?: { path: string; content: string };
  diagnostics: Diagnostic[];
}> {
  const looked = await findContextFile(realDir, folder.names);
  const diagnostics = looked.diagnostics.map(atWritten(realDir, writtenDir));
  if (looked.path === undefined) return { diagnostics };
  const path = join(writtenDir, basename(looked.path));
  const own = looked.present.find((n) => folder.agentLoads?.names.includes(n));
  if (own !== undefined) {
    diagnostics.push({
      level: "info",
      code: "context-agent-loads",
      message: `left out: ${oneLine(folder.agentLoads?.agent ?? "")} loads ${own} in this folder itself`,
      path: oneLine(toPosix(path)),
    });
    return { path, diagnostics };
  }
  const dependency = realDir.split(sep).includes("node_modules");
  const verdict = dependency ? undefined : await folder.ignored(looked.path);
  if (dependency || verdict) {
    const why = verdict ? `${oneLine(verdict.rel)} is ${verdict.why}` : "it is inside node_modules";
    diagnostics.push({
      level: "info",
      code: "context-ignored",
      message: `not loaded: ${why}, so it is not written for this project's agent`,
      path: oneLine(toPosix(path)),
    });
    return { path, diagnostics };
  }
  const real = await realpathOrSelf(looked.path);
  if (folder.given(real)) return { path, diagnostics };
  if (folder.confine !== undefined && !isWithin(real, folder.confine)) {
    diagnostics.push({
      level: "warning",
      code: "context-outside-project",
      message: `not loaded: this file resolves to ${oneLine(toPosix(real))}, outside ${oneLine(toPosix(folder.confine))}`,
      path: oneLine(toPosix(path)),
    });
    return { path, diagnostics };
  }
  // A name `.gemini/settings.json` set was written by the repository: checked as an import is.
  const named = !KNOWN_NAMES.has(basename(looked.path));
  if ((real !== looked.path || named) && folder.isPrivate) {
    const secret = await folder.isPrivate(real);
    if (secret) {
      diagnostics.push({
        level: "warning",
        code: "context-private",
        message: `not loaded: the project is not trusted and this file resolves to ${oneLine(secret.rel)}, which is ${secret.why}; trust the project to load it`,
        path: oneLine(toPosix(path)),
      });
      return { path, diagnostics };
    }
  }
  const one = await loadOne(path, real, { ...folder, dir: writtenDir }, limits);
  diagnostics.push(...one.diagnostics);
  return one.file
    ? { path, real, file: { path: one.file.path, content: one.file.content }, diagnostics }
    : { path, real, diagnostics };
}

/** A diagnostic about a file under `realDir`, shown at its written path (one line). */
function atWritten(realDir: string, writtenDir: string): (d: Diagnostic) => Diagnostic {
  return (d) =>
    d.path === undefined
      ? d
      : { ...d, path: oneLine(toPosix(join(writtenDir, relative(realDir, d.path)))) };
}

/** The glob rules with their folder's real path and a matcher, made once per call. */
async function globRules(
  rules: readonly Rule[],
  where: { cwd: string; root: string; ceiling: string | undefined; projectDir: string | undefined },
): Promise<{ rule: Rule; realBase: string; matches: (rel: string) => boolean }[]> {
  const glob = rules.filter((r) => r.activation === "glob" && r.globs.length > 0);
  return Promise.all(
    glob.map(async (rule) => ({
      rule,
      realBase: await realpathOrSelf(ruleBase(rule, where)),
      matches: globMatcher(rule.globs),
    })),
  );
}
