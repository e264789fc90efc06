import { join } from "node:path";
import { withElementNames, wrapperNames } from "../_prompt-text.js";
import {
  type ContextForOptions,
  loadContextForPathsSince,
  loadOwnContextFile,
  type TouchedContext,
} from "../gather/context/index.js";
import { CONTEXT_FILE_NAMES } from "../gather/context-names.js";
import { MAX_TIMER_MS } from "../gather/deadline.js";
import {
  type LoadedRules,
  type Rule,
  type RuleAccount,
  traceRules,
} from "../gather/rules/index.js";
import { codeSections, elementTexts, ownPrintedTexts } from "../locate/element-texts.js";
import { loadLayer } from "../locate/load-layer.js";
import { projectElementNames } from "../locate/project-names.js";
import { normalizeOptions } from "../options/normalize.js";
import type { NormalizedOptions, SystemPromptOptions } from "../options.js";
import { ownFilesOf } from "../repo-files/own-reach.js";
import { readRepoCapped } from "../repo-files/read.js";
import type { SectionTemplate } from "../sections/types.js";
import type { Diagnostic } from "../types.js";
import type { StepMemo } from "./_memo.js";

/** What a session keeps for {@link sessionContextFor}. */
export interface TouchState {
  /** What the session has given (and refused), by key: each file once. */
  delivered: Set<string>;
  /** The last render's overrides: contextFor uses the options that render used. */
  overrides: Omit<SystemPromptOptions, "cwd">;
  /** The last render's section templates, whose element names the text may not use. */
  wrappers: readonly Pick<SectionTemplate, "name" | "meta" | "body">[] | undefined;
  /**
   * The last render's element names, its partials' and your own texts' with
   * its templates' (the render's `wrapperNames`); absent: those of
   * {@link wrappers}.
   */
  wrapperNames?: ReadonlySet<string>;
}

/**
 * `session.contextFor`: the options the last render used, the glob rules
 * that render's rule step found (the step is run here, with the same inputs,
 * before any render or when it was late), and the session's set of what was
 * given.
 */
export async function sessionContextFor(
  paths: readonly string[],
  options: SystemPromptOptions,
  memos: ReadonlyMap<string, StepMemo>,
  touch: TouchState,
  asked: TouchAsked = {},
): Promise<TouchedContext> {
  // The session's deadline bounds a call as it bounds a render: one deadline
  // for both phases, so the paths' pass gets what tracing the rules left.
  const started = performance.now();
  const { loading, diagnostics } = await touchOptions(options, memos, touch, asked);
  const deadline = options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs };
  const touched = await loadContextForPathsSince(paths, { ...loading, ...deadline }, started);
  return { ...touched, diagnostics: [...diagnostics, ...touched.diagnostics] };
}

/**
 * The codes of a rule file found and not read, or read with globs that match nothing (rev79h
 * F4): said by a touch that traced the rules itself.
 */
const REFUSALS = new Set([
  "rule-refused",
  "rule-unreadable",
  "rule-over-cap",
  "name-not-utf8",
  "rule-glob-refused",
  "frontmatter-too-large",
]);

/** What a caller of {@link sessionContextFor} may set beside the session's options. */
export interface TouchAsked {
  contextFiles?: boolean;
  agentLoads?: { agent: string; names: readonly string[] };
  /**
   * The variables of `options.vars` a project's sysprompt.yaml gave (a hook
   * applies the config files itself): their values give no element names.
   */
  repositoryVars?: readonly string[];
  /**
   * Element names an export of the prompt escaped against, besides the ones
   * read from the layers (a hook: `recordExportNames`, the names its flags gave).
   */
  exportNames?: readonly string[];
}

/**
 * The options {@link sessionContextFor} loads with: its rules traced (within
 * half the options' deadline: past it, only the user's own, and a `touch-deadline` warning), its
 * wrappers named.
 */
export async function touchOptions(
  options: SystemPromptOptions,
  memos: ReadonlyMap<string, StepMemo>,
  touch: TouchState,
  asked: TouchAsked = {},
): Promise<{ loading: ContextForOptions; diagnostics: Diagnostic[] }> {
  const opts = await normalizeOptions(options);
  const ceiling = opts.ceilingDir !== null ? { ceilingDir: opts.ceilingDir } : {};
  let rules: LoadedRules["rules"] = [];
  const diagnostics: Diagnostic[] = [];
  if (opts.ruleSources.length > 0) {
    const kept = memos.get("rule-files")?.gathered.value as LoadedRules | undefined;
    if (kept !== undefined) rules = kept.rules;
    else {
      // Traced here, before any render, it is bounded as the render's step is,
      // to half the deadline: the touched paths' pass gets the rest, so a
      // repository whose rules folders take the whole of it still leaves time
      // to give the user's own glob rules, read before the project's.
      const soFar: { rules: Rule[]; accounts: RuleAccount[] } = { rules: [], accounts: [] };
      const traced = await withDeadline(Math.ceil(opts.deadlineMs / 2), (signal) =>
        traceRules({
          soFar,
          cwd: opts.cwd,
          agentDir: opts.agentDir,
          home: opts.home,
          projectDir: opts.projectDirName,
          projectTrusted: opts.trusted,
          sources: opts.ruleSources,
          maxBytes: opts.maxContextBytes,
          ...ceiling,
          ...(signal ? { signal } : {}),
        }),
      );
      if (traced !== undefined) {
        rules = traced.rules;
        // A rule file refused (another user's in a world-writable folder) is said, as a render says it (rev79h F5).
        for (const d of traced.diagnostics) if (REFUSALS.has(d.code)) diagnostics.push(d);
      } else {
        rules = [...soFar.rules];
        diagnostics.push({
          level: "warning",
          code: "touch-deadline",
          message: `the ${opts.deadlineMs} ms deadline passed before the rule files were found: ${rules.length > 0 ? "only your own rules are" : "no glob rule is"} given now`,
        });
      }
    }
  }
  // No render gave the names (a hook, a session's first contextFor): read from the layers as a render reads them.
  const read =
    touch.wrapperNames ??
    (touch.wrappers
      ? wrapperNames(touch.wrappers)
      : await layerElementNames(
          opts,
          options,
          ownPrintedTexts(rules, options.vars, asked.repositoryVars ?? []),
        ));
  const names =
    asked.exportNames === undefined || asked.exportNames.length === 0
      ? read
      : new Set([...read, ...asked.exportNames]);
  const loading: ContextForOptions = {
    cwd: opts.cwd,
    home: opts.home,
    maxBytes: opts.maxContextBytes,
    projectTrusted: opts.trusted,
    ...ceiling,
    rules,
    ruleSources: opts.ruleSources,
    projectDir: opts.projectDirName,
    contextFiles: asked.contextFiles ?? options.noContextFiles !== true,
    wrappers: names,
    delivered: touch.delivered,
    ...(asked.agentLoads ? { agentLoads: asked.agentLoads } : {}),
  };
  return { loading, diagnostics };
}

