import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { readTextFile } from "./_fs.js";
import type { PromptData } from "./data.js";
import { capMessage, createEngine, type Engine } from "./engine/index.js";
import { loadContextFiles, toPosix } from "./gather/context-files.js";
import { DEFAULT_DEADLINE_MS, type GatherStep, runStep } from "./gather/deadline.js";
import { detectEnvironment } from "./gather/environment.js";
import { buildRules, parseRuleList } from "./gather/rules.js";
import { buildToolSnippets, DEFAULT_TOOLS, parseToolDescriptions } from "./gather/tools.js";
import { builtinTemplates, primeBuiltinCache } from "./locate/builtin-cache.js";
import { buildAppendPrompt, chooseCustomPrompt, readTextOrPath } from "./locate/custom.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveAgentDir } from "./locate/layers.js";
import { emptyLayer, loadLayer } from "./locate/load-layer.js";
import type { SystemPromptOptions } from "./options.js";
import { layerSections } from "./sections/layer.js";
import { type CustomPrompt, type ExtraSection, renderSections } from "./sections/render.js";
import { SECTION_NAME, type SectionTemplate } from "./sections/types.js";
import { loadSkills, selectSkillsTool } from "./skills/index.js";
import type { Skill } from "./skills/types.js";
import { type Diagnostic, type RenderResult, type StepTiming, SyspromptError } from "./types.js";

export const DEFAULT_AGENT_NAME = "a coding agent";

