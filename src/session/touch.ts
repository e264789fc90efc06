import { wrapperNames } from "../_prompt-text.js";
import {
  type ContextForOptions,
  loadContextForPathsSince,
  type TouchedContext,
} from "../gather/context/index.js";
import { MAX_TIMER_MS } from "../gather/deadline.js";
import {
  type LoadedRules,
  type Rule,
  type RuleAccount,
  traceRules,
} from "../gather/rules/index.js";
import { loadLayer } from "../locate/load-layer.js";
import { normalizeOptions } from "../options/normalize.js";
import type { SystemPromptOptions } from "../options.js";
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

/** What a caller of {@link sessionContextFor} may set beside the session's options. */
export interface TouchAsked {
  contextFiles?: boolean;
  agentLoads?: { agent: string; names: readonly string[] };
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
      if (traced !== undefined) rules = traced.rules;
      else {
        rules = [...soFar.rules];
        diagnostics.push({
          level: "warning",
          code: "touch-deadline",
          message: `the ${opts.deadlineMs} ms deadline passed before the rule files were found: ${rules.length > 0 ? "only your own rules are" : "no glob rule is"} given now`,
        });
      }
    }
  }
  const templates =
    touch.wrappers ??
    (await loadLayer(opts.builtinDir, "builtin", { customFiles: false })).sections;
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
    wrappers: touch.wrapperNames ?? wrapperNames(templates),
    delivered: touch.delivered,
    ...(asked.agentLoads ? { agentLoads: asked.agentLoads } : {}),
  };
  return { loading, diagnostics };
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
