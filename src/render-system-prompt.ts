import { join } from "node:path";
import { readTextFile } from "./_fs.js";
import { toPosix } from "./_paths.js";
import { applyPreset, loadChosenPreset, type PresetReport } from "./agents/index.js";
import { renderWithinBudget } from "./budget/fit.js";
import type { BudgetReport } from "./budget/types.js";
import { agentConfigFile, type OptionProvenance } from "./config/index.js";
import type { PromptData } from "./data.js";
import { capDiagnostics } from "./engine/_message.js";
import { createEngine, type Engine } from "./engine/index.js";
import { cacheLocation } from "./gather/_cache-location.js";
import { wrapperNames } from "./gather/_prompt-text.js";
import {
  type ContextProvenance,
  NO_CONTEXT,
  traceContextFiles,
} from "./gather/context/context-files.js";
import { nestedContextNames } from "./gather/context/on-touch.js";
import { type GatherStep, lateStepsWarning, runStep, type StepRunner } from "./gather/deadline.js";
import { realMachine } from "./gather/environment/_machine.js";
import { envCacheLocation, environmentStep } from "./gather/environment/environment.js";
import { gitStep } from "./gather/git/index.js";
import { parseRuleList } from "./gather/guidelines/guidelines.js";
import { parseToolDescriptions } from "./gather/guidelines/tools.js";
import { type LoadedRules, type RuleAccount, traceRules } from "./gather/rules/index.js";
import { runStepTable, tableStep } from "./gather/step-table.js";
import type { TreeLine } from "./gather/tree/_tree-layout.js";
import {
  type BuiltWorkspace,
  buildWorkspaceTrees,
  workspaceDiagnostics,
} from "./gather/tree/workspace.js";
import { builtinTemplates, primeBuiltinCache } from "./locate/builtin-cache.js";
import { buildAppendPrompt, chooseCustomPrompt } from "./locate/custom.js";
import { emptyLayer, loadLayer } from "./locate/load-layer.js";
import { resolveOptions } from "./options/resolve.js";
import {
  type NormalizedOptions,
  type SystemPromptOptions,
  unknownToolDiagnostics,
} from "./options.js";
import { assemblePromptData } from "./prompt-data.js";
import { emptyPromptDiagnostics } from "./sections/empty-prompt.js";
import { layerSections } from "./sections/layer.js";
import { maxTokensWarnings } from "./sections/max-tokens.js";
import {
  type CustomPrompt,
  type ExtraSection,
  type RenderOutput,
  renderSections,
} from "./sections/render.js";
import type { SectionTemplate } from "./sections/types.js";
import { variantForModel } from "./sections/variants.js";
import { loadSkills, selectSkillsTool } from "./skills/index.js";
import type { Skill } from "./skills/types.js";
import { type Diagnostic, type RenderResult, type StepTiming, SyspromptError } from "./types.js";

// Moved to prompt-data.ts with the rest of the data assembly.
export { DEFAULT_AGENT_NAME } from "./prompt-data.js";

/** Everything gathered for one render: the input of the pure render step. */
export interface PreparedPrompt {
  templates: SectionTemplate[];
  partials: Record<string, string>;
  data: PromptData;
  customPrompt: CustomPrompt | null;
  extraSections: ExtraSection[];
  diagnostics: Diagnostic[];
  steps: StepTiming[];
  /**
   * Where the context files came from (folders searched, imports, cuts,
   * files dedupe dropped): what `sysprompt explain` shows and `watch` watches.
   * Render does not read it.
   */
  context: ContextProvenance;
  /** Every rule file found, with what happened to it (inlined, listed, manual, or why dropped): for `explain`. */
  rules: RuleAccount[];
  /** The token budget (`maxPromptTokens`); absent for none. */
  maxPromptTokens?: number;
  /** The workspace tree's lines with their depth, for shrinking it under a budget. */
  treeLines?: TreeLine[];
  /** The same for each extra root's tree, in the order of `data.rootTrees`. */
  rootTreeLines?: TreeLine[][];
  /** The agent preset in use and what it changed: for `explain` and `sections`. Render does not read it. */
  preset?: PresetReport;
  /** Where each config key's value came from (an option, a `sysprompt.yaml`, the default): for `explain`. */
  provenance?: OptionProvenance;
  /** The `sysprompt.yaml` files looked at (found or not), for `watch`; absent when `configFiles` is off. */
  configFiles?: string[];
}