/** Everything gathered for one render: the input of the pure render step. */
export interface PreparedPrompt {
  templates: SectionTemplate[];
  partials: Record<string, string>;
  data: PromptData;
  customPrompt: CustomPrompt | null;
  extraSections: ExtraSection[];
  diagnostics: Diagnostic[];
  steps: StepTiming[];
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

/** The pure half of {@link renderSystemPrompt}: no I/O, same input ⇒ same bytes. */
export function renderPrepared(
  prepared: PreparedPrompt,
  engine: Engine = defaultEngine(),
): RenderResult {
  const out = renderSections(prepared, engine);
  return {
    text: out.text,
    sections: out.sections,
    // Capped: a message may quote a user file's text (a key, a name, a value).
    diagnostics: [...prepared.diagnostics, ...out.diagnostics].map((d) => ({
      ...d,
      message: capMessage(d.message),
    })),
    steps: prepared.steps,
  };
}

/** Locate and gather: every bit of I/O a render needs, bounded by the deadline. */
export async function preparePrompt(options: SystemPromptOptions = {}): Promise<PreparedPrompt> {
  const clock = () => performance.now();
  const started = clock();
  const env = options.env ?? process.env;
  const home = options.home ?? homedir();
  const cwd = resolve(options.cwd ?? process.cwd());
  const now = parseNow(options.now);
  const extraSections = validateSections(options.sections);
  const deadline = started + (options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const trusted = options.projectTrusted !== false;
  const agentDir = resolveAgentDir({ agentDir: options.agentDir, env, home, cwd });
  const projectDir = join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR);
  const builtinDir = options.builtinDir ?? builtinPromptsDir();
  const tools = [...(options.tools ?? DEFAULT_TOOLS)];
  const skillsTool = selectSkillsTool(tools);

  // Explicit arguments first: a bad one is the caller's error, not a diagnostic.
  const optionPrompt = await optionCustomPrompt(options.systemPrompt, cwd);
  const appended = await Promise.all(
    toList(options.appendSystemPrompt).map(
      async (v) => (await readTextOrPath(v, cwd, "--append-system-prompt")).text,
    ),
  );

  const steps = [
    step("builtin", async () => loadBuiltin(builtinDir), {
      layer: emptyLayer("builtin"),
      tools: {},
      rules: [],
    }),
    step("user", () => loadLayer(agentDir, "user", { customFiles: true }), emptyLayer("user")),
    step(
      "project",
      trusted ? () => loadLayer(projectDir, "project", { customFiles: true }) : undefined,
      emptyLayer("project"),
    ),
    step(
      "context",
      options.noContextFiles ? undefined : () => loadContextFiles({ cwd, agentDir }),
      { files: [], diagnostics: [] },
    ),
    step(
      "skills",
      skillsTool
        ? () =>
            loadSkills({
              cwd,
              agentDir,
              home,
              projectTrusted: trusted,
              projectDir: options.projectDir ?? DEFAULT_PROJECT_DIR,
              ...(options.skillPaths ? { paths: [...options.skillPaths] } : {}),
            })
        : undefined,
      { skills: [] as Skill[], diagnostics: [] as Diagnostic[] },
    ),
  ] as const;
  const [builtin, user, project, context, skills] = await Promise.all([
    // Not bounded: without the builtin templates there is no prompt at all, and
    // they sit beside the code that is already running.
    runStep(steps[0], Number.POSITIVE_INFINITY, clock),
    runStep(steps[1], deadline, clock),
    runStep(steps[2], deadline, clock),
    runStep(steps[3], deadline, clock),
    runStep(steps[4], deadline, clock),
  ]);

  const layers = [builtin.value.layer, user.value, project.value];
  const diagnostics: Diagnostic[] = [];
  if (!trusted) {
    diagnostics.push({
      level: "info",
      code: "project-untrusted",
      message: `project is not trusted: ${toPosix(projectDir)} (SYSTEM, APPEND, sections, skills) skipped; context files still load`,
    });
  }
  for (const outcome of [builtin, user, project, context, skills])
    diagnostics.push(...outcome.diagnostics);
  for (const layer of layers) diagnostics.push(...layer.diagnostics);
  diagnostics.push(...context.value.diagnostics, ...skills.value.diagnostics);

  const visibleSkills = skills.value.skills.filter((s) => !s.disableModelInvocation);
  const customPrompt = chooseCustomPrompt(optionPrompt, layers);
  const data: PromptData = {
    agentName: options.agentName ?? DEFAULT_AGENT_NAME,
    cwd: toPosix(cwd),
    date: now.toISOString().slice(0, 10),
    model: options.model ?? null,
    tools,
    toolSnippets: buildToolSnippets(tools, builtin.value.tools, options.toolSnippets),
    rules: buildRules({
      tools,
      ...(options.toolGuidelines ? { toolGuidelines: options.toolGuidelines } : {}),
      ...(options.promptGuidelines ? { promptGuidelines: options.promptGuidelines } : {}),
      generalRules: builtin.value.rules,
    }),
    environment: options.environment
      ? [...options.environment]
      : detectEnvironment(options.machine ?? { platform: process.platform, arch: process.arch }),
    contextFiles: context.value.files.map(({ path, content }) => ({ path, content })),
    agentsMd: [],
    workspaceTree: null,
    roots: (options.roots ?? []).map((r) => toPosix(resolve(cwd, r))),
    skills: skillsTool
      ? visibleSkills.map((s) => ({
          name: s.name,
          description: s.description,
          location: toPosix(s.filePath),
        }))
      : [],
    skillsTool,
    appendPrompt: buildAppendPrompt(layers, appended),
    customPrompt: customPrompt?.text ?? null,
    docs: options.docs ?? null,
  };
  return {
    templates: layerSections(layers.flatMap((l) => l.sections)),
    partials: Object.assign({}, ...layers.map((l) => l.partials)),
    data,
    customPrompt,
    extraSections,
    diagnostics,
    steps: [builtin.timing, user.timing, project.timing, context.timing, skills.timing],
  };
}

function step<T>(name: string, run: (() => Promise<T>) | undefined, fallback: T): GatherStep<T> {
  return { name, run, fallback };
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

async function optionCustomPrompt(
  value: string | undefined,
  cwd: string,
): Promise<CustomPrompt | null> {
  if (value === undefined) return null;
  const { text, path } = await readTextOrPath(value, cwd, "--system-prompt");
  return { text, template: false, source: path ? { layer: "option", path } : { layer: "option" } };
}

function toList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : [...value];
}

/** An ISO date-time without a zone; JavaScript would read it as local time. */
const ZONELESS_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

function parseNow(now: SystemPromptOptions["now"]): Date {
  // Zone-less times are UTC, so the date never depends on the machine's time zone.
  const value = typeof now === "string" && ZONELESS_TIME.test(now) ? `${now}Z` : now;
  const date = value === undefined ? new Date() : value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime()) || (typeof now === "string" && !isCalendarDate(now))) {
    throw new SyspromptError(
      "bad-option",
      `now: "${String(now)}" is not a valid date; pass an ISO 8601 time`,
    );
  }
  return date;
}

/** JavaScript rolls 2026-02-30 over to March; a clock option that does so is a typo. */
function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return true;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

function validateSections(sections: SystemPromptOptions["sections"]): ExtraSection[] {
  const out: ExtraSection[] = [];
  for (const [name, text] of Object.entries(sections ?? {})) {
    if (!SECTION_NAME.test(name) || name === "preamble") {
      throw new SyspromptError(
        "bad-option",
        `sections: "${name}" is not a valid section name; use ${SECTION_NAME.source}, not "preamble"`,
      );
    }
    if (typeof text !== "string") {
      throw new SyspromptError("bad-option", `sections: the value of "${name}" must be a string`);
    }
    out.push({ name, text });
  }
  return out;
}
