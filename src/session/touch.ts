import { wrapperNames } from "../_prompt-text.js";
import {
  type ContextForOptions,
  loadContextForPaths,
  type TouchedContext,
} from "../gather/context/index.js";
import { type LoadedRules, traceRules } from "../gather/rules/index.js";
import { loadLayer } from "../locate/load-layer.js";
import { normalizeOptions } from "../options/normalize.js";
import type { SystemPromptOptions } from "../options.js";
import type { SectionTemplate } from "../sections/types.js";
import type { StepMemo } from "./_memo.js";

/** What a session keeps for {@link sessionContextFor}. */
export interface TouchState {
  /** What the session has given (and refused), by key: each file once. */
  delivered: Set<string>;
  /** The last render's overrides: contextFor uses the options that render used. */
  overrides: Omit<SystemPromptOptions, "cwd">;
  /** The last render's section templates, whose element names the text may not use. */
  wrappers: readonly Pick<SectionTemplate, "name" | "meta" | "body">[] | undefined;
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
  const loading = await touchOptions(options, memos, touch, asked);
  // The session's deadline bounds a call as it bounds a render.
  const deadline = options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs };
  return loadContextForPaths(paths, { ...loading, ...deadline });
}

/** What a caller of {@link sessionContextFor} may set beside the session's options. */
export interface TouchAsked {
  contextFiles?: boolean;
  agentLoads?: { agent: string; names: readonly string[] };
}

/** The options {@link sessionContextFor} loads with: its rules traced, its wrappers named. */
export async function touchOptions(
  options: SystemPromptOptions,
  memos: ReadonlyMap<string, StepMemo>,
  touch: TouchState,
  asked: TouchAsked = {},
): Promise<ContextForOptions> {
  const opts = await normalizeOptions(options);
  const ceiling = opts.ceilingDir !== null ? { ceilingDir: opts.ceilingDir } : {};
  let rules: LoadedRules["rules"] = [];
  if (opts.ruleSources.length > 0) {
    const kept = memos.get("rule-files")?.gathered.value as LoadedRules | undefined;
    rules = (
      kept ??
      (await traceRules({
        cwd: opts.cwd,
        agentDir: opts.agentDir,
        home: opts.home,
        projectDir: opts.projectDirName,
        projectTrusted: opts.trusted,
        sources: opts.ruleSources,
        maxBytes: opts.maxContextBytes,
        ...ceiling,
      }))
    ).rules;
  }
  const templates =
    touch.wrappers ??
    (await loadLayer(opts.builtinDir, "builtin", { customFiles: false })).sections;
  return {
    cwd: opts.cwd,
    home: opts.home,
    maxBytes: opts.maxContextBytes,
    projectTrusted: opts.trusted,
    ...ceiling,
    rules,
    ruleSources: opts.ruleSources,
    projectDir: opts.projectDirName,
    contextFiles: asked.contextFiles ?? options.noContextFiles !== true,
    wrappers: wrapperNames(templates),
    delivered: touch.delivered,
    ...(asked.agentLoads ? { agentLoads: asked.agentLoads } : {}),
  };
}
