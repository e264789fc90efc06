/**
 * The data every section template may use. This file is the one place the
 * schema is written down: `gather` fills it, `render` reads it, and
 * `sysprompt check` validates templates against {@link PROMPT_DATA_FIELDS}.
 */

export interface EnvironmentEntry {
  label: string;
  value: string;
}

export interface ContextFile {
  /** Path as shown to the model (absolute, forward slashes). */
  path: string;
  content: string;
}

export interface SkillEntry {
  name: string;
  description: string;
  /** Path of the skill's file, forward slashes. */
  location: string;
}

export interface WorkspaceTree {
  rendered: string;
  truncated: boolean;
}

export interface ToolSnippet {
  name: string;
  description: string;
}

export interface PromptData {
  agentName: string;
  /** Working directory with forward slashes. */
  cwd: string;
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  model: string | null;
  /** Selected tool names, in selection order. */
  tools: string[];
  /** The selected tools that have a one-line description, in selection order. */
  toolSnippets: ToolSnippet[];
  /** Behaviour rules, trimmed and deduplicated (first position kept). */
  rules: string[];
  environment: EnvironmentEntry[];
  contextFiles: ContextFile[];
  /** Relative paths of AGENTS.md files deeper than cwd. */
  agentsMd: string[];
  workspaceTree: WorkspaceTree | null;
  /** Extra workspace roots, forward slashes. */
  roots: string[];
  skills: SkillEntry[];
  skillsTool: "read" | "bash" | null;
  /** APPEND_SYSTEM.md followed by every appendSystemPrompt value, joined by blank lines. */
  appendPrompt: string;
  /** The custom base prompt text, or null when the builtin base sections apply. */
  customPrompt: string | null;
  /** Documentation pointers for the docs section; null when none. */
  docs: string | null;
}

/** Field names a template may reference at the top level. */
export const PROMPT_DATA_FIELDS: readonly (keyof PromptData)[] = [
  "agentName",
  "cwd",
  "date",
  "model",
  "tools",
  "toolSnippets",
  "rules",
  "environment",
  "contextFiles",
  "agentsMd",
  "workspaceTree",
  "roots",
  "skills",
  "skillsTool",
  "appendPrompt",
  "customPrompt",
  "docs",
];
