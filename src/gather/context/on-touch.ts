import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pushAll } from "../../_arrays.js";
import { escapedWholeWarning, pageTagWarning } from "../../_fence.js";
import { realpathOrSelf } from "../../_fs.js";
import { realpath, stat } from "../../_io.js";
import { pace } from "../../_pace.js";
import {
  ancestorsOf,
  childPath,
  expandHome,
  homeFolder,
  isWithin,
  PATH_MAX,
  toPosix,
} from "../../_paths.js";
import {
  escapeWrapperTags,
  type NameBudget,
  oneLine,
  ownTagEscapedWarning,
  ownTextEscaped,
  ownTextNames,
  repositoryNames,
  withNameBudget,
} from "../../_prompt-text.js";
import { wellFormed } from "../../_text.js";
import { MAX_PROMPT_NAME_READ } from "../../engine/limits.js";
import {
  capChain,
  checkMaxBytes,
  type FolderInProject,
  folderReaches,
  holdsProjectRoot,
  MAX_CHAIN_FOLDERS,
  NO_DEADLINE,
  type PrivateVerdict,
  privatePaths,
  projectReach,
  type Reach,
  type Refusal,
  type RefusedRootMarker,
  reachRefusal,
  refusalDiagnostic,
  rootMarkerRefusedDiagnostics,
} from "../../repo-files/index.js";
import {
  CHECK_BUDGET_CHARS,
  checkAffordable,
  MAX_CLOSER_CHARS,
  withCheckBudget,
} from "../../sections/html-reading.js";
import { touchedElement, touchedLead, withTextNames } from "../../touch/format.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { CONTEXT_FILE_NAMES, folderContextNames, NESTED_CONTEXT_NAMES } from "../context-names.js";
import { DEFAULT_DEADLINE_MS } from "../deadline.js";
import { realWorkingFolder } from "../roots.js";
import {
  belowCwdFormats,
  geminiContextNames,
  globMatcher,
  loadFolderRules,
  MAX_GLOB_PATH_SEGMENTS,
  type Rule,
  ruleBase,
  settingsNamedHidden,
  tooDeepForGlobs,
} from "../rules/index.js";
import {
  capTotal,
  cutToSize,
  DEFAULT_MAX_TOTAL_CONTEXT_BYTES,
  type TextMeasure,
  UTF8_BYTES,
} from "./_context-total.js";
import { type ContextFolder, findContextFile, loadOne } from "./context-files.js";
import { contextKey, fileKey, ruleKey } from "./touch-keys.js";

/** One instruction file a touched path brings in. */
export interface TouchedFile {
  /** Where it was found (absolute, forward slashes), escaped to one line. */
  path: string;
  /** Its text: capped, imports expanded, no tag of the prompt's elements left live. */
  content: string;
  /**
   * `context`: a nested AGENTS.md / CLAUDE.md / GEMINI.md (or a configured
   * name); `rule`: a glob rule whose globs match, or a rule of a folder below
   * cwd on the path (Windsurf's `.windsurf/rules`): always and matching glob
   * rules whole, a model rule as its description and where to read it.
   */
  kind: "context" | "rule";
  /** A rule's name. */
  name?: string;
  /**
   * `"user"`: a file of yours (your glob rule), whose element carries the
   * owner mark the prompt gives it (`owner="user"`, review rev92d F3); a
   * repository's has none.
   */
  owner?: "user";
}

export interface TouchedContext {
  files: TouchedFile[];
  diagnostics: Diagnostic[];
}

/** The most of a hook's text an agent keeps whole, counted as it counts it. */
export interface TextCap {
  max: number;
  measure?: TextMeasure;
}

/** Most paths one call looks at; the rest are named in one diagnostic. */
export const MAX_TOUCH_PATHS = 64;
/** Most folders one call searches for a context file (a deep path has one per level): the cap of cwd's chain. */
export const MAX_TOUCH_FOLDERS = MAX_CHAIN_FOLDERS;

export { TOUCH_ELEMENT } from "../../_prompt-text.js";

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
  /**
   * The rule sources read (`ruleSources`): a format an agent also finds in
   * folders below cwd (Windsurf) is read in the folders on a touched path.
   * Default: every project format, as the rules step's default.
   */
  ruleSources?: readonly string[];
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
  /** Element names the text may not open or close, besides {@link TOUCH_ELEMENT} and {@link HOST_ELEMENTS}. */
  wrappers?: Iterable<string>;
  /**
   * What was already given, by key; the call adds what it gives. A session
   * passes the same set every time, so each file comes once. Default: a new set.
   */
  delivered?: Set<string>;
  /**
   * Milliseconds the call may take (`Infinity`: none). Matching a
   * repository's glob rules is synchronous work it controls (1,000 rules of
   * 64 globs, 64 paths): the loops yield every slice, and past this the
   * folders and rules not yet looked at are left, with a `touch-deadline`
   * warning, for a later call. Default: {@link DEFAULT_DEADLINE_MS}, as a render's.
   */
  deadlineMs?: number;
  /**
   * The most the host's text of the files (as `formatTouched` writes it) may
   * take, counted as the agent counts it (`measure`, default UTF-8 bytes):
   * the agent keeps only that much of a hook's text whole (`sysprompt hook`
   * for Claude Code, Codex and Gemini CLI). Files past it are left for a
   * later call; one larger on its own is cut to fit. Default: none.
   */
  textCap?: TextCap;
}

