import { lstat, utimes } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { homeFolder, isWithin } from "../../_paths.js";
import { missingImportIn } from "../../gather/context/imports.js";
import { CONTEXT_FILE_NAMES } from "../../gather/context-names.js";
import { DEFAULT_DEADLINE_MS } from "../../gather/deadline.js";
import { type Machine, type ProbeResult, realMachine } from "../../gather/environment/index.js";
import { RULE_ENTRY_NAMES } from "../../gather/rules/index.js";
import { resolveCommonPaths } from "../../locate/layers.js";
import { isText } from "../../locate/text-or-path.js";
import { normalizeOptions } from "../../options/normalize.js";
import type { SystemPromptOptions } from "../../options.js";
import { preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import { findProjectRoot, privatePaths, projectReach } from "../../repo-files/index.js";
import { createPromptSession } from "../../session/index.js";
import { type BoundedCounter, boundedCounter, TOKEN_ENCODING } from "../../tokens.js";
import type { Diagnostic, RenderResult } from "../../types.js";
import {
  defaultSandboxParent,
  type KeptRules,
  MAX_COPY_DEPTH,
  MAX_COPY_MS,
  MAX_READ_BELOW,
  makeSandbox,
  markGit,
  NOT_COPIED,
  removeSandbox,
  type Sandbox,
  type TooDeep,
  writeKeptRules,
} from "../sandbox.js";
import {
  type Baseline,
  type CacheClass,
  type ClassShare,
  measureBaseline,
  type Rendition,
  type Survival,
  survival,
} from "./_prefix.js";
import {
  ACTION_LABELS,
  act,
  actionTime,
  baselineTools,
  pickSourceFile,
  SIMULATED_ACTIONS,
  type SimulatedAction,
} from "./_simulate-actions.js";

export type { Break, CacheClass, ClassShare, Survival } from "./_prefix.js";
export { SIMULATED_ACTIONS, type SimulatedAction } from "./_simulate-actions.js";

/** Where a simulation is made and how. */
export interface SimulateSettings {
  /** Folder the copy is made in. Default: `$XDG_CACHE_HOME/sysprompt/simulate` (else `~/.cache/…`). */
  sandboxDir?: string;
  /**
   * Also re-render each action in a prompt session that keeps its session
   * sections (`createPromptSession` with `keepSessionSections`, as the pi
   * extension runs it). Default: true.
   */
  session?: boolean;
  /**
   * How long the simulated renders may take together, from the first render
   * on, in ms, read before each render: the action of a render not started
   * by then, and each after it, is left out, with a `simulate-cut` warning
   * (rev91b F2: read before each action, its three renders ran past it).
   * Each render also keeps its own deadline.
   * Default: 20,000.
   */
  maxRenderMs?: number;
}

/** The simulated renders' time together (the copy has its own, MAX_COPY_MS). */
export const MAX_SIMULATE_RENDER_MS = 20_000;

/** One agent action and what it did to the prompt's cached prefix. */
export interface SimulatedRow {
  action: SimulatedAction;
  label: string;
  /** What was changed: a path relative to cwd, a tool, a date. */
  detail: string;
  /** A fresh `renderSystemPrompt` after the action, against the baseline. */
  fresh: Survival;
  /** A prompt session's render after the action, against its render before it; absent when not asked for. */
  session?: Survival;
}

export interface SimulationReport {
  tokenizer: { encoding: string; estimate: true };
  /** The project root that was copied, and cwd below it: the real paths, not the copy's. */
  project: { root: string; cwd: string };
  /** The render before any action: its size, and each section's class. */
  baseline: {
    bytes: number;
    tokens: number;
    sections: { name: string; cache: CacheClass; bytes: number; tokens: number }[];
    byClass: Record<CacheClass, { bytes: number; tokens: number }>;
  };
  /** Empty when the project could not be copied (the diagnostics say why). */
  actions: SimulatedRow[];
  /** Entries of the project the copy left out: links, FIFOs, sockets, devices. */
  skipped: { path: string; reason: string }[];
  /**
   * Folders the copy left out because git ignores them (build output,
   * caches), in the order met: they count nothing toward the copy's cap of
   * entries. A folder a render reads anyway (`.pi`, other agents' rule
   * folders, skills folders, cwd and the folders holding it) is copied.
   */
  ignored: string[];
  /**
   * Regular files git ignores that the copy left out, in the order met:
   * such files count toward caps of their own (10,000 files, 64 MiB), not
   * the project's, and one past them (a dev database, a model) is left out.
   * A file a render reads anyway (a context file, another agent's rule file
   * such as `.cursorrules`, an ignore file) counts as the project's.
   */
  ignoredFiles: string[];
  /** The baseline's diagnostics, then the simulation's own (`simulate-*` codes). */
  diagnostics: Diagnostic[];
}

/**
 * Re-renders the project under typical agent actions — a source file
 * edited, a file added, a folder added, the next day, a tool added, an
 * AGENTS.md edited — and says for each how much of the prompt's prefix, in
 * bytes and tokens and per cache class, a provider's cache still holds, and
 * which section broke it. Everything happens in a temporary copy of the
 * project root (only regular files and folders, times kept, `.git` and
 * `node_modules` left out), rendered with nothing above the copy looked at;
 * the project itself is never written. The clock and the machine are taken
 * once so that only the action differs between the renders.
 *
 * @throws SyspromptError for a bad explicit option, as `renderSystemPrompt` does.
 */
export async function simulatePrompt(
  options: SystemPromptOptions = {},
  settings: SimulateSettings = {},
): Promise<SimulationReport> {
  // A bad explicit option is the caller's error before anything is copied, as in a render.
  const opts = await normalizeOptions(options);
  // The working folder by its real path, as the render takes it: its project is copied.
  const { cwd } = opts;
  const { home } = resolveCommonPaths(options);
  const root = await findProjectRoot(cwd, opts.ceilingDir ?? undefined);
  const parent =
    settings.sandboxDir ??
    join(
      dirname(defaultSandboxParent(options.env ?? process.env, home ?? homeFolder())),
      "simulate",
    );
  // A link is copied as its target only where the door would read it: in the
  // copy it is a plain file, past every check by link.
  // The reach of the folder copied (a root that is the home folder keeps its hidden entries out).
  // The copy's deadline, heard by the reach's private-path checks too (rev89h F3: they had none).
  const copySignal = AbortSignal.timeout(MAX_COPY_MS);
  const reach = await projectReach({
    start: root,
    home: home ?? homeFolder(),
    trusted: opts.trusted,
    root,
    signal: copySignal,
  });
  const maxDepth = copyDepth(root, [cwd, ...opts.roots]);
  const { sandbox, problems, kept, deep, ...left } = await makeSandbox(root, parent, new Set(), {
    purpose: "a copy of the project for the simulation",
    skipSpecial: true,
    reach,
    // The copy has no .git: the project's exclude files and its clones' boundaries go with it,
    // and your global excludes (the tree hides what they name, trusted or not).
    privateRules: {
      mode: "keep",
      check:
        reach.isPrivate ??
        privatePaths(reach.realRoot, { home: home ?? homeFolder(), signal: copySignal }),
    },
    keepTimes: true,
    signal: copySignal,
    timeMs: MAX_COPY_MS,
    maxDepth,
    // Build output and caches are no part of the prompt (the tree and the
    // context files pass over them) and may be most of the project.
    skipIgnored: {
      keep: [cwd, ...opts.roots],
      // The skills walk reads below a skill path by its own ignore rules.
      whole: (options.skillPaths ?? []).map((p) => resolve(cwd, p)),
      keepNames: readAnyway(opts.projectDirName),
    },
  });
  const project = { root, cwd };
  // What the copy left out (skipped, ignored, ignoredFiles), for the report.
  const found = { project, ...left };
  const deepNote = deep === undefined ? [] : [tooDeepNote(deep, maxDepth)];
  if (!sandbox) {
    return {
      ...notSimulated(found),
      diagnostics: [
        ...problems.map((p) => ({
          level: "error" as const,
          code: "simulate-copy",
          message: `not simulated: the project is copied first, and this entry stops the copy: ${p.reason}`,
          path: p.path,
        })),
        ...deepNote,
      ],
    };
  }
  try {
    const report = await simulateIn(sandbox, options, settings, found, kept);
    return { ...report, diagnostics: [...report.diagnostics, ...deepNote] };
  } finally {
    await removeSandbox(sandbox);
  }
}

/**
 * How deep the copy of `root` goes: {@link MAX_COPY_DEPTH}, or, below a
 * folder the render starts from (cwd, a workspace root) that lies deeper,
 * as far below it as the readers look ({@link MAX_READ_BELOW}).
 */
function copyDepth(root: string, starts: readonly string[]): number {
  let depth = MAX_COPY_DEPTH;
  for (const start of starts) {
    const rel = relative(root, start);
    if (rel === "" || !isWithin(start, root)) continue;
    depth = Math.max(depth, rel.split(sep).length + MAX_READ_BELOW);
  }
  return depth;
}

/** The one note of the folders the copy left out for their depth. */
function tooDeepNote(deep: TooDeep, maxDepth: number): Diagnostic {
  const more = deep.count > 1 ? ` (and ${deep.count - 1} more such folders)` : "";
  return {
    level: "info",
    code: "simulate-copy",
    message: `the copy leaves out the folders deeper than ${maxDepth} below the project root${more}: the context files, rules and tree of a render read none that deep, and a skill or an @import there is left out of the simulated renders`,
    path: deep.path,
  };
}

async function simulateIn(
  sandbox: Sandbox,
  options: SystemPromptOptions,
  settings: SimulateSettings,
  found: Pick<SimulationReport, "project" | "skipped" | "ignored" | "ignoredFiles">,
  kept: KeptRules,
): Promise<SimulationReport> {
  const { root, cwd } = found.project;
  // The project root's own .git marks it as one in the copy too (skills and the tree look for it;
  // the tree reads the exclude file of a repository git takes, so one git takes where the real one is),
  // and the real project's private paths go into the copy's exclude files (see makeSandbox).
  // Both are made after the copy: the folder gets its time back.
  const copied = await lstat(sandbox.copy);
  if (await lstat(join(root, ".git")).catch(() => undefined)) await markGit(root, sandbox.copy);
  await writeKeptRules(sandbox.copy, kept);
  await utimes(sandbox.copy, copied.atime, copied.mtime);
  const copyCwd = join(sandbox.copy, relative(root, cwd));
  if (!(await lstat(copyCwd).catch(() => undefined))?.isDirectory()) {
    return {
      ...notSimulated(found),
      diagnostics: [
        {
          level: "error",
          code: "simulate-copy",
          message: `not simulated: the working folder is inside a folder the copy leaves out (${[...NOT_COPIED].join(", ")}); run it from the project's own folders`,
          path: cwd,
        },
      ],
    };
  }
  const now = options.now === undefined ? new Date() : new Date(options.now);
  const base: SystemPromptOptions = {
    ...options,
    // Named paths are read from the working folder as given (normalizeOptions' rule).
    ...(await pathsFromCwd(options, resolveCommonPaths(options).cwd)),
    cwd: copyCwd,
    now,
    machine: probedOnce(options.machine ?? realMachine()),
    ceilingDir: sandbox.root,
    // The copy has no history (.git is not copied; its marker is an empty folder, or a repository
    // of no commits where the real one is git's): git would find nothing to tell there, or, before
    // git had the ceiling, the one holding the cache folder (a dotfiles home). Left out of every
    // render, and said so below.
    ...(options.git === true ? { git: false } : {}),
  };
  // Each render's figures are counted exactly until that render's deadline, then estimated. A
  // counter is dropped once its render is measured: its memo holds pieces of that render's text,
  // and a kept counter kept each render's whole prompt (8 MB, 19 renders: over 1 GB).
  let deadlineMs = DEFAULT_DEADLINE_MS;
  const clock = () => performance.now();
  let estimated = false;
  const measure = <T>(started: number, use: (count: BoundedCounter) => T): T => {
    const counter = boundedCounter({ deadline: { at: started + deadlineMs, clock } });
    try {
      return use(counter);
    } finally {
      estimated ||= counter.estimated;
    }
  };
  const classes = new Map<string, CacheClass>();
  const late = new Set<string>();
  // The prompt shows cwd (and the tree its root): measured with the project's
  // path, not the copy's random one, the figures are the project's own and the
  // same from run to run. Diagnostics and sources name the project's files too.
  // Only what is measured is kept of a render (its text and its sections' texts, until measured),
  // not its blocks or its sources: a render of 8 MiB of sections is some 50 MB of strings.
  const swap = (text: string) => text.replaceAll(sandbox.copy, root);
  const asProject = (result: RenderResult, noteLate = true): Rendition => {
    if (noteLate) {
      for (const step of result.steps) {
        if (step.status === "timeout" || step.status === "failed") late.add(step.name);
      }
    }
    return {
      text: swap(result.text),
      sections: result.sections.map((s) => ({ name: s.name, text: swap(s.text) })),
    };
  };
  /** A fresh render; its diagnostics, naming the project's files, go to `into` when given. */
  const render = async (
    overrides: SystemPromptOptions = {},
    into?: Diagnostic[],
  ): Promise<Rendition> => {
    const prepared = await preparePrompt({ ...base, ...overrides });
    deadlineMs = prepared.opts?.deadlineMs ?? deadlineMs;
    const result = renderPrepared(prepared);
    // The classes the render itself cut its blocks by: one reading of them, the render's.
    for (const block of result.blocks) {
      for (const name of block.sections) if (!classes.has(name)) classes.set(name, block.cache);
    }
    for (const d of into ? result.diagnostics : []) {
      const message = swap(d.message);
      into?.push({
        ...d,
        ...leftOutByCopy(d.code, message, found.skipped),
        ...(d.path === undefined ? {} : { path: swap(d.path) }),
      });
    }
    return asProject(result);
  };
  const classOf = (name: string) => classes.get(name) ?? "stable";
  const firstStarted = clock();
  const diagnostics: Diagnostic[] = [];
  const baseline = await (async () => {
    const first = await render({}, diagnostics);
    return measure(firstStarted, (count) => measureBaseline(first, classOf, count));
  })();

  const ctx = {
    cwd: copyCwd,
    root: sandbox.copy,
    now,
    stamp: await actionTime(sandbox.copy, now),
    tools: baselineTools(options.tools),
    source: await pickSourceFile(copyCwd),
  };
  const rows: SimulatedRow[] = [];
  const renderBudget = settings.maxRenderMs ?? MAX_SIMULATE_RENDER_MS;
  // Up to 19 renders, each bounded by its own deadline: together they stop at one budget, read
  // before each render, so that they run past it by one render at most (an action is three: rev91b
  // F2). The action a render is refused in is not simulated: no row of half its renders.
  const spent = () => clock() - firstStarted >= renderBudget;
  let cutAt: number | undefined;
  for (const [index, action] of SIMULATED_ACTIONS.entries()) {
    if (spent()) {
      cutAt = index;
      break;
    }
    const session =
      settings.session === false
        ? undefined
        : createPromptSession(base, { keepSessionSections: true });
    try {
      const before = session ? asProject((await session.render()).result, false) : undefined;
      if (session && spent()) {
        cutAt = index;
        break;
      }
      const done = await act(action, ctx);
      try {
        const freshStarted = clock();
        // Measured as soon as rendered: the render's strings go with the function's scope.
        const fresh = await (async () => {
          const next = await render(done.overrides);
          return measure(freshStarted, (count) => survival(baseline, next, classOf, count));
        })();
        const row: SimulatedRow = {
          action,
          label: ACTION_LABELS[action],
          detail: done.detail,
          fresh,
        };
        if (session && before) {
          if (spent()) {
            cutAt = index;
            break;
          }
          const afterStarted = clock();
          const after = asProject((await session.render(done.overrides)).result);
          // One counter for both: the sections they share are counted once.
          row.session = measure(afterStarted, (count) =>
            survival(measureBaseline(before, classOf, count), after, classOf, count),
          );
        }
        rows.push(row);
      } finally {
        await done.undo();
      }
    } finally {
      session?.close();
    }
  }
  if (cutAt !== undefined) {
    const left = SIMULATED_ACTIONS.slice(cutAt);
    diagnostics.push({
      level: "warning",
      code: "simulate-cut",
      message: `the simulated renders took more than ${renderBudget / 1000} s together, so ${left.length} of ${SIMULATED_ACTIONS.length} actions were not simulated: ${left.join(", ")}`,
    });
  }
  if (estimated) {
    diagnostics.push({
      level: "warning",
      code: "tokens-estimated",
      message:
        "counting a simulated prompt's tokens reached its render's deadline: what was not counted by then is estimated from its length, so the token figures are approximate; a longer --deadline counts them exactly",
    });
  }
  if (options.git === true) {
    diagnostics.push({
      level: "info",
      code: "simulate-git",
      message:
        "the git section is left out of every simulated render: the copy has no git history (.git is not copied), so the figures are the prompt's without it",
    });
  }
  for (const step of late) {
    diagnostics.push({
      level: "warning",
      code: "simulate-late",
      message: `the ${step} step was late or failed in a simulated render: a change the table shows may be that, not the action`,
    });
  }
  return {
    tokenizer: { encoding: TOKEN_ENCODING, estimate: true },
    project: found.project,
    baseline: {
      bytes: baseline.bytes.length,
      tokens: baseline.tokens,
      sections: baseline.parts.map((p) => ({
        name: p.name,
        cache: p.cache,
        bytes: p.bytes,
        tokens: p.tokens,
      })),
      byClass: sumByClass(baseline),
    },
    actions: rows,
    skipped: found.skipped,
    ignored: found.ignored,
    ignoredFiles: found.ignoredFiles,
    diagnostics,
  };
}

/**
 * A simulated render's diagnostic in the copy's words where the copy is why:
 * an import of a file the copy left out (a hard link, a link out of the
 * project) names no file in the copy, and is said to be left out for the
 * reason the copy recorded (`skipped`), the one the report lists, not "no
 * file at" (decided, review rev104a F3). Any other is as the render gave it.
 */
function leftOutByCopy(
  code: string,
  message: string,
  skipped: readonly { path: string; reason: string }[],
): Pick<Diagnostic, "message" | "code"> {
  if (code !== "import-missing") return { code, message };
  for (const left of skipped) {
    const missing = missingImportIn(message, left.path);
    if (missing === undefined) continue;
    const below = missing.target === left.path ? "" : `, which holds ${missing.target}`;
    return {
      code: "simulate-copy",
      message: `${missing.written}: not in the simulation's copy: it left out ${left.path}${below} (${left.reason}); left as written`,
    };
  }
  return { code, message };
}

/**
 * `systemPrompt` and `appendSystemPrompt` values that name files relative to
 * cwd, made absolute: the renders run in the copy's cwd, where `../notes.md`
 * would name nothing. A value that is text, or names no file, is left as it is.
 */
async function pathsFromCwd(
  options: SystemPromptOptions,
  cwd: string,
): Promise<Pick<SystemPromptOptions, "systemPrompt" | "appendSystemPrompt">> {
  const fix = async (value: string) => {
    // Prose is text wherever it is read (readTextOrPath): it names no file of the project.
    if (isAbsolute(value) || value.startsWith("~") || isText(value)) {
      return value;
    }
    // A path: normalizeOptions read it where it is named already, through the door for one into
    // the project (a link out of it refused), which its absolute path in the copy's render skips.
    const path = resolve(cwd, value);
    return (await lstat(path).catch(() => undefined)) ? path : value;
  };
  const out: Pick<SystemPromptOptions, "systemPrompt" | "appendSystemPrompt"> = {};
  if (options.systemPrompt !== undefined) {
    out.systemPrompt = await fix(options.systemPrompt);
  }
  const append = options.appendSystemPrompt;
  if (append !== undefined) {
    out.appendSystemPrompt =
      typeof append === "string" ? await fix(append) : await Promise.all(append.map(fix));
  }
  return out;
}

/**
 * Names a render reads wherever git ignores them: the project layer, the
 * folders and files other agents' rule files start from, the skills folders,
 * the context files.
 */
function readAnyway(projectDirName: string): ReadonlySet<string> {
  return new Set([
    projectDirName,
    ...RULE_ENTRY_NAMES,
    ".agents",
    ".claude",
    ...CONTEXT_FILE_NAMES,
  ]);
}

/** The report of a simulation that did not happen; its diagnostics say why. */
function notSimulated(
  found: Pick<SimulationReport, "project" | "skipped" | "ignored" | "ignoredFiles">,
): SimulationReport {
  return {
    tokenizer: { encoding: TOKEN_ENCODING, estimate: true },
    ...found,
    baseline: { bytes: 0, tokens: 0, sections: [], byClass: emptyByClass() },
    actions: [],
    diagnostics: [],
  };
}

function emptyByClass(): Record<CacheClass, { bytes: number; tokens: number }> {
  return {
    stable: { bytes: 0, tokens: 0 },
    session: { bytes: 0, tokens: 0 },
    volatile: { bytes: 0, tokens: 0 },
  };
}

function sumByClass(baseline: Baseline): Record<CacheClass, { bytes: number; tokens: number }> {
  const sums = emptyByClass();
  for (const part of baseline.parts) {
    sums[part.cache].bytes += part.bytes;
    sums[part.cache].tokens += part.tokens;
  }
  return sums;
}

/** A class's share kept, for tables: `kept/total`. */
export function keptOf(share: ClassShare): string {
  return `${share.keptTokens}/${share.tokens}`;
}

/**
 * `machine`, its probes run once for the whole simulation: every render takes the first answer
 * of a command (the GPU probe's `lspci`). The renders run in the copy under sysprompt's cache
 * folder, where the environment cache is not used (the copy and `env.json` share that folder),
 * and each render ran the probe again: 7 to 16 runs, and a slow probe (5 s, cut at 3) took 22 s
 * and cut 3 of 6 actions (rev60d F4). The machine is taken once, as the clock is; an answer cut
 * because its render stopped waiting is not kept.
 */
function probedOnce(machine: Machine): Machine {
  const runner = machine.runProbe;
  if (runner === undefined) return machine;
  const answers = new Map<string, Promise<ProbeResult>>();
  return {
    ...machine,
    runProbe: (command, args, o) => {
      const key = JSON.stringify([command, args]);
      const known = answers.get(key);
      if (known !== undefined) return known;
      const answer = runner(command, args, o);
      answers.set(key, answer);
      // A render that stopped waiting killed it: the next render asks again.
      const forget = () => answers.delete(key);
      answer.then(() => o.signal?.aborted && forget(), forget);
      return answer;
    },
  };
}