/**
 * The element names a render with these options escapes a repository's text
 * against, read without rendering: every layer's section tags and templates
 * and partials (the project's when it is trusted, read within a quarter of
 * the deadline: past it, yours and the builtins'), your own SYSTEM.md,
 * APPEND_SYSTEM.md and option prompts, the sections given from code
 * ({@link codeSections}), the agent dir's context file with its imports,
 * your general-rules.md, your always and glob rules and own `vars` values
 * (`printed`), and the `vars` a
 * `{{#xml}}` named from the data may take. Before, a hook's
 * touch (and a session's before its first render) escaped the builtin
 * sections' names only, so a repository's nested AGENTS.md wrote your
 * `</team_policy>` or your partial's `</file>` raw.
 */
async function layerElementNames(
  opts: NormalizedOptions,
  options: SystemPromptOptions,
  printed: readonly string[],
): Promise<Set<string>> {
  const { vars } = options;
  const files = { customFiles: true, resolved: opts.resolvedFiles };
  const confine = { start: opts.cwd, home: opts.home, ceiling: opts.ceilingDir ?? undefined };
  const quarter = Math.ceil(opts.deadlineMs / 4);
  const [builtin, user, project, ownRead] = await Promise.all([
    loadLayer(opts.builtinDir, "builtin", { customFiles: false }),
    loadLayer(opts.agentDir, "user", {
      ...files,
      own: { home: opts.home, trusted: opts.trusted, cwd: opts.cwd },
    }),
    opts.trusted
      ? withDeadline(quarter, (signal) =>
          loadLayer(opts.projectDir, "project", { ...files, confine, signal }),
        )
      : undefined,
    // Your AGENTS.md as a render reads it, its imports expanded.
    withDeadline(quarter, (signal) =>
      loadOwnContextFile(opts.agentDir, {
        home: opts.home,
        maxBytes: opts.maxContextBytes,
        trusted: opts.trusted,
        cwd: opts.cwd,
        ...(signal ? { signal } : {}),
      }),
    ),
  ]);
  const layers = [builtin, user];
  const names = wrapperNames(
    [...layers.flatMap((l) => l.sections), ...codeSections(opts.extraSections)],
    false,
    elementTexts(layers, opts, options),
    vars,
  );
  // The project's names as a render reads them, at most MAX_PROJECT_NAMES (the render warns of the rest).
  if (project)
    for (const name of projectElementNames([project], opts.projectDir, vars).names) names.add(name);
  // Late, your file as written (its imports not read).
  const own = ownRead ?? (await ownContextText(opts));
  return withElementNames(names, own === undefined ? printed : [own, ...printed]);
}

/**
 * The agent dir's context file as written (the first of its names there that
 * reads), at most `maxBytes` of it, through the door as a file of yours (no
 * final link followed): your file's names when its imports took too long.
 */
async function ownContextText(opts: NormalizedOptions): Promise<string | undefined> {
  // Placed as a render places it (review rev98a F1), with no deadline: it is read once the
  // deadline passed, and the walk's own budget bounds it.
  const own = await ownFilesOf(opts.agentDir, {
    home: opts.home,
    trusted: opts.trusted,
    cwd: opts.cwd,
  });
  for (const name of CONTEXT_FILE_NAMES) {
    const read = await readRepoCapped(join(opts.agentDir, name), {
      maxBytes: opts.maxContextBytes,
      own,
    });
    if (read.ok) return read.text;
  }
  return undefined;
}

/**
 * `work`'s value, or undefined once `deadlineMs` passed (its signal fires,
 * so it stops listing and parsing). `Infinity`: a signal that never fires.
 */
async function withDeadline<T>(
  deadlineMs: number,
  work: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T | undefined> {
  // Never none: a public loader without a signal bounds itself by the default deadline.
  if (!(deadlineMs <= MAX_TIMER_MS)) return work(new AbortController().signal);
  const signal = AbortSignal.timeout(deadlineMs);
  try {
    const value = await work(signal);
    // Stopped early, a listing gives what it found so far: not the rules.
    return signal.aborted ? undefined : value;
  } catch (error) {
    if (signal.aborted) return undefined;
    throw error;
  }
}