/**
 * Builds the system prompt: locate files, gather data under one deadline, then
 * render. User files never make this throw; a bad explicit option does
 * ({@link SyspromptError}).
 */
export async function renderSystemPrompt(options: SystemPromptOptions = {}): Promise<RenderResult> {
  const prepared = await preparePrompt(options);
  return renderPrepared(prepared);
}

let sharedEngine: Engine | undefined;

/** One engine per process by default, so its compile cache serves every render. */
function defaultEngine(): Engine {
  if (!sharedEngine) {
    sharedEngine = createEngine();
    sharedEngine.preload(builtinTemplates());
  }
  return sharedEngine;
}

/**
 * The pure half of {@link renderSystemPrompt}: no I/O, same input ⇒ same bytes.
 * When a section declares `maxTokens`, the tokenizer is loaded (code, once per
 * process) to count it; otherwise it is never loaded.
 */
export function renderPrepared(
  prepared: PreparedPrompt,
  engine: Engine = defaultEngine(),
): RenderResult {
  const maxTokens = prepared.maxPromptTokens;
  const out: RenderOutput & { budget?: BudgetReport } =
    maxTokens === undefined
      ? renderSections(prepared, engine)
      : renderWithinBudget(prepared, engine, {
          maxTokens,
          ...(prepared.treeLines ? { treeLines: prepared.treeLines } : {}),
          ...(prepared.rootTreeLines ? { rootTreeLines: prepared.rootTreeLines } : {}),
        });
  return {
    text: out.text,
    blocks: out.blocks,
    sections: out.sections,
    // Capped: a message may quote a user file's text (a key, a name, a value).
    diagnostics: capDiagnostics([
      ...prepared.diagnostics,
      ...out.diagnostics,
      ...maxTokensWarnings(prepared.templates, out.sections),
      ...emptyPromptDiagnostics(out.sections),
    ]),
    steps: prepared.steps,
    ...(out.budget ? { budget: out.budget } : {}),
  };
}

/**
 * Locate and gather: every bit of I/O a render needs, bounded by the deadline.
 * `runner` runs each gathering step; a prompt session passes one that reuses
 * what has not changed on disk.
 */
