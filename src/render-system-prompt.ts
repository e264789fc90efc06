import { dirname, relative } from "node:path";
import { pushAll } from "./_arrays.js";
import { monotonicMs } from "./_pace.js";
import { toPosix } from "./_paths.js";
import {
  escapeWrapperTags,
  type NameBudget,
  nameText,
  repositoryNames,
  varTagNames,
  withElementNames,
  withNameBudget,
  wrapperNames,
} from "./_prompt-text.js";
import { type AppliedPreset, agentSendsKept, type PresetReport } from "./agents/index.js";
import { renderWithinBudget, renderWithRoom } from "./budget/fit.js";
import { type OptionProvenance, projectVarNames } from "./config/index.js";
import type { ContextFile, PromptData } from "./data.js";
import { capDiagnostics, createEngine, type Engine } from "./engine/index.js";
import { MAX_PROMPT_NAME_READ } from "./engine/limits.js";
import type { ContextProvenance } from "./gather/context/index.js";
import {
  abortAtDeadline,
  DeadlinePassed,
  lateStepsWarning,
  runStep,
  type StepRunner,
} from "./gather/deadline.js";
import { selectSkillsTool } from "./gather/guidelines/index.js";
import { ownFirstGate } from "./gather/own-first.js";
import type { Rule, RuleAccount } from "./gather/rules/index.js";
import { runStepTable } from "./gather/step-table.js";
import { gatheringSteps } from "./gather/steps.js";
import type { TreeLine } from "./gather/tree/index.js";
import type { BuiltWorkspace } from "./gather/tree/workspace.js";
import { builtinTemplates } from "./locate/builtin-cache.js";
import {
  addendumText,
  appendParts,
  baseSectionsDropped,
  chooseCustomPrompt,
  customPromptMayBeRepository,
  guidelinesPart,
  printedParts,
  replacedByProject,
} from "./locate/custom.js";
import {
  codeSections,
  elementTexts,
  ownPrintedTexts,
  varsByWhose,
} from "./locate/element-texts.js";
import type { LoadedLayer } from "./locate/load-layer.js";
import { projectElementNames } from "./locate/project-names.js";
import type { OptionName } from "./options/registry.js";
import type { AppendPart, NormalizedOptions, SystemPromptOptions } from "./options.js";
import { assemblePromptData, newNameBudget } from "./prompt-data.js";
import { type ResolvedRender, resolveRenderOptions } from "./render-options.js";
import { mergeRootMarkerRefusals, withPrivateLook } from "./repo-files/index.js";
import type { GivenBy, OptionOrigin } from "./resolve-options.js";
import { emptyPromptDiagnostics } from "./sections/empty-prompt.js";
import { CHECK_BUDGET_CHARS, type CheckBudget, withCheckBudget } from "./sections/html-reading.js";
import { layerSections } from "./sections/layer.js";
import { maxTokensWarnings } from "./sections/max-tokens.js";
import type { CustomPrompt, ExtraSection, RenderOutput, RenderStop } from "./sections/render.js";
import { heldProjectTags } from "./sections/reserved-tags.js";
import type { SectionTemplate } from "./sections/types.js";
import { ownSectionsLeftOut, userTextLeftOut, userTextSections } from "./sections/user-text.js";
import { variantForModel } from "./sections/variants.js";
import type { BudgetReport, Diagnostic, RenderResult, StepTiming } from "./types.js";

// Moved to prompt-data.ts with the rest of the data assembly.
export { DEFAULT_AGENT_NAME } from "./prompt-data.js";

