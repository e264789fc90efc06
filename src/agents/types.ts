import type { Layer } from "../types.js";

/** How `{path}` is written into an export setting line. */
export type PathQuote = "shell" | "toml" | "json";

/** Where `sysprompt export` writes an agent's prompt, and the line that makes the agent read it. */
export interface ExportSpec {
  /** The file's name under the default export folder (a plain name, no folders). */
  file: string;
  /** Where the setting line goes, in words (`~/.codex/config.toml`). */
  where: string;
  /** The line to add, with `{path}` where the exported file's path goes. */
  setting: string;
  /** How `{path}` is quoted in `setting`. */
  quote: PathQuote;
}

/**
 * One agent preset (`prompts/agents/<name>.yaml`, overridden key by key by
 * `<agentDir>/agents/<name>.yaml`, then `.pi/agents/<name>.yaml`): what an
 * agent other than pi needs from the prompt.
 */
export interface AgentPreset {
  name: string;
  description: string | null;
  /** The name the preamble uses (`agentName`); null: the default. */
  agentName: string | null;
  /** The agent's own tools, in order, with one-line descriptions; null: the default tools. */
  tools: Record<string, string> | null;
  /** Context file names the agent loads itself: a project folder holding one is left out. */
  contextFiles: string[];
  /** Rule sources (`claude`, `gemini`…) the agent loads itself: not read. */
  ruleSources: string[];
  /**
   * Context file names the agent loads itself from a folder below the
   * working folder when a tool call touches it (Claude Code's nested
   * CLAUDE.md): `sysprompt hook` leaves such a folder's file out.
   */
  nestedContextFiles: string[];
  /** How to export for this agent; null: nothing to export (pi). */
  export: ExportSpec | null;
  /** The files that made it, lowest layer first. */
  sources: { layer: Layer; path: string }[];
}

/** What a preset changed in this render: for `explain` and `sections`. */
export interface PresetReport {
  name: string;
  sources: { layer: Layer; path: string }[];
  /** The preamble's name, when the preset set it (and no agentName option beat it). */
  agentName: string | null;
  /** The tools the preset selected (null: the caller chose, or the preset has none). */
  tools: string[] | null;
  /** Tools the preset described (its own one-line descriptions). */
  described: string[];
  /** Context files left out because the agent loads them itself. */
  contextFilesLeftOut: string[];
  /** Rule sources not read because the agent loads them itself. */
  ruleSourcesLeftOut: string[];
  /** How `sysprompt export` writes for this agent; null: nothing to export (pi). */
  export: ExportSpec | null;
}