/**
 * The instruction files that `paths` (absolute, or relative to cwd; a file
 * or a folder, existing or about to be written) bring in and the prompt does
 * not hold: the context file of each folder from the project root down to
 * the path's folder, skipping cwd and the folders above it (the prompt has
 * theirs), then each glob rule whose globs match the path relative to the
 * rule's folder (the folder holding `.cursor/`, `.claude/`…; cwd for `.pi/rules`;
 * the project root for the user's rules). Each comes once per `delivered` set.
 * The user's own files come first, then the repository's in that order.
 *
 * A context file that git ignores (or inside `.git/` or `node_modules`) is
 * a dependency's or a build's, not written for this project: not loaded,
 * with an `info`. A touched path is confined to cwd's project root by real
 * path: one that resolves outside it (a link out, `/etc`, another checkout)
 * brings nothing and gets an `info`. Each context file found, its imports and
 * a folder's rule files are checked by the door against the project of their
 * own folder (its nearest `.git` below that root, else cwd's project), as a
 * render checks a context file: in a session above several repositories
 * (`~/work`), one repository's file never brings another's. A context file
 * that is a folder, a FIFO, a device or a link out is not opened and gets a
 * diagnostic, once. Files are capped and
 * their imports expanded as context files are, and text is escaped as the
 * prompt's is. A path that is not a string throws; every other problem is a diagnostic.
 */
export async function loadContextForPaths(
  paths: readonly string[],
  options: ContextForOptions,
): Promise<TouchedContext> {
  return loadContextForPathsSince(paths, options, performance.now());
}

/**
 * {@link loadContextForPaths} with its deadline counted from `startedAt` (on
 * `performance.now()`), not from now: a session's call that spent part of
 * it tracing the rule files first.
 */