export async function preparePrompt(
  given: SystemPromptOptions = {},
  runner: StepRunner = runStep,
): Promise<PreparedPrompt> {
  // process.hrtime, not performance.now(): the performance global loads ten
  // modules of perf_hooks, a millisecond of a CLI start.
  const clock = () => Number(process.hrtime.bigint()) / 1e6;
  const started = clock();
  // Before the deadline starts: the config files may set it. A bad explicit option throws here.
  const { config, options, normalized } = await resolveOptions(given);
  // The preset decides inputs of the steps (tools, rule sources, context files), so it comes first.
  // Without an agent: the default pi, whose builtin file sets nothing (see prompts/agents/pi.yaml),
  // so only a user's or project's own pi.yaml is read.
  const loadedPreset = await loadChosenPreset(
    options.agent,
    normalized,
    given.agent === undefined ? agentConfigFile(config.files) : undefined,
  );
  const applied = applyPreset(normalized, options, loadedPreset.preset);
  const opts = applied.opts;
  const { cwd, home, env, agentDir, projectDir, builtinDir, trusted, tools } = opts;
  // Cache files go to the agent dir the user named, else to the user's cache folder.
  const cacheHome = {
    agentDir: options.agentDir !== undefined || env.SYSPROMPT_AGENT_DIR ? agentDir : undefined,
    env,
    home,
  };
  const { extraSections, roots, maxContextBytes, ceilingDir } = opts;
  const ceiling = ceilingDir !== null ? { ceilingDir } : {};
  const budgetMs = opts.deadlineMs;
  const deadline = started + budgetMs;
  const skillsTool = selectSkillsTool(tools);
  const optionPrompt = optionCustomPrompt(opts.systemPrompt);
  const layerFiles = { customFiles: true, resolved: opts.resolvedFiles };

  // Stops late walks (the tree, the skills folders) once the deadline has been met without them.
  const late = new AbortController();
  // The gathering steps, by name: a new step is one more entry here, and its
  // value is read below by the same name. Key order is the order of the timings.
  const table = {
    // Not bounded: without the builtin templates there is no prompt at all, and
    // they sit beside the code that is already running.
    builtin: tableStep(
      keyed("builtin", builtinDir, loadBuiltin, {
        layer: emptyLayer("builtin"),
        tools: {},
        rules: [],
      }),
      { bounded: false },
    ),
    user: tableStep(
      keyed(
        "user",
        { dir: agentDir, ...layerFiles },
        (i) => loadLayer(i.dir, "user", i),
        emptyLayer("user"),
      ),
    ),
    project: tableStep(
      keyed(
        "project",
        {
          dir: projectDir,
          ...layerFiles,
          confine: { start: cwd, home, ceiling: ceilingDir ?? undefined },
        },
        trusted && ((i) => loadLayer(i.dir, "project", i)),
        emptyLayer("project"),
      ),
    ),
    context: tableStep(
      keyed(
        "context",
        {
          cwd,
          agentDir,
          roots,
          home,
          maxBytes: maxContextBytes,
          projectTrusted: trusted,
          ...ceiling,
          ...(applied.agentLoads ? { agentLoads: applied.agentLoads } : {}),
        },
        !options.noContextFiles && traceContextFiles,
        { files: [], diagnostics: [], provenance: NO_CONTEXT },
      ),
    ),
    "rule-files": tableStep(
      keyed(
        "rule-files",
        {
          cwd,
          agentDir,
          home,
          projectDir: opts.projectDirName,
          projectTrusted: trusted,
          sources: opts.ruleSources,
          maxBytes: maxContextBytes,
          ...ceiling,
        },
        opts.ruleSources.length > 0 && traceRules,
        { rules: [], accounts: [], diagnostics: [] } as LoadedRules,
      ),
    ),
    skills: tableStep(
      keyed(
        "skills",
        {
          cwd,
          agentDir,
          home,
          projectTrusted: trusted,
          projectDir: opts.projectDirName,
          ...(options.skillPaths ? { paths: [...options.skillPaths] } : {}),
          ...ceiling,
        },
        // Skills the caller loaded itself are the fallback of a step that does not run.
        skillsTool !== null && !opts.skills && ((i) => loadSkills({ ...i, signal: late.signal })),
        { skills: opts.skills ?? ([] as Skill[]), diagnostics: [] as Diagnostic[] },
      ),
    ),
    environment: tableStep(
      environmentStep({
        machine: options.machine ?? realMachine(),
        env,
        cache: envCacheLocation(cacheHome),
        exclude: [cwd, ...roots],
        given: options.environment,
      }),
    ),
    git: tableStep(
      gitStep({
        enabled: options.git === true,
        cwd,
        env,
        exclude: [cwd, ...roots],
        allowGitDirs: opts.allowGitDirs,
        ...ceiling,
        signal: late.signal,
      }),
    ),
    tree: tableStep(
      keyed(
        "tree",
        {
          root: cwd,
          roots,
          mtime: opts.treeMtime,
          depth: options.treeDepth ?? null,
          ceilingDir,
          cache: cacheLocation("tree", cacheHome),
          home,
          trusted,
          agentLoads: loadedPreset.preset.nestedContextFiles,
        },
        options.workspaceTree === true &&
          (async (i) =>
            buildWorkspaceTrees(i.root, i.roots, {
              signal: late.signal,
              cache: i.cache,
              ...(i.depth !== null ? { maxDepth: i.depth } : {}),
              ...(i.mtime ? { mtime: i.mtime } : {}),
              ...(i.ceilingDir !== null ? { ceilingDir: i.ceilingDir } : {}),
              // The names on-touch delivery looks for: dir_context names the same files.
              contextNames: await nestedContextNames(i.root, {
                home: i.home,
                trusted: i.trusted,
                ...(i.ceilingDir !== null ? { ceilingDir: i.ceilingDir } : {}),
              }),
              agentLoads: i.agentLoads,
            })),
        null as BuiltWorkspace | null,
      ),
      // See gather/tree/_tree-walk.ts: the walk is long and mostly synchronous.
      { afterOthers: true },
    ),
  };
  const { outcomes, timings } = await runStepTable(table, runner, deadline, clock);
  late.abort();
  const { builtin, user, project, context, skills, environment, git, tree } = outcomes;
  const ruleFiles = outcomes["rule-files"];

  const layers = [builtin.value.layer, user.value, project.value];
  const diagnostics: Diagnostic[] = [];
  if (!trusted) {
    diagnostics.push({
      level: "info",
      code: "project-untrusted",
      message: `project is not trusted: ${toPosix(projectDir)} (SYSTEM, APPEND, sections, skills) skipped; context files still load`,
    });
  }
  diagnostics.push(...loadedPreset.diagnostics);
  diagnostics.push(...config.diagnostics);
  diagnostics.push(...lateStepsWarning(timings, budgetMs));
  for (const outcome of Object.values(outcomes)) diagnostics.push(...outcome.diagnostics);
  for (const layer of layers) diagnostics.push(...layer.diagnostics);
  diagnostics.push(
    ...context.value.diagnostics,
    ...ruleFiles.value.diagnostics,
    ...skills.value.diagnostics,
    ...environment.value.diagnostics,
    ...git.value.diagnostics,
  );
  // The preset's descriptions of its agent's tools beat tools.md's; the caller's beat both.
  const toolDescriptions = { ...builtin.value.tools, ...applied.toolDescriptions };
  diagnostics.push(...unknownToolDiagnostics(tools, toolDescriptions, options.toolSnippets));
  if (tree.value) diagnostics.push(...workspaceDiagnostics(tree.value, cwd));

  const customPrompt = chooseCustomPrompt(optionPrompt, layers);
  const assembled = assemblePromptData({
    options:
      applied.agentName === undefined ? options : { ...options, agentName: applied.agentName },
    opts,
    customPrompt,
    appendPrompt: buildAppendPrompt(layers, opts.appendSystemPrompt),
    builtinTools: toolDescriptions,
    generalRules: builtin.value.rules,
    contextFiles: context.value.files,
    wrappers: wrapperNames(layers.flatMap((l) => l.sections)),
    ruleFiles: ruleFiles.value,
    skills: skills.value.skills,
    skillsTool,
    environment: environment.value.entries,
    tree: tree.value,
    git: git.value.git,
    agentLoads: applied.agentLoadsNames,
  });
  const { data, rules } = assembled;
  diagnostics.push(...assembled.diagnostics);
  return {
    templates: leaveOutSent(
      layerSections(
        layers.flatMap((l) => l.sections),
        variantForModel(options.model),
      ),
      applied.report.agentSends,
    ),
    partials: Object.assign({}, ...layers.map((l) => l.partials)),
    data,
    customPrompt,
    extraSections,
    diagnostics,
    steps: timings,
    context: context.value.provenance,
    rules,
    ...(opts.maxPromptTokens !== null ? { maxPromptTokens: opts.maxPromptTokens } : {}),
    ...(tree.value
      ? {
          treeLines: tree.value.tree.lines,
          // The roots with a tree, as `rootTrees` lists them.
          rootTreeLines: tree.value.roots.flatMap((r) => (r.tree ? [r.tree.lines] : [])),
        }
      : {}),
    preset: {
      ...applied.report,
      contextFilesLeftOut: context.value.provenance.agentLoaded ?? [],
    },
    provenance: config.provenance,
    ...(given.configFiles === true ? { configFiles: config.files.map((f) => f.path) } : {}),
  };
}

