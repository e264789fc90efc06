import type { Layer } from "../types.js";

/**
 * How `{path}` is written into an export setting line: a shell word, the inside of a TOML
 * or JSON string, or (`opencode`) the inside of a JSON string that opencode's `{file:PATH}`
 * reads from the raw text before it parses the JSON.
 */
export type PathQuote = "shell" | "env" | "toml" | "json" | "opencode";

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
  /**
   * The agent replaces its own `${…}` variables anywhere in the file (Gemini CLI's
   * `${AgentSkills}`, `${SubAgents}`, `${AvailableTools}`, `${<tool>_ToolName}`): a
   * repository's text writes them as `$\{…}` (`src/_prompt-text.ts`). Absent: it does not.
   */
  substitutes?: true;
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
  /**
   * What the agent loads itself in each project folder, as alternatives in its order of
   * preference: the first entry of which the folder holds a file is what the agent reads
   * there (every file of that entry). sysprompt then leaves its own file of that folder out
   * when it is one of them, or, with `imports`, one they import; otherwise it keeps it, so
   * nothing is lost and nothing doubled.
   */
  contextFiles: string[][];
  /** The agent expands `@path` imports in the files it loads itself (Claude Code). */
  imports: boolean;
  /**
   * Tool sets that replace `tools` for some models or modes, first match wins: `models`
   * globs match the `model` option, `modes` names the `agentMode` option (an entry with
   * both needs both).
   */
  toolSets: ToolSet[];
  /** Sections the agent sends itself (its date, working folder, environment): left out. */
  agentSends: string[];
  /** The project's preset file when `agentSends` came from it ({@link agentSendsKept} judges it). */
  agentSendsFromProject?: string;
  /** The agent version this preset's data was checked against by running it; null: none. */
  verifiedWith: string | null;
  /** Rule sources (`claude`, `gemini`…) the agent loads itself: not read. */
  ruleSources: string[];
  /**
   * `ruleSources` came from a project's preset: it leaves out only the
   * project's own formats, never `sysprompt` nor a `user:` folder (your rules).
   */
  ruleSourcesFromProject: boolean;
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

/** One of a preset's alternative tool sets. */
export interface ToolSet {
  models?: string[];
  modes?: string[];
  tools: Record<string, string>;
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
  /** Which tool set the model or mode chose: its index in `toolSets`; null: the plain `tools`. */
  toolSet: number | null;
  /** Sections left out because the agent sends them itself. */
  agentSends: string[];
  /** The agent version the preset was checked against. */
  verifiedWith: string | null;
  /** Context files left out because the agent loads them itself. */
  contextFilesLeftOut: string[];
  /** Rule sources not read because the agent loads them itself. */
  ruleSourcesLeftOut: string[];
  /** How `sysprompt export` writes for this agent; null: nothing to export (pi). */
  export: ExportSpec | null;
  /** A sysprompt.yaml's `agent:` that names no preset (its file and line): ignored, the default in use. */
  ignored?: { path: string; line?: number };
}
