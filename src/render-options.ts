import { toPosix } from "./_paths.js";
import { didYouMean } from "./_suggest.js";
import {
  type AgentPreset,
  type AppliedPreset,
  applyPreset,
  loadChosenPreset,
} from "./agents/index.js";
import { agentConfigFile, type ConfigFile, type OptionProvenance } from "./config/index.js";
import { deadlineSignal } from "./gather/deadline.js";
import type { GatherInputs } from "./gather/inputs.js";
import { isBlankPrompt } from "./options/normalize.js";
import type { OptionName } from "./options/registry.js";
import type { NormalizedOptions, SystemPromptOptions } from "./options.js";
import { type GivenBy, type OptionOrigin, resolveOptions } from "./resolve-options.js";
import { type Diagnostic, SyspromptError } from "./types.js";

/** A render's options, resolved once: what the gathering steps and the data are built from. */
export interface ResolvedRender extends GatherInputs {
  /** The caller's options with the config files' values. */
  options: SystemPromptOptions;
  /** The same, normalised, with the agent preset's tools and rule sources in place. */
  opts: NormalizedOptions;
  /** What the agent preset changes in the render, with its report. */
  preset: AppliedPreset;
  /** Where each config key's value came from (an option, a `sysprompt.yaml`, the default). */
  provenance: OptionProvenance;
  /** Where each option of the registry got its value: who gave it (`givenBy`), a `sysprompt.yaml`, or the default. */
  origins: Record<OptionName, OptionOrigin>;
  /** The `sysprompt.yaml` files looked at (found or not); absent when `configFiles` is off. */
  configFiles?: string[];
  /** What resolving found to say: an untrusted project, the preset's and the config files' problems. */
  diagnostics: Diagnostic[];
}

/**
 * The caller's options, the config files' and the agent preset's, as one
 * resolved set. A bad explicit option throws ({@link SyspromptError}); a bad
 * value in a file is a diagnostic. Runs before the deadline starts: the files
 * may set it.
 */
export async function resolveRenderOptions(
  given: SystemPromptOptions,
  givenBy: GivenBy = "api",
): Promise<ResolvedRender> {
  // A bad explicit argument throws (the caller's error); a config file's bad value is a diagnostic.
  const { config, options, normalized, provenance: origins } = await resolveOptions(given, givenBy);
  // The preset decides inputs of the steps (tools, rule sources, context files), so it comes first.
  // Without an agent: the default pi, whose builtin file sets nothing (see prompts/agents/pi.yaml),
  // so only a user's or project's own pi.yaml is read.
  // Its project root is searched within the deadline, which counts from about now (rev60b F1).
  const signal = deadlineSignal(normalized.deadlineMs);
  const loaded = await loadChosenPreset(
    options.agent,
    { ...normalized, ...(signal ? { signal } : {}) },
    given.agent === undefined ? agentConfigFile(config.files) : undefined,
  );
  const modeProblem = unknownAgentMode(options.agentMode, given, loaded.preset, config.files);
  const preset = applyPreset(normalized, options, loaded.preset);
  const agentNotice = loaded.ignored ? [] : projectAgentDropsYours(given, config.files, preset);
  // A file's agent that names no preset was ignored: the agent in use is the default.
  if (loaded.ignored) preset.report = { ...preset.report, ignored: loaded.ignored };
  const provenance = loaded.ignored
    ? { ...config.provenance, agent: "default" }
    : config.provenance;
  const { opts } = preset;
  const blank = blankPromptWarning(given, givenBy);
  const untrusted: Diagnostic[] = opts.trusted
    ? []
    : [
        {
          level: "info",
          code: "project-untrusted",
          message: `project is not trusted: ${toPosix(opts.projectDir)} (SYSTEM, APPEND, sections, skills) skipped; context files still load`,
        },
      ];
  return {
    options,
    opts,
    agentLoads: preset.agentLoads,
    nestedContextFiles: loaded.preset.nestedContextFiles,
    preset,
    provenance,
    origins: loaded.ignored ? { ...origins, agent: { source: "default" } } : origins,
    ...(given.configFiles === true ? { configFiles: config.files.map((f) => f.path) } : {}),
    diagnostics: [
      ...blank,
      ...untrusted,
      ...loaded.diagnostics,
      ...config.diagnostics,
      ...modeProblem,
      ...agentNotice,
    ],
  };
}