/**
 * The templates with the sections the agent sends itself switched off (as `enabled: false`
 * does): its date, working folder or environment would otherwise reach the model twice.
 */
function leaveOutSent(templates: SectionTemplate[], sent: readonly string[]): SectionTemplate[] {
  if (sent.length === 0) return templates;
  return templates.map((t) =>
    sent.includes(t.name) ? { ...t, meta: { ...t.meta, enabled: false } } : t,
  );
}

/**
 * A gathering step whose work is `load(inputs)`, or that is off (`false`).
 * `inputs` must hold everything the work depends on besides the disk: a
 * prompt session reuses the step's value while they, and every file and
 * folder the work read, are unchanged.
 */
function keyed<I, T>(
  name: string,
  inputs: I,
  load: ((inputs: I) => Promise<T>) | false,
  fallback: T,
): GatherStep<T> {
  return load
    ? { name, run: () => load(inputs), fallback, inputs }
    : { name, run: undefined, fallback };
}

async function loadBuiltin(dir: string) {
  primeBuiltinCache();
  const [layer, tools, rules] = await Promise.all([
    loadLayer(dir, "builtin", { customFiles: false }),
    readTextFile(join(dir, "tools.md")),
    readTextFile(join(dir, "rules.md")),
  ]);
  return {
    layer,
    tools: tools.ok ? parseToolDescriptions(tools.text) : {},
    rules: rules.ok ? parseRuleList(rules.text) : [],
  };
}

function optionCustomPrompt(value: NormalizedOptions["systemPrompt"]): CustomPrompt | null {
  if (value === null) return null;
  const { text, path } = value;
  return { text, template: false, source: path ? { layer: "option", path } : { layer: "option" } };
}
