import { join } from "node:path";
import { builtinHelpers } from "../../../helpers/index.js";
import { pushAll } from "../../_arrays.js";
import { monotonicMs } from "../../_pace.js";
import { toPosix } from "../../_paths.js";
import { checkPresets } from "../../agents/index.js";
import { loadConfigFiles } from "../../config/index.js";
import { type SchemaNode, schemaWithVars } from "../../data.js";
import { capDiagnostics, createEngine, type Engine, templateSize } from "../../engine/index.js";
import { MAX_PROMPT_TAGS, MAX_PROMPT_WORDS } from "../../engine/limits.js";
import { runStep, type StepRunner } from "../../gather/deadline.js";
import { ownFirstGate } from "../../gather/own-first.js";
import { partialBlocksReplaced } from "../../locate/custom.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../../locate/layers.js";
import { emptyLayer } from "../../locate/load-layer.js";
import { checkFolders } from "../../options/folders.js";
import {
  type LoadPromptTemplatesResult,
  loadPromptTemplates,
} from "../../prompt-templates/index.js";
import { preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import { ownAgentDir } from "../../repo-files/index.js";
import { emptyPromptDiagnostics } from "../../sections/empty-prompt.js";
import { layerSections } from "../../sections/layer.js";
import { classDataInfos, classOrderInfos } from "../../sections/order-class.js";
import { type CustomPrompt, renderSections } from "../../sections/render.js";
import type { SectionTemplate } from "../../sections/types.js";
import { type LoadSkillsResult, loadSkills } from "../../skills/index.js";
import type { Diagnostic, DiagnosticLevel, Layer } from "../../types.js";
import { driftDiagnostics, generalRulesDrift } from "../_drift.js";
import type { CheckedTemplate, CheckOptions, CheckReport } from "../types.js";
import { type CheckedLayer, readLayerForCheck, type TemplateFile } from "./_layers.js";
import { dataMatrix } from "./_matrix.js";
import { checkTemplateKept, newSuggestBudget, type TemplateContext } from "./_template-check.js";

/** Handlebars' own helpers that templates may use (`log` is switched off by the engine). */
const HANDLEBARS_HELPERS = ["if", "unless", "each", "with", "lookup"];

/**
 * Validates everything a render would read, without rendering for real: every
 * section, partial and SYSTEM_TEMPLATE.md of every layer is compiled and its
 * helpers, partials and data paths checked against `PROMPT_DATA_SCHEMA`; the
 * layered sections are rendered with a fixed matrix of synthetic data (so an
 * error that needs particular data shows); frontmatter, skill and
 * slash-command template problems come from the same loaders a render uses;
 * the `sysprompt.yaml` files (the user's, and the project's when trusted) are
 * read as the CLI reads them: their problems are reported, and the variables
 * they declare are the `vars.*` names templates may use without a warning.
 * A section ejected from a builtin that has changed since is an info
 * (`section-drift`). Never throws for what the files hold.
 *
 * @throws SyspromptError when `cwd`, or an explicit `agentDir` or `builtinDir`, is not a folder.
 */
export async function checkProject(options: CheckOptions = {}): Promise<CheckReport> {
  const paths = resolveCommonPaths(options);
  const { cwd, home } = paths;
  const named = options.agentDir !== undefined;
  // The same rule as a render: an explicit folder that is not there is the caller's mistake.
  await checkFolders({
    cwd,
    ...(named ? { agentDir: paths.agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir: options.builtinDir } : {}),
  });
  const trusted = options.projectTrusted !== false;
  // And the same agent dir: not one an untrusted project holds (HOME inside the checkout), nor
  // one another user could fill, said as a render says it (`refused`).
  const { dir: agentDir, refused } = await ownAgentDir(paths.agentDir, {
    cwd,
    home,
    trusted,
    named,
  });
  const projectDirName = options.projectDir ?? DEFAULT_PROJECT_DIR;
  const projectDir = join(cwd, projectDirName);
  const loaderOptions = {
    cwd,
    agentDir,
    home,
    projectTrusted: trusted,
    projectDir: projectDirName,
  };

  const builtinDir = options.builtinDir ?? builtinPromptsDir();
  const budget = AbortSignal.timeout(MAX_CHECK_LOAD_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
  // The same budget for the synchronous steps after the loading (the static check, the drift),
  // which never give the timer its turn: they ask the clock between two files.
  const loadEnds = performance.now() + MAX_CHECK_LOAD_MS;
  const outOfTime = () => signal.aborted || performance.now() >= loadEnds;
  const cut: string[] = [];
  /** What a loader stopped by `signal` gives: nothing, and its name in the warning. */
  const stopped =
    <T>(what: string, nothing: T) =>
    (error: unknown): T => {
      if (!signal.aborted) throw error;
      cut.push(what);
      return nothing;
    };
  // What your own folders gave (read first): checked whatever the repository's part costs.
  const skillsSoFar: { value?: LoadSkillsResult } = {};
  const templatesSoFar: { value?: LoadPromptTemplatesResult } = {};
  // As in a render: the repository's parts wait until your skills and templates are read.
  // At half the load budget at the latest, as a render's gate (rev52a F1).
  const { yoursFirst, gate } = ownFirstGate(signal, { openAfterMs: MAX_CHECK_LOAD_MS / 2 });
  const [layers, skills, promptTemplates, presets, config] = await Promise.all([
    Promise.all([
      readLayerForCheck(builtinDir, "builtin", false),
      readLayerForCheck(agentDir, "user", true, undefined, undefined, { home, trusted, cwd }),
      ...(trusted
        ? [
            gate()
              .then(() =>
                readLayerForCheck(projectDir, "project", true, { start: cwd, home }, signal),
              )
              .catch(
                stopped<CheckedLayer>("project's sections and partials", {
                  loaded: emptyLayer("project"),
                  partials: [],
                }),
              ),
          ]
        : []),
    ]),
    yoursFirst((own) =>
      loadSkills({ ...loaderOptions, signal, soFar: skillsSoFar, beforeProject: own.thenProject }),
    ).catch((error: unknown) =>
      stopped("skills", skillsSoFar.value ?? { skills: [], diagnostics: [] })(error),
    ),
    yoursFirst((own) =>
      loadPromptTemplates({
        ...loaderOptions,
        signal,
        soFar: templatesSoFar,
        beforeProject: own.thenProject,
      }),
    ).catch((error: unknown) =>
      stopped(
        "slash-command templates",
        templatesSoFar.value ?? { templates: [], diagnostics: [] },
      )(error),
    ),
    checkPresets({ builtinDir, agentDir, projectDir, trusted, cwd, home }, signal).catch(
      stopped("presets", [] as Diagnostic[]),
    ),
    // Read as the CLI's render reads them: their problems, and the variables templates may use.
    loadConfigFiles({ cwd, agentDir, projectDir, projectTrusted: trusted, home }),
  ]);
  const vars: Record<string, string> = Object.assign(
    {},
    ...config.files.map((f) => f.values.vars ?? {}),
  );

  // An untrusted project's `project-untrusted` info is the render's (`renderedDiagnostics`).
  const diagnostics: Diagnostic[] = refused ? [refused] : [];
  for (const layer of layers) pushAll(diagnostics, layer.loaded.diagnostics);
  pushAll(diagnostics, config.diagnostics);

  const engine = createEngine();
  const {
    templates,
    problems,
    cut: templatesCut,
  } = checkTemplates(layers, engine, schemaWithVars(Object.keys(vars)), outOfTime);
  pushAll(diagnostics, problems);
  const failed = new Set(problems.filter((d) => d.level === "error").map((d) => d.path));
  const stacks = variantStacks(layers);
  // Every render would compile what the static check left out, a prompt's total each time; and
  // past check's budget, the matrix's 20 s would come on top of it.
  const matrix = templatesCut
    ? {
        cases: 0,
        diagnostics: [
          matrixCut(
            0,
            matrixPlan(stacks, layers, vars).total,
            templatesCut === "tags" ? TAGS_REACHED : TIME_REACHED,
          ),
        ],
      }
    : renderMatrix(stacks, layers, engine, failed, vars);
  pushAll(diagnostics, matrix.diagnostics);
  // Your partial blocks a project's partial fills, in every stack a model may choose (rev97a F2).
  pushAll(
    diagnostics,
    partialBlocksReplaced(
      stacks,
      layers.map((l) => l.loaded),
    ),
  );
  const sections = layerSections(layers.flatMap((l) => l.loaded.sections));
  pushAll(diagnostics, classOrderInfos(sections), classDataInfos(sections));
  pushAll(diagnostics, skills.diagnostics, promptTemplates.diagnostics, presets);
  const overrides = layers.filter((l) => l.loaded.layer !== "builtin");
  const drift = await driftDiagnostics(
    overrides.flatMap((l) => l.loaded.sections),
    builtinDir,
    outOfTime,
  );
  pushAll(diagnostics, drift.diagnostics);
  if (drift.notCompared.length > 0) diagnostics.push(driftCut(drift.notCompared));
  pushAll(
    diagnostics,
    await generalRulesDrift(
      overrides.map((l) => l.loaded),
      builtinDir,
    ),
  );
  // Check's render stops with check (its caller's signal, its budget): none once that has fired.
  const endsAt = monotonicMs() + (loadEnds - performance.now());
  const rendered = await renderedDiagnostics(options, templates, diagnostics, signal, endsAt);
  if (rendered === undefined) cut.push(RENDER_CUT);
  pushAll(diagnostics, rendered ?? []);
  if (cut.length > 0) diagnostics.push(loadCut(cut));

  const sorted = sortDiagnostics(diagnostics);
  return {
    // As a render shows them: a repository's flood of one kind is counted, not listed whole.
    diagnostics: capDiagnostics(sorted),
    counts: countLevels(sorted),
    templates,
    dataCases: matrix.cases,
    skills: skills.skills.length,
    promptTemplates: promptTemplates.templates.length,
  };
}

/**
 * The static half: every template file on its own, against the schema, until
 * the files checked hold one prompt's total of tags, or `outOfTime` (check's
 * budget, asked before each file). The total is counted for each FILE: a
 * render compiles a text once however many files hold it (the engine's
 * `PromptWork` counts each text once), but this check parses, walks and
 * compiles every file, so 279 identical sections and 279 identical partials
 * of 4,285 tags each were all checked under that count, and the matrix
 * rendered after them: 57 s of CPU (issue 24, review rev43d F1).
 */
function checkTemplates(
  layers: readonly CheckedLayer[],
  engine: Engine,
  root: SchemaNode,
  outOfTime: () => boolean,
) {
  const helpers = new Set([...Object.keys(builtinHelpers), ...HANDLEBARS_HELPERS]);
  const partialNames = new Set(layers.flatMap((l) => l.partials.map((p) => p.name)));
  const templates: CheckedTemplate[] = [];
  const problems: Diagnostic[] = [];
  const lowerSections = new Set<string>();
  // The templates checked share one prompt's total of tags: each file is compiled.
  let tags = 0;
  let words = 0;
  const unchecked: string[] = [];
  let cut: "tags" | "time" | undefined;
  // One "did you mean" budget for all the templates: a thousand partials may each call near names.
  const suggestBudget = newSuggestBudget();

  const check = (
    kind: CheckedTemplate["kind"],
    layer: Layer,
    file: TemplateFile,
    context: Partial<TemplateContext>,
  ) => {
    templates.push({ kind, name: file.name, layer, path: file.path });
    // Once one is left out, so is every later one, unscanned.
    if (cut === undefined && outOfTime()) cut = "time";
    if (cut !== undefined) {
      unchecked.push(file.path);
      return;
    }
    // Undefined past the template's own caps: refused before it is parsed, it costs nothing.
    const size = templateSize(file.body);
    tags += size?.tags ?? 0;
    words += size?.words ?? 0;
    if (tags > MAX_PROMPT_TAGS || words > MAX_PROMPT_WORDS) {
      cut = "tags";
      unchecked.push(file.path);
      return;
    }
    // Only the problems kept are built: their messages name what exists.
    const found = checkTemplateKept(
      file.body,
      {
        helpers,
        partials: partialNames,
        root,
        fieldLevel: "error",
        isPartial: false,
        suggestBudget,
        ...context,
      },
      engine,
      MAX_TEMPLATE_PROBLEMS,
    );
    for (const p of found.problems) {
      problems.push({
        level: p.level,
        code: p.code,
        message: p.message,
        path: file.path,
        ...(p.line !== undefined ? { line: file.bodyLine + p.line - 1 } : {}),
        ...(p.column !== undefined ? { column: p.column } : {}),
      });
    }
    if (found.more > 0) {
      problems.push({
        level: found.moreErrors ? "error" : "warning",
        code: "template-problems-capped",
        message: `${found.more} more problems in this template are not shown (${MAX_TEMPLATE_PROBLEMS} are)`,
        path: file.path,
      });
    }
  };

  for (const layer of layers) {
    const name = layer.loaded.layer;
    // A variant's `{{> base}}` is its own layer's plain file, when there is one.
    const plain = new Set(layer.loaded.sections.filter((s) => !s.variant).map((s) => s.name));
    for (const section of layer.loaded.sections) {
      const path = section.source.path ?? "";
      const hasBase =
        lowerSections.has(section.name) ||
        (section.variant !== undefined && plain.has(section.name));
      const partials = hasBase ? new Set([...partialNames, "base"]) : partialNames;
      check("section", name, { ...section, path }, { partials });
    }
    for (const section of layer.loaded.sections) lowerSections.add(section.name);
    for (const partial of layer.partials) {
      // A partial sees whatever data and `base` its caller has; the schema's
      // top level is the usual case, so a miss is only a warning here.
      check("partial", name, partial, {
        partials: new Set([...partialNames, "base"]),
        fieldLevel: "warning",
        isPartial: true,
      });
    }
    if (layer.systemTemplate) check("system-template", name, layer.systemTemplate, {});
  }
  const [first] = unchecked;
  if (first !== undefined) {
    const why =
      cut === "tags"
        ? `the templates checked before these hold more tags than one prompt may compile (${MAX_PROMPT_TAGS} tags, ${MAX_PROMPT_WORDS} words inside tags, each file counted)`
        : `check's ${MAX_CHECK_LOAD_MS / 1000} s for reading and checking the templates had passed (or the caller stopped check)`;
    problems.push({
      level: "warning",
      code: "check-templates-cut",
      message: `${why}; not checked: ${unchecked.length} files, the first ${toPosix(first)}`,
      // At the first file not checked, where a reader of that file looks.
      ...(first ? { path: first } : {}),
    });
  }
  return { templates, problems, cut };
}

/**
 * What a render of the project (the CLI's: the config files read) says, for
 * check to say too: check reads the templates, skills and config itself, but
 * a render reads more (context files and their imports, other agents' rule
 * files and their globs, the project's root markers, …), and check said none
 * of it (review fx80c: a rule's `rule-glob-refused`, which `render` warns of).
 * Not said again: what check said already (the same diagnostic, said once by
 * `capDiagnostics`), and a render's template problem (`template`: compile or
 * run) at a template check compiled and found a problem in itself, whose
 * finding there (with its line, column and data case) says more; a render's
 * other words at that file are said (rev82e F6: a section's unknown
 * frontmatter key hid its `user-text-left-out`).
 * The render stops with check: none once `signal` (the caller's, check's budget) has fired,
 * its steps given up at `endsAt` (on `monotonicMs`' clock) if that comes before its deadline,
 * its gathering ended when `signal` fires, and then nothing of it said: undefined (review
 * rev88d F2: an aborted check still ran a whole render, with its own 5 s deadline).
 */
async function renderedDiagnostics(
  options: CheckOptions,
  templates: readonly CheckedTemplate[],
  said: readonly Diagnostic[],
  signal: AbortSignal,
  endsAt: number,
): Promise<Diagnostic[] | undefined> {
  if (signal.aborted) return undefined;
  const runner: StepRunner = (step, deadline, clock) =>
    runStep(step, Math.min(deadline, endsAt), clock);
  const prepared = await preparePrompt(
    {
      configFiles: true,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.agentDir !== undefined ? { agentDir: options.agentDir } : {}),
      ...(options.projectDir !== undefined ? { projectDir: options.projectDir } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.home !== undefined ? { home: options.home } : {}),
      ...(options.builtinDir !== undefined ? { builtinDir: options.builtinDir } : {}),
      ...(options.projectTrusted === false ? { projectTrusted: false } : {}),
    },
    runner,
    "cli",
    signal,
  );
  if (signal.aborted) return undefined;
  const checked = new Set(templates.map((t) => t.path));
  const found = new Set(
    said.flatMap((d) => (d.path !== undefined && checked.has(d.path) ? [d.path] : [])),
  );
  const saidKeys = new Set(said.map(sameDiagnostic));
  // Only the render's template problem (compile or run) is left to check's finding there: the
  // rest at that file (`user-text-left-out`: your section replaced) is said (rev82e F6).
  return renderPrepared(prepared).diagnostics.filter(
    (d) =>
      !saidKeys.has(sameDiagnostic(d)) &&
      !(d.code === "template" && d.path !== undefined && found.has(d.path)),
  );
}

/** A diagnostic's whole content: two equal ones are said once (and counted once). */
function sameDiagnostic(d: Diagnostic): string {
  return JSON.stringify([d.level, d.code, d.path, d.line, d.column, d.message]);
}

/** Problems reported for one template; the rest are counted in one more. */
export const MAX_TEMPLATE_PROBLEMS = 20;

/**
 * The dynamic half: the layered sections rendered with every data case, once
 * with the plain files and once more for each per-model variant (chosen in
 * its layer, as a model its globs match would choose it). A failure is
 * reported once (with the first case that shows it), and not at all for a
 * file whose static check already found an error: that error says more.
 */
function renderMatrix(
  stacks: readonly SectionTemplate[][],
  layers: readonly CheckedLayer[],
  engine: Engine,
  failed: ReadonlySet<string | undefined>,
  vars: Readonly<Record<string, string>>,
) {
  const { cases, total } = matrixPlan(stacks, layers, vars);
  const partials: Record<string, string> = Object.assign(
    {},
    ...layers.map((l) => l.loaded.partials),
  );
  const failedPartials = layers
    .flatMap((l) => l.partials)
    .filter((p) => failed.has(p.path))
    .map((p) => `In partial "${p.name}"`);
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const work = { renders: 0, chars: 0, started: performance.now() };
  for (const templates of stacks) {
    const empty: string[] = [];
    for (const { label, data, customPrompt } of cases) {
      if (matrixFull(work)) {
        diagnostics.push(matrixCut(work.renders, total));
        return { cases: cases.length, diagnostics };
      }
      const out = renderSections({ templates, partials, data, customPrompt }, engine);
      work.renders++;
      work.chars += out.text.length;
      if (emptyPromptDiagnostics(out.sections).length > 0) empty.push(label);
      for (const d of out.diagnostics) {
        if (failed.has(d.path) || failedPartials.some((p) => d.message.startsWith(p))) continue;
        const key = `${d.path}:${d.line}:${d.column}:${d.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        diagnostics.push({
          ...d,
          code: "template-render",
          message: `${d.message} (data: ${label})`,
        });
      }
    }
    const problem = emptyPromptProblem(empty, cases.length);
    // Once: a variant's stack that is empty too says nothing new.
    if (problem && !diagnostics.some((d) => d.code === problem.code)) diagnostics.push(problem);
  }
  return { cases: cases.length, diagnostics };
}

/**
 * Each stack a model may choose: the plain files', then one for each per-model
 * variant (chosen in its layer, as a model its globs match would choose it).
 */
function variantStacks(layers: readonly CheckedLayer[]): SectionTemplate[][] {
  const files = layers.flatMap((l) => l.loaded.sections);
  return [
    layerSections(files),
    ...files
      .filter((f) => f.variant)
      .map((variant) =>
        layerSections(files, (candidates) => candidates.find((c) => c === variant)),
      ),
  ];
}

/** What the matrix renders: each variant's stack (the plain files' first) with every data case. */
function matrixPlan(
  stacks: readonly SectionTemplate[][],
  layers: readonly CheckedLayer[],
  vars: Readonly<Record<string, string>>,
) {
  const systemTemplates: CustomPrompt[] = layers.flatMap((l) =>
    l.systemTemplate
      ? [
          {
            text: l.systemTemplate.body,
            template: true,
            line: 1,
            source: { layer: l.loaded.layer, path: l.systemTemplate.path },
          },
        ]
      : [],
  );
  const cases = dataMatrix(systemTemplates, vars);
  return { cases, total: stacks.length * cases.length };
}

/** Why the matrix renders nothing after check-templates-cut. */
const TAGS_REACHED =
  "the templates checked reached one prompt's total of tags (check-templates-cut), and each render would compile the rest again: none is rendered";
const TIME_REACHED =
  "the templates were not all checked within check's budget (check-templates-cut), and the matrix's own time would come on top of it: none is rendered";

/**
 * What the matrix may cost: renders, text rendered, and time. Every data case
 * with every variant's stack is cases × (variants + 1) renders of up to 8 MiB
 * each; a project of many variants and large sections ran for 250 s and 3 GB.
 * Past any of these the rest is not rendered, with a warning.
 */
export const MAX_CHECK_RENDERS = 240;
export const MAX_CHECK_CHARS = 64 * 1024 * 1024;
export const MAX_CHECK_MATRIX_MS = 20_000;

/**
 * What reading the skills, slash-command templates, presets and the project's layer may take:
 * thousands of files whose frontmatter a repository writes, each parsed
 * synchronously (200 skills and 100 templates of YAML error floods ran for
 * 243 s, 40 presets for 69 s). Past it, the rest is not checked.
 */
export const MAX_CHECK_LOAD_MS = 20_000;

/** What {@link loadCut} names for check's render of the project, when check stopped before it or during it. */
const RENDER_CUT = "files only a render reads (rule and context files: check's render)";

function loadCut(what: readonly string[]): Diagnostic {
  return {
    level: "warning",
    code: "check-load-cut",
    message: `stopped reading the ${what.join(", ")} after ${MAX_CHECK_LOAD_MS / 1000} s (or when the caller stopped check): what was not read is not checked, and no problem of theirs is reported`,
  };
}

/** The ejected sections left uncompared with their builtins past check's budget. */
function driftCut(notCompared: readonly string[]): Diagnostic {
  const [first = ""] = notCompared;
  return {
    level: "warning",
    code: "check-drift-cut",
    message: `check's ${MAX_CHECK_LOAD_MS / 1000} s for reading and checking had passed (or the caller stopped check): ${notCompared.length} sections carrying ejected-from were not compared with the builtin they were copied from, the first ${toPosix(first)}`,
    ...(first ? { path: first } : {}),
  };
}

function matrixFull(work: { renders: number; chars: number; started: number }): boolean {
  return (
    work.renders >= MAX_CHECK_RENDERS ||
    work.chars >= MAX_CHECK_CHARS ||
    performance.now() - work.started >= MAX_CHECK_MATRIX_MS
  );
}

/** The matrix stopped after `done` of its `total` renders: at its caps, or for `why`. */
function matrixCut(done: number, total: number, why?: string): Diagnostic {
  const reason =
    why ??
    `past ${MAX_CHECK_RENDERS} renders, ${MAX_CHECK_CHARS / (1024 * 1024)} MiB of text or ${MAX_CHECK_MATRIX_MS / 1000} s the rest is not rendered`;
  return {
    level: "warning",
    code: "check-matrix-cut",
    message: `rendered ${done} of the ${total} pairs of sections and data (each variant's stack with every data case): ${reason}, so a problem only a render shows is not reported`,
  };
}

/**
 * An empty prompt, as in a render, is an error: with every data case, or
 * with some (naming how many and the first), since a render may meet that data.
 */
function emptyPromptProblem(emptyCases: readonly string[], cases: number): Diagnostic | undefined {
  const [first] = emptyCases;
  const [empty] = emptyPromptDiagnostics([]);
  if (first === undefined || !empty) return undefined;
  const which =
    emptyCases.length === cases
      ? `with every one of the ${cases} data cases`
      : `with ${emptyCases.length} of the ${cases} data cases, the first: ${first}`;
  return { ...empty, message: `${empty.message} (${which})` };
}

function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // Stable: diagnostics of one place keep the order they were found in.
  return [...diagnostics].sort(
    (a, b) =>
      compare(a.path ?? "", b.path ?? "") ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function countLevels(diagnostics: readonly Diagnostic[]): Record<DiagnosticLevel, number> {
  const counts: Record<DiagnosticLevel, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.level]++;
  return counts;
}
