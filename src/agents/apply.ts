import type { NormalizedOptions, SystemPromptOptions } from "../options.js";
import { matchesModel } from "../sections/variants.js";
import type { AgentPreset, PresetReport } from "./types.js";

/** How the prompt names the files of a rule source an agent reads itself. */
const RULE_SOURCE_FILES: Readonly<Record<string, string>> = {
  claude: ".claude/rules",
  gemini: "GEMINI.md",
};

/** What a preset changes in a render, before gathering starts. */
export interface AppliedPreset {
  /** The options with the preset's tools and rule sources in place. */
  opts: NormalizedOptions;
  /** The preamble's name: the `agentName` option, else the preset's; undefined for the default. */
  agentName: string | undefined;
  /** The preset's tool descriptions, between tools.md's and the caller's `toolSnippets`. */
  toolDescriptions: Readonly<Record<string, string>>;
  /** For the context step: the files the agent loads itself; undefined for none. */
  agentLoads: { agent: string; names: string[][]; imports: boolean } | undefined;
  /** What the agent sends itself, by file name, for the templates' `agentLoads`. */
  agentLoadsNames: string[];
  /** The agent replaces its `${…}` variables in the exported file (`export.substitutes`). */
  substitutes: boolean;
  /** The project's preset file when `report.agentSends` came from it. */
  agentSendsFromProject?: string;
  /** The report, less the context files left out (the context step finds those). */
  report: Omit<PresetReport, "contextFilesLeftOut">;
}

/**
 * Applies a preset to checked options. Pure. The caller's explicit choices
 * win: `tools` over the preset's tools, `agentName` over its name,
 * `toolSnippets` over its descriptions. Rule sources the agent loads itself
 * are never read, at project or user level (`claude` and `user:claude`),
 * even when `ruleSources` names them: the agent would get them twice. A
 * project's preset leaves out the project's formats only.
 */
export function applyPreset(
  opts: NormalizedOptions,
  options: SystemPromptOptions,
  preset: AgentPreset,
): AppliedPreset {
  const toolSet = chooseToolSet(preset, options.model, options.agentMode);
  const presetToolTable =
    toolSet === null ? preset.tools : (preset.toolSets[toolSet]?.tools ?? null);
  const presetTools = presetToolTable ? Object.keys(presetToolTable) : null;
  const tools = options.tools === undefined && presetTools ? presetTools : opts.tools;
  // A project's preset leaves your user-level folders (user:claude) in.
  const own = new Set(
    preset.ruleSources.flatMap((s) => (preset.ruleSourcesFromProject ? [s] : [s, `user:${s}`])),
  );
  const ruleSources = opts.ruleSources.filter((s) => !own.has(s));
  const ruleSourcesLeftOut = opts.ruleSources.filter((s) => own.has(s));
  const agentName = options.agentName ?? preset.agentName ?? undefined;
  return {
    opts: { ...opts, tools: [...tools], ruleSources },
    agentName,
    agentLoadsNames: [
      ...new Set([
        ...preset.contextFiles.flat(),
        ...preset.ruleSources.map((s) => RULE_SOURCE_FILES[s] ?? s),
      ]),
    ],
    toolDescriptions: presetToolTable ?? {},
    ...(preset.agentSendsFromProject !== undefined
      ? { agentSendsFromProject: preset.agentSendsFromProject }
      : {}),
    substitutes: preset.export?.substitutes === true,
    agentLoads:
      preset.contextFiles.length > 0
        ? {
            agent: preset.name,
            names: preset.contextFiles.map((e) => [...e]),
            imports: preset.imports,
          }
        : undefined,
    report: {
      name: preset.name,
      sources: preset.sources,
      agentName: options.agentName === undefined ? preset.agentName : null,
      tools: options.tools === undefined ? presetTools : null,
      described: Object.keys(presetToolTable ?? {}),
      toolSet,
      agentSends: [...preset.agentSends],
      verifiedWith: preset.verifiedWith,
      ruleSourcesLeftOut,
      export: preset.export,
    },
  };
}

/**
 * The index of the preset's first tool set that the model and mode choose, or null for the
 * plain `tools`. A set's `models` globs must match the model and its `modes` must name the
 * mode; a set that names either needs it given.
 */
export function chooseToolSet(
  preset: Pick<AgentPreset, "toolSets">,
  model: string | undefined,
  mode: string | undefined,
): number | null {
  const i = preset.toolSets.findIndex(
    (set) =>
      (set.models === undefined || (!!model && matchesModel(set.models, model))) &&
      (set.modes === undefined || (!!mode && set.modes.includes(mode))),
  );
  return i === -1 ? null : i;
}