export async function loadContextForPathsSince(
  paths: readonly string[],
  options: ContextForOptions,
  startedAt: number,
): Promise<TouchedContext> {
  if (!Array.isArray(paths) || paths.some((p) => typeof p !== "string")) {
    throw new SyspromptError("bad-option", "contextFor: paths must be an array of strings");
  }
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (typeof deadlineMs !== "number" || Number.isNaN(deadlineMs) || deadlineMs < 0) {
    throw new SyspromptError("bad-option", "contextFor: deadlineMs must be a number ≥ 0 (ms)");
  }
  const inTime = timeLeft(startedAt + deadlineMs);
  const leftMs = Math.max(0, startedAt + deadlineMs - performance.now());
  // One folder's rule folders may lead to 200,000 entries: their listing hears the deadline too.
  const deadline = new AbortController();
  // A timer longer than 2^31 - 1 ms fires at once (Node's rule): such a deadline is none.
  const timer = leftMs <= MAX_TIMER_MS ? setTimeout(() => deadline.abort(), leftMs) : undefined;
  timer?.unref();
  const maxBytes = checkMaxBytes(options.maxBytes, "maxBytes");
  const maxTotalBytes =
    options.maxTotalBytes === undefined
      ? DEFAULT_MAX_TOTAL_CONTEXT_BYTES
      : checkMaxBytes(options.maxTotalBytes, "maxTotalBytes");
  const home = options.home ?? homeFolder();
  // The project, its rules and the paths touched are found from cwd's real folder, as a render's
  // (a cwd named through a link into a repository's subfolder gave its ignored folders' AGENTS.md: rev57a F3).
  // One look-up each, not a walk: the deadline is heard by the loop below (inTime), never thrown.
  const cwd = await realWorkingFolder(resolve(expandHome(options.cwd, home)), { home });
  const ceiling =
    options.ceilingDir === undefined
      ? undefined
      : await realWorkingFolder(resolve(options.ceilingDir), { home, what: "ceilingDir" });
  const delivered = options.delivered ?? new Set<string>();
  // The repository's files are escaped against the one set a repository's text is (the owner mark
  // held: rev69a F4, a hook's and a first contextFor's names lacked it); your glob rules without it.
  const wrappers = repositoryNames([...(options.wrappers ?? [])].map(lower));
  const ownWrappers = ownTextNames(wrappers);
  const trusted = options.projectTrusted !== false;
  // A repository's text, escaped as loaded: with a host's cap, only its head is read ({@link headForCap}).
  const beyond = new Map<string, number>();
  // The call's one meter of the name reader's work on the repository's files: past it, each is
  // escaped whole, said once a file (review rev82b F2: nothing metered them).
  const meter: NameBudget = { left: MAX_PROMPT_NAME_READ, untold: 0 };
  const wholeTold = new Set<string>();
  const whole = (path: string) => () => {
    if (wholeTold.has(path)) return;
    wholeTold.add(path);
    diagnostics.push(escapedWholeWarning(path));
  };
  const loaded = (text: string, path: string): string => {
    const head = headForCap(text, options.textCap);
    const out = withNameBudget(meter, () =>
      escapeWrapperTags(head, wrappers, false, pageTagTold(path), whole(oneLine(path))),
    );
    if (head.length < text.length && options.textCap !== undefined)
      beyond.set(out, (options.textCap.measure ?? UTF8_BYTES).size(text.slice(head.length)));
    return out;
  };

  // The session's reach, as the door reads it (a root that is or holds the home folder narrowed to cwd):
  // what a touched path must lie in, and the project of the folders in no repository below its root.
  // Not on `deadline.signal`: the call's deadline is heard between folders (inTime), never thrown,
  // so one folder's private-path check runs to its end, bounded by the total budget of the
  // Mercurial ignore files around a root (known limit, fx92d).
  const reach = await projectReach({ start: cwd, home, trusted, ceiling, signal: NO_DEADLINE });
  const { root, realRoot } = reach;
  // cwd's folders below the root: a folder on a touched path that is one of them holds cwd.
  const cwdParts = isWithin(cwd, realRoot)
    ? relative(realRoot, cwd)
        .split(sep)
        .filter((p) => p !== "")
    : undefined;
  // A marker the project search of a touched folder passes over: said once a session (rev64f F1).
  const refused: RefusedRootMarker[] = [];
  const projectOf = projectsBelow(reach, home, trusted, cwd, refused);
  // The prompt holds the files of cwd and its ancestors: a link to one of them adds nothing.
  const held = await heldFiles(cwd, root, ceiling);
  const names = await nestedNames(cwd, reach);

  const diagnostics: Diagnostic[] = [];
  // A repository's start tag acting on the whole page, written `&lt;` as loaded: said (rev80c F4).
  const pageTagTold = (path: string) => (line: number, tag: string) =>
    diagnostics.push(pageTagWarning(oneLine(path), line, tag));
  const found: TouchedFile[] = [];
  // The keys each found file added to `delivered`, by its index: taken back if the total cuts it.
  const keysOf: string[][] = [];
  // The indexes of the user's own files (their glob rules): they come first.
  const yours = new Set<number>();
  // Their paths: the names their attributes are escaped against are yours too (withTextNames).
  const ownPaths = new Set<string>();
  const limits = { home, maxBytes, maxTotalBytes, reads: new Map() };
  const searched = new Set<string>();
  let tooDeep = false;
  const glob = globRules(options.rules ?? [], {
    cwd,
    root,
    ceiling,
    projectDir: options.projectDir,
  });

  // Rule folders an agent finds below cwd too, read once per call for the folders on a path.
  const nestedFormats = belowCwdFormats(options.ruleSources);
  const nested = new Map<string, Promise<Rule[]>>();
  const nestedRulesOf = (
    realDir: string,
    writtenDir: string,
    project: Promise<Project>,
  ): Promise<Rule[]> => {
    let loading = nested.get(realDir);
    if (loading === undefined) {
      loading = (async () => {
        const { folder, ignored } = await project;
        // Node_modules and git-ignored folders hold a dependency's or a build's files (a folder
        // below ignore rules not read whole may not be one: its rule files meet the door).
        if (realDir.split(sep).includes("node_modules")) return [];
        const verdict = await ignored(realDir);
        if (verdict !== undefined && verdict.cut === undefined) return [];
        const one = await loadFolderRules(writtenDir, nestedFormats, {
          reach: folder.reach ?? reach,
          maxBytes,
          signal: deadline.signal,
        });
        // Stopped at the deadline: the loop below says so (touch-deadline).
        if (deadline.signal.aborted) inTime.late = true;
        // Said once a session; a folder with nothing to say keeps no key.
        const said = `rules-said\0${realDir}`;
        if (one.diagnostics.length > 0 && !delivered.has(said)) {
          delivered.add(said);
          pushAll(diagnostics, one.diagnostics);
        }
        return one.rules;
      })();
      nested.set(realDir, loading);
    }
    return loading;
  };

  if (paths.length > MAX_TOUCH_PATHS) {
    diagnostics.push({
      level: "warning",
      code: "touch-too-many",
      message: `${paths.length - MAX_TOUCH_PATHS} of ${paths.length} paths not looked at: one call takes at most ${MAX_TOUCH_PATHS}`,
    });
  }
  for (const written of paths.slice(0, MAX_TOUCH_PATHS)) {
    if (!(await inTime())) break;
    if (written === "" || written.includes("\0")) continue;
    // Measured before it is resolved (only its head is, to be shown): resolving 30 MB of `a/`
    // took seconds and GBs (rev79h F3).
    const long = written.length > MAX_TOUCH_PATH_LENGTH;
    const abs = resolve(cwd, expandHome(long ? written.slice(0, 200) : written, home));
    if (long || abs.length > MAX_TOUCH_PATH_LENGTH) {
      const size = long
        ? `${written.length} characters long as written`
        : `${abs.length} characters long`;
      diagnostics.push({
        level: "info",
        code: "touch-unresolvable",
        message: `nothing loaded for this path: it is ${size}, and no file's path is longer than ${MAX_TOUCH_PATH_LENGTH}`,
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
    const chain = folderChain(realRoot, root, parts, cwdParts);
    for (const [i, { realDir, dir: writtenDir, holdsCwd }] of (options.contextFiles === false
      ? []
      : chain
    ).entries()) {
      if (!(await inTime())) break;
      // cwd and the folders above it: the prompt has their context files.
      if (holdsCwd || searched.has(realDir)) continue;
      const key = contextKey(realDir);
      // Given (or refused) before: nothing to read, so not counted, or a later call could never reach deeper.
      if (delivered.has(key)) continue;
      if (searched.size >= MAX_TOUCH_FOLDERS) {
        tooDeep = true;
        break;
      }
      searched.add(realDir);
      // A link to a file the prompt holds, or that was given already, adds nothing: not even read.
      const given = (real: string) => held.has(real) || delivered.has(fileKey(real));
      // Checked, with its imports, against the project of its own folder, as a render checks it.
      const { folder, ignored, inOtherRepository } = await projectOf(chain, i);
      const one = await contextOf(
        realDir,
        writtenDir,
        {
          ...folder,
          ignored,
          given,
          names: folderContextNames(names, inOtherRepository),
          agentLoads: options.agentLoads,
          session: reach,
        },
        limits,
      );
      if (one.path === undefined && one.diagnostics.length === 0) continue;
      // Found (given or refused): not looked at again this session.
      delivered.add(key);
      pushAll(diagnostics, one.diagnostics);
      if (one.file === undefined || one.real === undefined) continue;
      delivered.add(fileKey(one.real));
      keysOf[found.length] = [key, fileKey(one.real)];
      found.push({
        path: oneLine(one.file.path),
        content: loaded(one.file.content, one.file.path),
        kind: "context",
      });
    }
    const ruleDirs =
      nestedFormats.length > 0 ? [...chain.entries()].slice(1).filter(([, f]) => !f.holdsCwd) : [];
    // A glob rule not matched because the path is too deep for globs: said once for the path.
    let globsTooDeep = false;
    folders: for (const [i, { realDir, dir: writtenDir }] of ruleDirs) {
      // Each folder's rule folders are listed (a big tree may be linked from every one): at the deadline, no more.
      if (!(await inTime())) break;
      if (!nested.has(realDir) && nested.size >= MAX_TOUCH_FOLDERS) {
        tooDeep = true;
        break;
      }
      const folderRules = await nestedRulesOf(realDir, writtenDir, projectOf(chain, i));
      for (const rule of folderRules) {
        // Compiling a rule's globs costs time too (200 rules of 64 patterns a folder): heard between rules.
        if (!(await inTime())) break folders;
        const key = ruleKey(rule.path);
        if (delivered.has(key)) continue;
        const rel = toPosix(relative(realDir, target.real));
        if (rule.activation === "glob" && tooDeepForGlobs(rel)) globsTooDeep = true;
        if (rule.activation === "glob" && !globMatcher(rule.globs)(rel)) continue;
        if (rule.activation === "manual") continue;
        delivered.add(key);
        keysOf[found.length] = [key];
        found.push({
          path: oneLine(rule.path),
          content: loaded(
            rule.activation === "model" ? modelRulePointer(rule) : rule.content,
            rule.path,
          ),
          kind: "rule",
          name: oneLine(rule.name),
        });
      }
    }
    for (const rule of await glob) {
      if (!(await inTime())) break;
      const key = ruleKey(rule.rule.path);
      if (delivered.has(key)) continue;
      const rel = toPosix(relative(rule.realBase, target.real));
      if (tooDeepForGlobs(rel)) globsTooDeep = true;
      if (!rule.matches(rel)) continue;
      delivered.add(key);
      keysOf[found.length] = [key];
      if (rule.rule.layer === "user") {
        yours.add(found.length);
        ownPaths.add(oneLine(rule.rule.path));
      }
      found.push({
        path: oneLine(rule.rule.path),
        // Yours is escaped against your layers' names, each rewrite said (rev74e F1, fx77c).
        content:
          rule.rule.layer === "user"
            ? ownTextEscaped(rule.rule.content, ownWrappers, (line, tag, rewrite) =>
                diagnostics.push(ownTagEscapedWarning(oneLine(rule.rule.path), line, tag, rewrite)),
              )
            : loaded(rule.rule.content, rule.rule.path),
        kind: "rule",
        name: oneLine(rule.rule.name),
        ...(rule.rule.layer === "user" ? { owner: "user" as const } : {}),
      });
    }
    if (globsTooDeep) {
      diagnostics.push({
        level: "warning",
        code: "touch-glob-too-deep",
        message: `glob rules were not matched against this path: its path from a glob rule's folder has more than ${MAX_GLOB_PATH_SEGMENTS} names, deeper than globs are tested`,
        path: oneLine(toPosix(target.real)),
      });
    }
  }
  if (inTime.late) {
    diagnostics.push({
      level: "warning",
      code: "touch-deadline",
      message: `the ${deadlineMs} ms deadline passed before every folder and glob rule was looked at: what the rest bring is not given now, and may come with a later call`,
    });
  }
  if (tooDeep) {
    diagnostics.push({
      level: "warning",
      code: "touch-too-deep",
      message: `more than ${MAX_TOUCH_FOLDERS} folders to search in one call: the deeper ones were not searched`,
    });
  }
  clearTimeout(timer);
  pushAll(diagnostics, await refusedOnce(refused, reach, delivered));
  // Your files first, then the repository's in the order found: an agent that keeps only the
  // start of a hook's text (Claude Code, Codex) keeps yours, and the total's room goes to them first.
  const order = [...found.keys()].sort((a, b) => Number(yours.has(b)) - Number(yours.has(a)));
  const ordered = order.map((i) => ({
    ...(found[i] as TouchedFile),
    origin: yours.has(i) ? ("user" as const) : ("project" as const),
  }));
  const orderedKeys = order.map((i) => keysOf[i] ?? []);
  // Escaped as loaded: their bytes are the bytes they print. A cut head is escaped again
  // inside the total and measured after: a cut that fell inside `<instructionsX …>` would
  // leave `<instructions` open before the marker and the element's own closing tag.
  // The cut head's check and the measuring of each file against the host's cap held to one
  // budget per call, a small one when the host keeps only a few KB anyway (rev65a F1: a 200 KB
  // head took 0.9 s to check, then was cut to 9,500 bytes; rev66e F4: 110 rules of 9 KB were each
  // checked outside it only to be measured, 2.7 s).
  const { capped, fitted } = withCheckBudget(
    () =>
      withNameBudget(meter, () => {
        const capped = capTotal(ordered, maxTotalBytes, (text, file) =>
          file.origin === "user"
            ? escapeWrapperTags(text, ownWrappers)
            : escapeWrapperTags(text, wrappers, false, undefined, whole(file.path)),
        );
        // Given is what was sent whole: a file the total cut comes with a later call,
        // unless it is larger than the total on its own (no call could give more).
        for (const i of capped.cut) {
          const file = ordered[i];
          if (file === undefined || Buffer.byteLength(file.content) > maxTotalBytes) continue;
          for (const key of orderedKeys[i] ?? []) delivered.delete(key);
        }
        const files = capped.files.map(({ origin: _, ...f }) => f);
        const fitted =
          options.textCap === undefined
            ? { files, diagnostics: [] }
            : fitText(files, orderedKeys, {
                max: options.textCap.max,
                measure: options.textCap.measure ?? UTF8_BYTES,
                cwd,
                delivered,
                wrappers,
                yours: capped.files.map((f) => f.origin === "user"),
                beyond,
              });
        return { capped, fitted };
      }),
    options.textCap === undefined ? CHECK_BUDGET_CHARS : CAPPED_TOUCH_CHECK_CHARS,
  );
  return {
    // Each text well-formed, as the prompt's: a host sends them on as JSON. Each with the names its
    // text was escaped against, which its `path` and `rule` attributes are too (formatTouched: rev70a F5).
    files: fitted.files.map((f) =>
      withTextNames(wellFormedFile(f), ownPaths.has(f.path) ? ownWrappers : wrappers),
    ),
    diagnostics: [...diagnostics, ...capped.diagnostics, ...fitted.diagnostics],
  };
}

/**
 * `files` (in the order given) as many as their text, as `formatTouched`
 * writes it, holds within `c.max` as `c.measure` counts it: an agent that
 * keeps a hook's text only up to a size (Claude Code: 10,000 characters, the
 * rest a 2 KB preview and a file path; Codex: 2,500 tokens; Gemini CLI: a
 * shell result's 40,000 characters, the text appended and escaped) would
 * show the model the start of what follows. A file that does not fit is left
 * out, and not given (its keys leave `delivered`): a later call gives it.
 * One larger than the cap on its own, which no call could give whole, is cut
 * to the room left, with a marker line, and given, when some of its text fits.
 */
function fitText(
  files: readonly TouchedFile[],
  keysOf: readonly string[][],
  c: FitCap & { delivered: Set<string>; yours: readonly boolean[]; beyond: Map<string, number> },
): { files: TouchedFile[]; diagnostics: Diagnostic[] } {
  // A text larger than the cap on its own is never closed and checked whole (rev65a F1: seven of
  // 255 KB took 5-7 s, past the hook's deadline): its element is no smaller (closing only adds),
  // so it is cut to the room first (`cutToRoom`), and only the cut text is closed and checked.
  const size = (f: TouchedFile) => {
    const text = c.measure.size(f.content) + 1;
    return text > c.max ? text : elementSize(f, c);
  };
  const keeps = `the agent keeps ${c.max} ${c.measure.unit} of a hook's text in one call`;
  // The longer lead, whichever number of files is kept.
  let used = Math.max(c.measure.size(touchedLead(1)), c.measure.size(touchedLead(2)));
  const sizes = files.map(size);
  if (used + sizes.reduce((a, b) => a + b, 0) <= c.max)
    return { files: [...files], diagnostics: [] };
  const kept: TouchedFile[] = [];
  const left: string[] = [];
  const diagnostics: Diagnostic[] = [];
  files.forEach((file, i) => {
    const room = c.max - used;
    const whole = sizes[i] as number;
    if (whole <= room) {
      kept.push(file);
      used += whole;
      return;
    }
    // Your glob rule cut is escaped as yours was: your owner mark kept.
    const held = c.yours[i] === true ? { ...c, wrappers: ownTextNames(c.wrappers) } : c;
    const cut =
      whole > c.max - c.measure.size(touchedLead(1))
        ? cutToRoom(file, room, held, c.beyond.get(file.content) ?? 0)
        : undefined;
    if (cut === undefined) {
      for (const key of keysOf[i] ?? []) c.delivered.delete(key);
      left.push(file.path);
      return;
    }
    kept.push(cut);
    used += size(cut);
    diagnostics.push({
      level: "warning",
      code: "touch-text-cut",
      message: `cut to fit the ${c.max} ${c.measure.unit} the agent keeps of a hook's text in one call: it is larger than that on its own`,
      path: file.path,
    });
  });
  if (left.length > 0) {
    diagnostics.push({
      level: "warning",
      code: "touch-text-cut",
      message: `${left.length} file${left.length === 1 ? "" : "s"} left for a later call: ${keeps} (${left.join(", ")})`,
    });
  }
  return { files: kept, diagnostics };
}

/**
 * Most characters the check of a text cut by the total renders in a touch
 * call with a host's text cap (`textCap`): the text is cut again to that cap
 * (a few KB) after, and only that cut is closed and checked ({@link fitText}).
 */
const CAPPED_TOUCH_CHECK_CHARS = 64 * 1024;

/** A cap as {@link fitText} applies it. */
interface FitCap {
  max: number;
  measure: TextMeasure;
  cwd: string;
  wrappers: ReadonlySet<string>;
}

/**
 * The head of a repository's text a touch call reads when the host keeps at
 * most `cap.max` of its text ({@link fitText}): twice that many UTF-16 units
 * (each is at least one unit of either measure, and escaping only adds), so
 * a text longer than that is still larger than the cap on its own, and cut
 * to it from this head, which is escaped and closed again after the cut
 * (`cutToRoom`), so what is sent is judged as itself. Before, each touched
 * file was held whole first: eight nested `AGENTS.md` of 250 KB of distinct
 * tag names took a hook call 4.4 s of CPU, past its 5 s at load, to give
 * 9,500 bytes (review rev82b F3). Without a cap, the whole text.
 */
function headForCap(text: string, cap: TextCap | undefined): string {
  if (cap === undefined) return text;
  let end = 2 * cap.max + 1;
  if (text.length <= end) return text;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}

/** The smallest part of a file's element worth giving: its tags, the marker and a few lines. */
const MIN_CUT_TEXT = 512;

/** `file` cut so its element takes at most `room`, or undefined when less than {@link MIN_CUT_TEXT} of its text would fit. */
function cutToRoom(
  file: TouchedFile,
  room: number,
  c: FitCap,
  beyond = 0,
): TouchedFile | undefined {
  const marker = (omitted: number) =>
    `[… ${omitted + beyond} ${c.measure.unit} more of this file left out: the agent keeps ${c.max} ${c.measure.unit} of a hook's text in one call; read the file for the rest]`;
  const bare =
    c.measure.size(
      touchedElement(
        // The whole file's length, the part not read included (`beyond`), as the marker's widest count.
        { ...file, content: marker((file.content.length + beyond) * 4 - beyond) },
        c.cwd,
        c.measure.shown,
        c.wrappers,
      ),
    ) + 1;
  let keep = room - bare;
  // A closer the cut needs (a fence's, a quote's prefix) or an escape can make the element a little longer: measured again.
  for (let tries = 0; tries < 4 && keep >= MIN_CUT_TEXT; tries++) {
    const content = escapeWrapperTags(cutToSize(file.content, keep, marker, c.measure), c.wrappers);
    const cut = { ...file, content };
    const over = elementSize(cut, c) - room;
    if (over <= 0) return cut;
    keep -= over;
  }
  return undefined;
}

/**
 * `file`'s element as {@link fitText} counts it (and a line break), measured
 * within the call's check budget: past it the element holds the text with
 * every `<` written `&lt;` (the fallback, no check), and room is kept for the
 * closers the host's own check of it may add (rev66e F4: 110 rules of 9 KB
 * were each checked, outside any budget, only to be measured: 2.7 s).
 */
function elementSize(file: TouchedFile, c: FitCap): number {
  const checked = c.measure.shown !== undefined || checkAffordable(file.content);
  const size = c.measure.size(touchedElement(file, c.cwd, c.measure.shown, c.wrappers)) + 1;
  return checked ? size : size + MAX_CLOSER_CHARS;
}

/** `file` with each of its texts well-formed (`wellFormed`). */
function wellFormedFile(file: TouchedFile): TouchedFile {
  const out: TouchedFile = {
    ...file,
    path: wellFormed(file.path),
    content: wellFormed(file.content),
  };
  if (file.name !== undefined) out.name = wellFormed(file.name);
  return out;
}

/** One folder on a touched path: its real and written paths, and whether it is cwd or above it. */
interface ChainStep {
  realDir: string;
  dir: string;
  holdsCwd: boolean;
}

/**
 * The folders from the root down to the folder `parts` name, each path built
 * from its parent's in one walk: a path 1,000 folders deep, joined again from
 * the root at each depth (and tested against cwd with `relative`), cost
 * each hook call its depth squared, some 2 s and 180 MB of strings. A folder
 * holds cwd when cwd's parts (`cwdParts`, undefined when cwd is outside the
 * root) begin with its own.
 */
function folderChain(
  realRoot: string,
  root: string,
  parts: readonly string[],
  cwdParts: readonly string[] | undefined,
): ChainStep[] {
  let realDir = realRoot;
  let dir = root;
  let same = cwdParts !== undefined;
  const chain: ChainStep[] = [{ realDir, dir, holdsCwd: same }];
  parts.forEach((part, i) => {
    realDir = childPath(realDir, part);
    dir = childPath(dir, part);
    same = same && cwdParts?.[i] === part;
    chain.push({ realDir, dir, holdsCwd: same });
  });
  return chain;
}

/** The project a folder on a touched path belongs to: the folder its files are read as, and what git ignores there. */
interface Project {
  folder: ContextFolder;
  /**
   * Inside a repository of its own below the session's root (a clone in a
   * framework's `plugins/`): only the default context names are looked for
   * there ({@link folderContextNames}).
   */
  inOtherRepository: boolean;
  /** Files git ignores (dependencies, builds) and .git/, and untrusted hidden ones: not the project's instructions. */
  ignored: (path: string) => Promise<PrivateVerdict | undefined>;
}

/**
 * The project of each folder on a touched path, as a render finds a
 * folder's project: its nearest folder with `.git` (the home folder's rule
 * of {@link folderReaches} applied), looked for from the folder up to the
 * session root only; a folder with no repository between it and that root
 * is the session's (`session`, its reach) when that root is a repository's
 * own, else its own project (a render started in it finds the same) for its
 * reach and imports only: what is hidden or your excludes name is asked of
 * the session's root first (review rev102c F1). A session started above several
 * repositories (`~/work`, `~`) so reads each one's nested files within that
 * repository, with its own private-path rules when untrusted, never within
 * the session's root. Each folder is asked for `.git` once a call, and each
 * project built once.
 */
function projectsBelow(
  session: Reach,
  home: string,
  trusted: boolean,
  realCwd: string,
  refused: RefusedRootMarker[],
): (chain: readonly ChainStep[], i: number) => Promise<Project> {
  const projects = new Map<string, Project>();
  const projectFor = (
    reach: Reach,
    inOtherRepository: boolean,
    above?: Project["ignored"],
  ): Project => {
    let project = projects.get(reach.realRoot);
    if (project === undefined) {
      // As the session's reach: the deadline is heard between folders (known limit, fx92d).
      const check = privatePaths(reach.realRoot, { hidden: false, home, signal: NO_DEADLINE });
      // Untrusted, a hidden folder's files are the clone's own, as an ignored folder's (rev53a F2).
      const mine = trusted ? check : hiddenBelowCwd(check, reach.realRoot, realCwd);
      project = {
        folder: {
          dir: reach.root,
          origin: "project",
          allowed: [reach.root, reach.realRoot],
          allowedText: `the project root ${toPosix(reach.root)}`,
          reach,
        },
        ignored: above === undefined ? mine : eitherIgnored(above, mine),
        inOtherRepository,
      };
      projects.set(reach.realRoot, project);
    }
    return project;
  };
  const own = projectFor(session, false);
  let reachOfFolder: Promise<(folder: FolderInProject) => Reach> | undefined;
  // By real folder: its nearest repository's top below the session root (a `.git`, or an hg,
  // jj or svn working copy's; undefined: none).
  const gitOf = new Map<string, Promise<ChainStep | undefined>>();
  const nearestGit = (chain: readonly ChainStep[], i: number): Promise<ChainStep | undefined> => {
    const step = chain[i];
    if (i <= 0 || step === undefined) return Promise.resolve(undefined);
    let found = gitOf.get(step.realDir);
    if (found === undefined) {
      found = holdsProjectRoot(step.realDir, refused).then((git) =>
        git ? step : nearestGit(chain, i - 1),
      );
      gitOf.set(step.realDir, found);
    }
    return found;
  };
  // A session root that is a repository's own (not the home folder) holds the folders below it
  // that are no repository's top of their own; any other session root (`~`, `~/work`, `/`) holds none.
  let sessionRepository: Promise<boolean> | undefined;
  return async (chain, i) => {
    const git = await nearestGit(chain, i);
    const step = chain[i];
    if (step === undefined) return own;
    if (git === undefined) {
      sessionRepository ??=
        session.home === undefined
          ? holdsProjectRoot(session.realRoot, refused)
          : Promise.resolve(false);
      if (await sessionRepository) return own;
    }
    reachOfFolder ??= realpathOrSelf(home).then((realHome) =>
      folderReaches({ home, realHome, trusted, signal: NO_DEADLINE }),
    );
    // No repository between the folder and a session root that is none (a zip, a tarball, a
    // crate in ~/.cargo under a session in ~): the folder is its own project, as a render
    // started in it finds it, not the session's whole root; for its reach and imports only.
    // Its hidden names and your excludes are judged from the session's root too, where its own
    // name is a name on the path (`private/`, `.hid/`), as with a `.git` there (review rev102c F1, F2).
    const root = git ?? step;
    const reach = (await reachOfFolder)({
      dir: step.dir,
      real: step.realDir,
      root: root.dir,
      realRoot: root.realDir,
    });
    return (
      projects.get(reach.realRoot) ??
      projectFor(reach, git !== undefined, git === undefined ? own.ignored : undefined)
    );
  };
}

/**
 * The `root-marker-refused` warnings of the markers a call's project search
 * passed over, each folder's once a session (its key in `delivered`): the
 * files below a marker below the session's root are read as that root's
 * when it is a repository's own, else, as below the session's own refused
 * marker, each within its own folder.
 */
async function refusedOnce(
  refused: readonly RefusedRootMarker[],
  session: Reach,
  delivered: Set<string>,
): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const r of refused) {
    const key = `root-marker-refused\0${r.dir}`;
    if (delivered.has(key)) continue;
    delivered.add(key);
    const above =
      r.dir !== session.realRoot &&
      session.home === undefined &&
      (await holdsProjectRoot(session.realRoot))
        ? session.root
        : undefined;
    pushAll(out, rootMarkerRefusedDiagnostics([r], "context", above));
  }
  return out;
}

/**
 * `check` (the project's private paths, hidden names left out), and a hidden
 * name on the path: counted from the working folder down when the path is
 * below it in this project, as the render reads the working folder's files
 * inside a hidden folder (`--cwd .github/actions/deploy`: you stand there,
 * so its `src/AGENTS.md` is given, its `.x/AGENTS.md` not), from the
 * project's top otherwise (rev54b F4).
 */
function hiddenBelowCwd(
  check: Project["ignored"],
  realRoot: string,
  realCwd: string,
): Project["ignored"] {
  const from = isWithin(realCwd, realRoot) ? realCwd : realRoot;
  return async (path) => {
    const verdict = await check(path);
    if (verdict !== undefined || !isWithin(path, realRoot)) return verdict;
    const start = isWithin(path, from) ? from : realRoot;
    const hidden = relative(start, path)
      .split(sep)
      .some((p) => p.startsWith("."));
    if (!hidden) return undefined;
    const rel = relative(realRoot, path).split(sep).join("/");
    return { rel, why: "hidden (a name that starts with a dot)" };
  };
}

/**
 * The session root's verdict (`above`) on a path, then the folder's own
 * project's (`own`): a proven verdict of either refuses; one below ignore
 * rules not read whole (`cut`) stands when neither proves one.
 */
function eitherIgnored(above: Project["ignored"], own: Project["ignored"]): Project["ignored"] {
  return async (path) => {
    const first = await above(path);
    if (first !== undefined && first.cut === undefined) return first;
    return (await own(path)) ?? first;
  };
}

/** Longest delay `setTimeout` keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * True while `until` (on `performance.now()`) is ahead; once past, false for
 * good (`late` says so). Each call first lets the event loop turn when the
 * slice is used up ({@link pace}), so a long match never holds a host's loop.
 */
function timeLeft(until: number): (() => Promise<boolean>) & { late: boolean } {
  const check = async () => {
    if (check.late) return false;
    const turn = pace();
    if (turn) await turn;
    if (performance.now() >= until) check.late = true;
    return !check.late;
  };
  check.late = false;
  return check;
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
const MAX_TOUCH_PATH_LENGTH = PATH_MAX;

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
const KNOWN_NAMES: ReadonlySet<string> = new Set(NESTED_CONTEXT_NAMES);

/**
 * The names a nested folder is searched for, the first regular file winning:
 * the context file names, then Gemini CLI's GEMINI.md, which Gemini CLI loads
 * just in time for a touched folder (docs/cli/gemini-md.md of gemini-cli at
 * 5411f113ca, 2026-08-21), or the names `context.fileName` in cwd's
 * .gemini/settings.json sets instead (that file's problems are the rules step's to report),
 * which hold in cwd's project's folders only ({@link folderContextNames}).
 */
async function nestedNames(cwd: string, reach: Reach): Promise<string[]> {
  const gemini = await geminiContextNames(cwd, reach);
  return [...new Set([...CONTEXT_FILE_NAMES, ...(gemini.names ?? ["GEMINI.md"])])];
}

/**
 * The names a nested folder below `cwd` is searched for, in precedence (see
 * nestedNames): what on-touch delivery looks for, and what the workspace
 * tree names in `dir_context`; and the real top of cwd's project, in whose
 * folders only they hold (`folderContextNames`).
 */
export async function nestedContextNames(
  cwd: string,
  options: { home: string; trusted: boolean; ceilingDir?: string },
): Promise<{ contextNames: string[]; contextNamesProject: string }> {
  const start = resolve(cwd);
  const ceiling = options.ceilingDir === undefined ? undefined : resolve(options.ceilingDir);
  const reach = await projectReach({
    start,
    home: options.home,
    trusted: options.trusted,
    ceiling,
    // The workspace tree's one look-up of names: a gemini settings file read through the door.
    signal: NO_DEADLINE,
  });
  return { contextNames: await nestedNames(start, reach), contextNamesProject: reach.realRoot };
}

/** Real paths of the context files in cwd and its ancestors up to the project root, as the prompt's context step caps them. */
async function heldFiles(
  cwd: string,
  root: string,
  ceiling: string | undefined,
): Promise<Set<string>> {
  const dirs = capChain(
    ancestorsOf(cwd, ceiling).filter((d) => isWithin(d, root)),
    root,
  ).folders;
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
    /** The session's reach: that of the project whose `.gemini/settings.json` set the names. */
    session: Reach;
  },
  limits: Parameters<typeof loadOne>[3],
): Promise<{
  path?: string;
  real?: string;
  file?: { path: string; content: string };
  diagnostics: Diagnostic[];
}> {
  const found = await findContextFile(realDir, folder.names);
  const loads = folder.agentLoads?.names ?? [];
  const own = found.present.filter((n) => loads.includes(n));
  // The agent loads some of the folder's files itself: the first it does not load is given
  // (a GEMINI.md beside the CLAUDE.md Claude Code reads), else nothing.
  const other = own.length > 0 ? found.present.find((n) => !loads.includes(n)) : undefined;
  const chosen = other === undefined ? found.path : join(realDir, other);
  const diagnostics = found.diagnostics
    .filter((d) => other === undefined || d.code !== "context-shadowed" || d.path !== chosen)
    .map(atWritten(realDir, writtenDir));
  if (chosen === undefined) return { diagnostics };
  const path = join(writtenDir, basename(chosen));
  if (own.length > 0) {
    const agent = oneLine(folder.agentLoads?.agent ?? "");
    diagnostics.push({
      level: "info",
      code: "context-agent-loads",
      message:
        other === undefined
          ? `left out: ${agent} loads ${own[0]} in this folder itself`
          : `${agent} loads ${own.join(", ")} in this folder itself; ${other}, which it does not, is given`,
      path: oneLine(toPosix(other === undefined ? path : join(writtenDir, own[0] ?? ""))),
    });
    if (other === undefined) return { path, diagnostics };
  }
  const looked = { path: chosen };
  const dependency = realDir.split(sep).includes("node_modules");
  // A name `.gemini/settings.json` set was written by the repository: checked as an import is.
  const named = !KNOWN_NAMES.has(basename(looked.path));
  // A named one in a hidden folder is refused too, trusted or not, by the render's test (rev101a F2),
  // measured from the settings file's own project top: a folder below a session root that is no
  // repository is its own project, but `.streamlit/` is still hidden there (rev102c F2).
  const real = await realpathOrSelf(looked.path);
  const hidden = named
    ? settingsNamedHidden(looked.path, real, folder.session.realRoot)
    : undefined;
  const verdict = dependency ? undefined : (hidden ?? (await folder.ignored(looked.path)));
  // Below ignore rules not read whole, a context file of a known name is not proven ignored, and
  // is the door's to judge; one the repository named is refused, as git might ignore it.
  if (dependency || (verdict && (verdict.cut === undefined || named))) {
    const why = verdict ? `${oneLine(verdict.rel)} is ${verdict.why}` : "it is inside node_modules";
    diagnostics.push({
      level: "info",
      code: "context-ignored",
      message: `not loaded: ${why}, so it is not written for this project's agent`,
      path: oneLine(toPosix(path)),
    });
    return { path, diagnostics };
  }
  if (folder.given(real)) return { path, diagnostics };
  // Asked at its path under the root as written: only a link on the way makes it "led" there.
  const reach = folder.reach;
  const asFound = reach ? join(reach.root, relative(reach.realRoot, looked.path)) : looked.path;
  const refusal = reach
    ? ((await reachRefusal(asFound, real, reach, named)) ??
      (await sessionRefusal(looked.path, real, named, folder)))
    : undefined;
  if (refusal) {
    const said = refusalDiagnostic(toPosix(path), refusal, "context");
    diagnostics.push({
      ...said,
      path: oneLine(toPosix(said.path ?? path)),
      message: oneLine(said.message),
    });
    return { path, diagnostics };
  }
  const one = await loadOne(path, real, { ...folder, dir: writtenDir }, limits);
  pushAll(diagnostics, one.diagnostics);
  return one.file
    ? { path, real, file: { path: one.file.path, content: one.file.content }, diagnostics }
    : { path, real, diagnostics };
}

/**
 * A file a name of the session's settings found in a folder that is its own
 * project (below a session root that is no repository): checked against the
 * settings' project too, as an import of it from there is, so one inside the
 * home folder that project holds (an image's `/.gemini/settings.json` naming
 * `id_rsa`, HOME=/root) is refused there as with a `.git` at its top
 * (decided, review rev102c F3).
 */
async function sessionRefusal(
  path: string,
  real: string,
  named: boolean,
  folder: { reach?: Reach; session: Reach },
): Promise<Refusal | undefined> {
  const { session } = folder;
  if (!named || folder.reach?.realRoot === session.realRoot) return undefined;
  const asFound = join(session.root, relative(session.realRoot, path));
  return reachRefusal(asFound, real, session, true);
}

/** A diagnostic about a file under `realDir`, shown at its written path (one line). */
function atWritten(realDir: string, writtenDir: string): (d: Diagnostic) => Diagnostic {
  return (d) =>
    d.path === undefined
      ? d
      : { ...d, path: oneLine(toPosix(join(writtenDir, relative(realDir, d.path)))) };
}

/**
 * The glob rules with their folder's real path (each folder resolved once)
 * and a matcher, compiled at its first use: compiling 1,000 rules of 64
 * globs is seconds of synchronous work, which the matching loop paces and
 * bounds by the deadline as it does the matching.
 */
async function globRules(
  rules: readonly Rule[],
  where: RuleWhere,
): Promise<{ rule: Rule; realBase: string; matches: (rel: string) => boolean }[]> {
  const folders = await globRuleFolders(rules, where);
  return folders.map((f) => {
    let compiled: ((rel: string) => boolean) | undefined;
    return {
      ...f,
      matches: (rel: string) => {
        compiled ??= globMatcher(f.rule.globs);
        return compiled(rel);
      },
    };
  });
}

type RuleWhere = {
  cwd: string;
  root: string;
  ceiling: string | undefined;
  projectDir: string | undefined;
};

/**
 * The glob rules `loadContextForPaths` matches (those with globs), each
 * with the real path of the folder its globs are relative to; `where.root`
 * is the project's reach's root.
 */
export async function globRuleFolders<
  R extends Pick<Rule, "activation" | "globs" | "path" | "source" | "layer">,
>(rules: readonly R[], where: RuleWhere): Promise<{ rule: R; realBase: string }[]> {
  const glob = rules.filter((r) => r.activation === "glob" && r.globs.length > 0);
  const bases = new Map<string, Promise<string>>();
  const realBase = (base: string) => {
    let real = bases.get(base);
    if (real === undefined) {
      real = realpathOrSelf(base);
      bases.set(base, real);
    }
    return real;
  };
  return Promise.all(
    glob.map(async (rule) => ({ rule, realBase: await realBase(ruleBase(rule, where)) })),
  );
}

/** What a model rule below cwd brings on touch: when it applies, and where to read it (as the prompt lists one). */
function modelRulePointer(rule: Rule): string {
  return `When this applies, read the rule ${oneLine(rule.path)} first: ${oneLine(rule.description ?? "")}`;
}