/** Everything gathered for one render: the input of the pure render step. */
export interface PreparedPrompt {
  templates: SectionTemplate[];
  partials: Record<string, string>;
  /** Sources of the partials of your layers and the builtins' ({@link RenderInput.ownPartials}). */
  ownPartials: ReadonlySet<string>;
  /**
   * The element names no repository text may open or close
   * ({@link wrapperNames}): what a session's files given on touch are
   * escaped against too. Absent: those of `templates`.
   */
  wrapperNames?: ReadonlySet<string>;
  /**
   * The names among {@link wrapperNames} that your own layers and texts
   * give, the rest being a trusted project's: an export keeps them apart
   * for the agent's hook, so a project's names never push yours out.
   */
  ownWrapperNames?: ReadonlySet<string>;
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
  /** The addendum's parts as printed, with their owners: a budget cuts the repository's; a project override must show the user's. */
  appendParts?: AppendPart[];
  /** The agent preset in use and what it changed: for `explain` and `sections`. Render does not read it. */
  preset?: PresetReport;
  /** Where each config key's value came from (an option, a `sysprompt.yaml`, the default): for `explain`. */
  provenance?: OptionProvenance;
  /** The layer's `general-rules.md` whose list replaced the builtin general rules, and its rule count; absent for the builtin list. */
  generalRules?: { path: string; count: number };
  /** Where each option got its value: who gave it (the API, the CLI, a scenario), a `sysprompt.yaml`, or the default. */
  origins?: Record<OptionName, OptionOrigin>;
  /** The options the render worked from: the caller's with the config files' values, for `explain`'s settings. */
  options?: SystemPromptOptions;
  /** The same, normalised, with the agent preset's tools and rule sources in place: for `explain`'s search below cwd. */
  opts?: NormalizedOptions;
  /** The `sysprompt.yaml` files looked at (found or not), for `watch`; absent when `configFiles` is off. */
  configFiles?: string[];
  /**
   * The render's deadline, in ms of the gathering's clock (`monotonicMs`,
   * `process.hrtime`): token counts past it (budget, `maxTokens`, `explain`)
   * are estimated from the text's length (`src/tokens.ts`). Absent: counted
   * exactly, however long that takes.
   */
  deadline?: number;
  /**
   * What checking the repository's texts in the preparation (the appended
   * parts, the context files, the rules) left of the render's check budget
   * ({@link CHECK_BUDGET_CHARS}): each render of this prompt starts from it,
   * so the same prompt renders the same bytes. Absent: the whole budget.
   */
  checkBudgetLeft?: number;
  /** What the preparation spent of the name reader's meter ({@link RenderInput.namesSpent}): each render's starts from it. */
  namesSpent?: number;
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

/**
 * How long a render's project sections have at least, from the render's
 * start, however much of the deadline the gathering took: a step given up at
 * the deadline, or a prepared prompt rendered again later (a session, `check`),
 * must not leave out a project's sections that render in a few milliseconds.
 */
const RENDER_STOP_GRACE_MS = 1000;

/**
 * When a render of a prompt whose gathering had `deadline` (ms of
 * {@link monotonicMs}) stops its trusted project's sections: at the deadline,
 * or {@link RENDER_STOP_GRACE_MS} from now, whichever is later. Before, nothing
 * in the sections' render read the deadline: a project's partial printed
 * 8,000 times held `render --deadline 1000` 6 s of CPU (review rev88b F1).
 */
function renderStop(
  deadline: number | undefined,
  clock: () => number = monotonicMs,
): RenderStop | undefined {
  if (deadline === undefined) return undefined;
  return { at: Math.max(deadline, clock() + RENDER_STOP_GRACE_MS), clock };
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
 * process) to count it; otherwise it is never loaded. The one exception to the
 * bytes: a budget whose counting outlives `prepared.deadline` over-counts what
 * is left, and says so (`budget-tokens-estimated`).
 */
export function renderPrepared(
  prepared: PreparedPrompt,
  engine: Engine = defaultEngine(),
): RenderResult {
  const maxTokens = prepared.maxPromptTokens;
  // Sections with the user's own texts: past the 8 MiB caps, the repository's text goes first.
  // A trusted project's override of one of them is the repository's text: no room is made for it.
  // Your own sections are yours too: those of your agent dir, the caller's (`sections`), and the
  // rules section, which holds your `--guideline`s.
  const own = ownSections(prepared.templates, prepared.extraSections);
  const keep = new Set([
    ...userTextSections(prepared.data, prepared.appendParts, prepared.templates),
    ...own,
  ]);
  const trees = {
    ...(prepared.treeLines ? { treeLines: prepared.treeLines } : {}),
    ...(prepared.rootTreeLines ? { rootTreeLines: prepared.rootTreeLines } : {}),
    ...(prepared.appendParts ? { appendParts: prepared.appendParts } : {}),
  };
  // The texts the sections print checked in a fixed order, to one budget (rev65a F2).
  // From what the preparation's checks left of it: one budget for the whole render (rev68e F3).
  // A trusted project's sections stop at the deadline, with a grace from now (rev88b F1).
  const stopAt = renderStop(prepared.deadline);
  const input = stopAt === undefined ? prepared : { ...prepared, stopAt };
  const out: RenderOutput & { budget?: BudgetReport; fitStopped?: true } = withCheckBudget(
    () =>
      maxTokens === undefined
        ? renderWithRoom(input, engine, keep, trees)
        : renderWithinBudget(input, engine, {
            maxTokens,
            keep,
            ...trees,
            ...(prepared.deadline !== undefined ? { deadline: { at: prepared.deadline } } : {}),
          }),
    // Past the stop time, spent: each text after takes the budget's instant fallback (rev91b F1).
    {
      left: prepared.checkBudgetLeft ?? CHECK_BUDGET_CHARS,
      ...(stopAt === undefined ? {} : { stop: stopAt }),
    },
  );
  return {
    text: out.text,
    blocks: out.blocks,
    sections: out.sections,
    // Capped: a message may quote a user file's text (a key, a name, a value).
    diagnostics: capDiagnostics([
      ...prepared.diagnostics,
      ...out.diagnostics,
      ...maxTokensWarnings(
        prepared.templates,
        out.sections,
        prepared.deadline === undefined ? undefined : { at: prepared.deadline },
      ),
      ...emptyPromptDiagnostics(out.sections),
      ...userTextLeftOut(
        prepared.templates,
        prepared.data,
        out.text,
        prepared.appendParts,
        out.sections.map((s) => s.name),
        out.fitStopped === true,
        new Set([...(out.leftOut ?? []), ...(out.stopped ?? [])]),
      ),
      ...ownSectionsLeftOut(own, out, out.fitStopped === true, prepared.templates),
    ]),
    steps: prepared.steps,
    ...(out.budget ? { budget: out.budget } : {}),
  };
}

/**
 * The sections whose text is the user's own, for fitting to make room for past
 * the 8 MiB caps: those whose version on top is the user's (`~/.pi/agent/sections`),
 * the caller's (`sections`), and the rules section unless a project's version
 * replaces it (it holds the caller's `--guideline`s). A project's sections of
 * 7 MB and 1.5 MB of repository text that the builtin steps cut left your
 * section out with only `prompt-too-large` (review rev38b L1).
 */
function ownSections(
  templates: readonly SectionTemplate[],
  extra: readonly ExtraSection[],
): string[] {
  const own = templates
    .filter((t) => t.meta.enabled && (t.source.layer === "user" || t.name === "rules"))
    .filter((t) => t.source.layer !== "project")
    .map((t) => t.name);
  return [...own, ...extra.filter((e) => e.text !== "").map((e) => e.name)];
}

/**
 * A render's gathering signal (`late`, fired at `deadline`, when `stop` fires, or at `end`, once
 * the steps are run), on `monotonicMs`' clock, and its own-first
 * gate, which holds the repository's parts for your own for half of what is left at the most:
 * your skills answering calls all along held it until the deadline, and at 300-500 ms the
 * project's AGENTS.md was cut whole (rev51a F3).
 */
function gatheringClock(deadline: number, stop: AbortSignal | undefined) {
  const clock = monotonicMs;
  const late = new AbortController();
  const openAfterMs = Math.max(0, (deadline - clock()) / 2);
  const atDeadline = abortAtDeadline(late, deadline, clock);
  // The caller's stop (check's signal and budget: rev88d F2) ends the gathering as the deadline does.
  const stopped = () => late.abort(new DeadlinePassed());
  if (stop?.aborted) stopped();
  else stop?.addEventListener("abort", stopped, { once: true });
  // Once the table is run: no timer or listener left, and the walks still going stop.
  const end = () => {
    atDeadline();
    stop?.removeEventListener("abort", stopped);
    late.abort(new DeadlinePassed());
  };
  return { late, deadline, end, ownFirst: ownFirstGate(late.signal, { openAfterMs, clock }) };
}

/** A render's diagnostics, in order, a marker the steps' root searches passed over said once. */
function saidOnce(...lists: readonly Diagnostic[][]): Diagnostic[] {
  return mergeRootMarkerRefusals(lists.flat());
}

/**
 * Locate and gather: every bit of I/O a render needs, bounded by the deadline.
 * `runner` runs each gathering step; a prompt session passes one that reuses
 * what has not changed on disk. `givenBy` names who gave `given` in `origins`. `stop` (check's
 * signal) ends the gathering before its deadline: the steps still running give their fallback.
 * Every file of yours it reads is checked against one look at your private places, made at the
 * first and dropped at its end ({@link withPrivateLook}; review fx104b), moved by `given.env`.
 */
export function preparePrompt(
  given: SystemPromptOptions = {},
  runner: StepRunner = runStep,
  givenBy: GivenBy = "api",
  stop?: AbortSignal,
): Promise<PreparedPrompt> {
  // Your private places where the render's environment moves them (review rev109a F1).
  return withPrivateLook(() => prepare(given, runner, givenBy, stop), given.env ?? process.env);
}

async function prepare(
  given: SystemPromptOptions,
  runner: StepRunner,
  givenBy: GivenBy,
  stop: AbortSignal | undefined,
): Promise<PreparedPrompt> {
  const started = monotonicMs();
  // 1. Options: the caller's, the config files' and the agent preset's, resolved once.
  const resolved = await resolveRenderOptions(given, givenBy);
  const { options, opts, preset } = resolved;

  // 2. Gathering: the table of steps, under one deadline counted from the start.
  // `late` fires at the deadline, so late walks stop then, not once the slowest step is given up.
  const { late, deadline, ownFirst, end } = gatheringClock(started + opts.deadlineMs, stop);
  const table = gatheringSteps(resolved, late.signal, ownFirst);
  const { outcomes, timings } = await runStepTable(table, runner, deadline, monotonicMs);
  end();

  // 3. Diagnostics: resolving's, the late steps' (one warning), then each step's in table order.
  const lateWarning = lateStepsWarning(timings, opts.deadlineMs, ownFirst.held());
  const diagnostics = [...resolved.diagnostics, ...lateWarning];
  for (const outcome of Object.values(outcomes)) pushAll(diagnostics, outcome.diagnostics);

  // 4. The data the templates see, and the templates.
  const { builtin, context, tree, "rule-files": ruleFiles } = outcomes;
  const layers = [builtin.value.layer, outcomes.user.value, outcomes.project.value];
  const names = promptWrappers(layers, resolved, context.value.files, ruleFiles.value.rules);
  const { wrappers } = names;
  pushAll(diagnostics, names.diagnostics);
  const customPrompt = chooseCustomPrompt(optionCustomPrompt(opts.systemPrompt), layers);
  const texts = whoseTexts(layers, customPrompt, resolved, names, deadline);
  const { printedAppend, unread, ...whose } = texts;
  const assembled = assemblePromptData({
    options: preset.agentName === undefined ? options : { ...options, agentName: preset.agentName },
    opts,
    customPrompt,
    ...whose,
    // The preset's descriptions of its agent's tools beat tools.md's; the caller's beat both.
    builtinTools: { ...builtin.value.tools, ...preset.toolDescriptions },
    generalRules: generalRuleLines(layers, wrappers, builtin.value.rules) ?? builtin.value.rules,
    contextFiles: context.value.files,
    wrappers,
    ruleFiles: ruleFiles.value,
    skills: outcomes.skills.value.skills,
    skillsTool: selectSkillsTool(opts.tools),
    environment: outcomes.environment.value.entries,
    tree: tree.value,
    git: outcomes.git.value.git,
    agentLoads: preset.agentLoadsNames,
  });
  const stack = sectionTemplates(layers, options.model, preset, customPrompt, opts, names.ownNames);
  return {
    templates: stack.templates,
    ...partialsOf(layers),
    data: assembled.data,
    customPrompt,
    extraSections: opts.extraSections,
    wrapperNames: wrappers,
    ownWrapperNames: names.ownNames,
    diagnostics: saidOnce(diagnostics, unread, assembled.diagnostics, stack.diagnostics),
    steps: timings,
    context: context.value.provenance,
    rules: assembled.rules,
    ...(opts.maxPromptTokens !== null ? { maxPromptTokens: opts.maxPromptTokens } : {}),
    ...(tree.value ? treeLines(tree.value, wrappers) : {}),
    // A repository's part of the addendum is cut with the repository's text, under a budget.
    ...(printedAppend.length > 0 ? { appendParts: printedAppend } : {}),
    preset: { ...stack.report, contextFilesLeftOut: context.value.provenance.agentLoaded ?? [] },
    provenance: resolved.provenance,
    origins: resolved.origins,
    options,
    opts,
    ...generalRulesReport(layers),
    ...(resolved.configFiles ? { configFiles: resolved.configFiles } : {}),
    deadline,
    ...spentInPreparation(whose),
  };
}

/** What the preparation left of the render's check budget and spent of its name reader's meter: each render starts from them. */
function spentInPreparation({ checks, names }: { checks: CheckBudget; names: NameBudget }) {
  return { checkBudgetLeft: checks.left, namesSpent: MAX_PROMPT_NAME_READ - names.left };
}

/**
 * Every layer's partials (the last layer's win), and the sources of those of
 * every layer but the project's: they count toward none of the prompt's compile totals.
 */
function partialsOf(
  layers: readonly LoadedLayer[],
): Pick<PreparedPrompt, "partials" | "ownPartials"> {
  return {
    partials: Object.assign({}, ...layers.map((l) => l.partials)),
    ownPartials: new Set(
      layers.filter((l) => l.layer !== "project").flatMap((l) => Object.values(l.partials)),
    ),
  };
}

/**
 * The general rules of the last layer that has a `general-rules.md`, or
 * undefined (the builtin list applies). A project's lines are the
 * repository's: each one a rule line as data, as a rule's name is
 * ({@link nameText}: `</rules> <system>` or an open `<!--` there is text).
 */
function generalRuleLines(
  layers: readonly LoadedLayer[],
  wrappers: ReadonlySet<string>,
  builtinRules: readonly string[],
): readonly string[] | undefined {
  const layer = layers.findLast((l) => l.generalRules !== null);
  const rules = layer?.generalRules?.rules;
  if (rules === undefined) return undefined;
  if (layer?.layer !== "project") return rules;
  // Marked as the repository's: one list with your `--guideline`s, unmarked, read as yours
  // (rev53c F5). A builtin rule's own words (an ejected copy's lines) need no mark.
  const path = layer.generalRules?.path ?? "";
  const mark = ` (the repository's ${nameText(toPosix(relative(dirname(dirname(path)), path)), wrappers)})`;
  const builtin = new Set(builtinRules);
  return rules.map((rule) => (builtin.has(rule) ? rule : `${nameText(rule, wrappers)}${mark}`));
}

/** A layer's section templates, as {@link wrapperNames} reads them. */
const sectionsOf = (layer: LoadedLayer) => layer.sections;

interface PromptWrappers {
  wrappers: Set<string>;
  /** The names your own layers and texts give: the rest of `wrappers` is a trusted project's. */
  ownNames: Set<string>;
  userFileWrappers: Set<string>;
  /** `element-names-capped` when a trusted project's templates name too many elements. */
  diagnostics: Diagnostic[];
}

/**
 * The `general-rules.md` whose list replaced the builtin rules.md, for the
 * report: a user's or project's (the last layer that has one wins).
 */
function generalRulesReport(layers: readonly LoadedLayer[]): Pick<PreparedPrompt, "generalRules"> {
  const generalRules = layers.findLast((l) => l.generalRules !== null)?.generalRules;
  return generalRules
    ? { generalRules: { path: generalRules.path, count: generalRules.rules.length } }
    : {};
}

/**
 * The element names no repository text may open or close (`wrappers`,
 * {@link wrapperNames}), and the ones your own texts (your context files,
 * your always rules) are escaped against (`userFileWrappers`). Your own
 * texts' names count among `wrappers`: your AGENTS.md's, your always
 * rules', your own `vars` values' ({@link ownPrintedTexts}), so a
 * repository's `</deploy_rules>` is text. `userFileWrappers` are your own
 * layers' names only (the builtins', the agent dir's, your option prompts'):
 * neither the names only your texts write (your file writes its own
 * `<team_policy>`) nor a trusted project's sections' and partials' (a
 * project partial mentioning `</team_policy>` turned your AGENTS.md's
 * `<team_policy>` into `&lt;team_policy>`, review rev46b L1). A project's
 * `vars` value that names your `{{#xml vars.tag}}` element is among
 * `wrappers` but not yours (`ownNames`, `userFileWrappers`): before, its
 * name escaped your AGENTS.md and an export kept it as yours (rev48b F8).
 */
function promptWrappers(
  layers: readonly LoadedLayer[],
  { options, opts, preset, provenance }: ResolvedRender,
  contextFiles: readonly ContextFile[],
  rules: readonly Rule[],
): PromptWrappers {
  const own = layers.filter((l) => l.layer !== "project");
  const project = layers.filter((l) => l.layer === "project");
  const vars = varsByWhose(options.vars, projectVarNames(provenance));
  const named: { fromData?: boolean } = {};
  const userFileWrappers = wrapperNames(
    [...own.flatMap(sectionsOf), ...codeSections(opts.extraSections)],
    preset.substitutes,
    elementTexts(own, opts, options),
    vars.own,
    undefined,
    named,
  );
  const projects = projectElementNames(project, opts.projectDir, options.vars);
  const yours = [
    ...contextFiles.filter((f) => f.origin === "user").map((f) => f.content),
    ...ownPrintedTexts(rules, options.vars, projectVarNames(provenance)),
  ];
  const ownNames = withElementNames(userFileWrappers, yours);
  // A project's var naming your `{{#xml vars.tag}}` element: a name no repository text may write, but the project's.
  const fromProjectVars = named.fromData ? varTagNames(vars.project) : [];
  return {
    // The repository's texts hold the owner mark too (repositoryNames: OWNER_MARK); yours never.
    wrappers: repositoryNames([...ownNames, ...projects.names, ...fromProjectVars]),
    ownNames,
    userFileWrappers,
    diagnostics: projects.diagnostics,
  };
}

/**
 * Every layer's section templates, the variant for `model` of each, and the
 * sections the agent sends itself switched off (as `enabled: false` does): its
 * date, working folder or environment would otherwise reach the model twice;
 * never one of yours a project's preset names ({@link agentSendsKept}). With
 * the preset's report as applied, and what is said about a project's file
 * taking your sections out. A trusted project's section never takes a tag of
 * the prompt's own elements, `ownNames` included ({@link heldProjectTags}).
 */
function sectionTemplates(
  layers: readonly LoadedLayer[],
  model: string | undefined,
  preset: AppliedPreset,
  customPrompt: CustomPrompt | null,
  opts: Pick<NormalizedOptions, "systemPrompt" | "extraSections">,
  ownNames: ReadonlySet<string>,
): { templates: SectionTemplate[]; report: AppliedPreset["report"]; diagnostics: Diagnostic[] } {
  const stacked = layerSections(
    layers.flatMap((l) => l.sections),
    variantForModel(model),
  );
  const sends = agentSendsKept(
    preset.report.agentSends,
    preset.agentSendsFromProject,
    yourVersions(stacked),
  );
  const held = heldProjectTags(stacked, opts.extraSections, ownNames);
  const templates =
    sends.sent.length === 0
      ? held.templates
      : held.templates.map((t) =>
          sends.sent.includes(t.name) ? { ...t, meta: { ...t.meta, enabled: false } } : t,
        );
  return {
    templates,
    report: { ...preset.report, agentSends: sends.sent },
    diagnostics: [
      ...held.diagnostics,
      ...sends.diagnostics,
      ...replacedByProject(layers, opts, stacked),
      ...baseSectionsDropped(
        templates,
        customPrompt,
        customPromptMayBeRepository(customPrompt, opts.systemPrompt),
      ),
    ],
  };
}

/**
 * Each section with a version of yours in the stack the render uses (after
 * the variant choice: your `cwd@gpt.md` does not serve a Claude model), with
 * that file. Before, every file of your layer counted, and a project's
 * `agentSends: [cwd]` was refused for a variant of yours that did not serve,
 * and the builtin `cwd` sent twice (review rev54a F6).
 */
function yourVersions(stacked: readonly SectionTemplate[]): Map<string, string> {
  const yours = new Map<string, string>();
  for (const template of stacked)
    for (let v: SectionTemplate | undefined = template; v !== undefined; v = v.lower)
      if (v.source.layer === "user") {
        yours.set(template.name, v.source.path ?? template.name);
        break;
      }
  return yours;
}

/**
 * The tree's lines with their depth, and each extra root's, for shrinking them
 * under a budget: the budget's steps render the tree again from them, so
 * their names are data as the gathered tree's are (tags of the prompt's own
 * elements made literal, as {@link assemblePromptData} does to the whole tree).
 */
function treeLines(
  tree: BuiltWorkspace,
  wrappers: ReadonlySet<string>,
): Pick<PreparedPrompt, "treeLines" | "rootTreeLines"> {
  const safe = (lines: readonly TreeLine[]) =>
    lines.map((l) => ({ ...l, text: escapeWrapperTags(l.text, wrappers) }));
  return {
    treeLines: safe(tree.tree.lines),
    // The roots with a tree, as `rootTrees` lists them.
    rootTreeLines: tree.roots.flatMap((r) => (r.tree ? [safe(r.tree.lines)] : [])),
  };
}

/**
 * The addendum and its parts, and whether the custom base prompt may be a
 * repository's: the project's SYSTEM.md, a file of the project named by
 * `systemPrompt`, or one a host resolved itself (pi's, which may be the
 * project's). Such texts never dedupe the user's rules. And the variables a
 * project's `sysprompt.yaml` gave: their values are the repository's text.
 */
function whoseTexts(
  layers: readonly LoadedLayer[],
  customPrompt: CustomPrompt | null,
  { opts, options, provenance }: ResolvedRender,
  { wrappers, userFileWrappers }: PromptWrappers,
  deadline: number,
) {
  // Its checks stop at the render's stop time, as its sections do (rev91b F1).
  const stop = renderStop(deadline);
  const repository = customPromptMayBeRepository(customPrompt, opts.systemPrompt);
  const parts = [
    ...appendParts(layers, opts.appendSystemPrompt),
    ...guidelinesPart(repository, {
      tools: opts.tools,
      toolGuidelines: options.toolGuidelines,
      promptGuidelines: options.promptGuidelines,
    }),
  ];
  // A text of yours the HTML reader gives up on is kept as written, with a warning (rev64b F2).
  const unread: Diagnostic[] = [];
  // The render's one check budget: the appended parts, then the data, then the render (rev68e F3).
  const checks: CheckBudget = { left: CHECK_BUDGET_CHARS, ...(stop ? { stop } : {}) };
  const warn = (warning: Diagnostic) => unread.push(warning);
  // And its one meter of the name reader's work on the repository's texts (rev82b F2), to the same stop (rev92b F1).
  const names = newNameBudget(stop);
  const printed = withCheckBudget(
    () => withNameBudget(names, () => printedParts(parts, wrappers, warn)),
    checks,
  );
  return {
    checks,
    names,
    customPromptRepository: repository,
    appendPrompt: addendumText(printed),
    appendParts: parts,
    printedAppend: printed,
    unread,
    repositoryVars: projectVarNames(provenance),
    repositoryModel: provenance.model?.startsWith("project:") === true,
    userFileWrappers,
  };
}

/**
 * The `systemPrompt` option as the custom base prompt. A file of the project
 * (or a host's resolved prompt) is the repository's text: it opens and closes
 * none of the prompt's elements.
 */
function optionCustomPrompt(value: NormalizedOptions["systemPrompt"]): CustomPrompt | null {
  if (value === null) return null;
  const { path, text } = value;
  const source: CustomPrompt["source"] = path ? { layer: "option", path } : { layer: "option" };
  // The repository's text is held at render, as a project's SYSTEM.md is (rev56c F3).
  return { text, template: false, source, ...(value.repository ? { repository: true } : {}) };
}