/**
 * A blank `systemPrompt` is taken as not given ({@link isBlankPrompt}), as pi takes an empty
 * `--system-prompt`, and said: a wrapper's unset variable is a mistake to show, not to act on.
 */
function blankPromptWarning(given: SystemPromptOptions, givenBy: GivenBy): Diagnostic[] {
  if (given.systemPrompt === undefined || !isBlankPrompt(given.systemPrompt)) return [];
  const name = givenBy === "cli" ? "--system-prompt" : "systemPrompt";
  return [
    {
      level: "warning",
      code: "system-prompt-blank",
      message: `${name} is ${given.systemPrompt === "" ? "empty" : "blank"}: taken as not given (pi too keeps its default prompt for an empty --system-prompt), so the base sections, yours too, and the SYSTEM.md files stay; give a text or a file to replace them, or leave it out`,
    },
  ];
}

/**
 * A project's `agent:` chooses the preset, and a preset leaves out the rule
 * sources its agent loads itself, your own folders too (`user:claude` for
 * claude-code: the agent would read them twice). That is by design, but the
 * project chose it: a warning at the project's `agent:` line says which of
 * your sources it took out and how to have them back.
 */
function projectAgentDropsYours(
  given: SystemPromptOptions,
  files: readonly ConfigFile[],
  preset: AppliedPreset,
): Diagnostic[] {
  if (given.agent !== undefined) return [];
  const file = files.findLast((f) => f.values.agent !== undefined);
  const yours = preset.report.ruleSourcesLeftOut.filter((s) => s.startsWith("user:"));
  if (file?.layer !== "project" || yours.length === 0) return [];
  const line = file.lines.get("agent");
  const name = preset.report.name;
  return [
    {
      level: "warning",
      code: "config-project-agent-user-rules",
      message: `agent: ${name} (the project's) leaves out your rule sources ${yours.join(", ")}, which ${name} loads itself: the prompt is for ${name}; for another agent, give --agent NAME (the project's agent: then does not count) and your rules are back`,
      path: file.path,
      ...(line !== undefined ? { line } : {}),
    },
  ];
}

/** The mode name of a preset's plain `tools`, valid for every preset. */
const DEFAULT_AGENT_MODE = "default";

/**
 * The agent's mode must be one the chosen preset's tool sets name: a typo
 * (`YOLO`, `bogus`) silently gave the plain tool list, the very thing a mode
 * picks. The caller's own mode throws (exit 2 in the CLI); a config file's is a
 * located error, and the plain tools apply.
 */
function unknownAgentMode(
  mode: string | undefined,
  given: SystemPromptOptions,
  preset: AgentPreset,
  files: readonly ConfigFile[],
): Diagnostic[] {
  if (mode === undefined) return [];
  const named = preset.toolSets.flatMap((set) => set.modes ?? []);
  // `default` names the plain tools, the mode every agent starts in.
  const modes = [...new Set([DEFAULT_AGENT_MODE, ...named])];
  if (modes.includes(mode)) return [];
  const shown = JSON.stringify(mode.length > 60 ? `${mode.slice(0, 60)}…` : mode);
  const valid =
    named.length === 0
      ? `the ${preset.name} preset has no modes but ${DEFAULT_AGENT_MODE} (its tools do not change with one)`
      : `the modes of ${preset.name} are: ${modes.join(", ")}`;
  const near = didYouMean(mode, modes);
  const message = `agent-mode: no mode ${shown}${near ? ` (${near})` : ""}; ${valid}`;
  if (given.agentMode !== undefined) throw new SyspromptError("bad-option", message);
  const file = files.findLast((f) => f.values.agentMode !== undefined);
  const line = file?.lines.get("agent-mode");
  return [
    {
      level: "error",
      code: "config-bad-value",
      message: `${message}; the key is ignored`,
      ...(file ? { path: file.path } : {}),
      ...(line !== undefined ? { line } : {}),
    },
  ];
}
