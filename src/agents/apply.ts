import type { NormalizedOptions, SystemPromptOptions } from "../options.js";
import type { AgentPreset, PresetReport } from "./types.js";

/** What a preset changes in a render, before gathering starts. */
export interface AppliedPreset {
  /** The options with the preset's tools and rule sources in place. */
  opts: NormalizedOptions;
  /** The preamble's name: the `agentName` option, else the preset's; undefined for the default. */
  agentName: string | undefined;
  /** The preset's tool descriptions, between tools.md's and the caller's `toolSnippets`. */
  toolDescriptions: Readonly<Record<string, string>>;
  /** For the context step: the files the agent loads itself; undefined for none. */
  agentLoads: { agent: string; names: string[] } | undefined;
  /** The report, less the context files left out (the context step finds those). */
  report: Omit<PresetReport, "contextFilesLeftOut">;
}

/**
 * Applies a preset to checked options. Pure. The caller's explicit choices
 * win: `tools` over the preset's tools, `agentName` over its name,
 * `toolSnippets` over its descriptions. Rule sources the agent loads itself
 * are never read, at project or user level (`claude` and `user:claude`),
 * even when `ruleSources` names them: the agent would get them twice.
 */
export function applyPreset(
  opts: NormalizedOptions,
  options: SystemPromptOptions,
  preset: AgentPreset,
): AppliedPreset {
  const presetTools = preset.tools ? Object.keys(preset.tools) : null;
  const tools = options.tools === undefined && presetTools ? presetTools : opts.tools;
  const own = new Set(preset.ruleSources.flatMap((s) => [s, `user:${s}`]));
  const ruleSources = opts.ruleSources.filter((s) => !own.has(s));
  const ruleSourcesLeftOut = opts.ruleSources.filter((s) => own.has(s));
  const agentName = options.agentName ?? preset.agentName ?? undefined;
  return {
    opts: { ...opts, tools: [...tools], ruleSources },
    agentName,
    toolDescriptions: preset.tools ?? {},
    agentLoads:
      preset.contextFiles.length > 0
        ? { agent: preset.name, names: [...preset.contextFiles] }
        : undefined,
    report: {
      name: preset.name,
      sources: preset.sources,
      agentName: options.agentName === undefined ? preset.agentName : null,
      tools: options.tools === undefined ? presetTools : null,
      described: Object.keys(preset.tools ?? {}),
      ruleSourcesLeftOut,
      export: preset.export,
    },
  };
}
