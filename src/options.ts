import type { EnvironmentEntry } from "./data.js";

/** Options of {@link renderSystemPrompt}. Every field is optional; defaults are documented per field. */
export interface SystemPromptOptions {
  /** Working directory. Default: `process.cwd()`. */
  cwd?: string;
  /** User layer folder. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Name of the project layer folder under cwd. Default: `".pi"`. */
  projectDir?: string;
  /** When false, project SYSTEM/APPEND/sections/skills are skipped (context files still load). Default: true. */
  projectTrusted?: boolean;
  /** The agent's name in the preamble. Default: `"a coding agent"`. */
  agentName?: string;
  /** Model name, stated in the environment section. Default: none. */
  model?: string;
  /** Selected tool names, in order. Default: read, bash, edit, write. */
  tools?: readonly string[];
  /** One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool. */
  toolSnippets?: Readonly<Record<string, string>>;
  /** Guidelines per tool, added to the rules when the tool is selected. */
  toolGuidelines?: Readonly<Record<string, readonly string[]>>;
  /** The caller's own rules, added after tool guidelines and before the general rules. */
  promptGuidelines?: readonly string[];
  /** Custom base prompt: text, or a path to a text file. Beats SYSTEM.md files. */
  systemPrompt?: string;
  /** Appended after APPEND_SYSTEM.md, each text or a path to a text file. */
  appendSystemPrompt?: string | readonly string[];
  /** Named sections from code, in insertion order: replace a section's body or add one at the end. */
  sections?: Readonly<Record<string, string>>;
  /** Replaces environment detection. */
  environment?: readonly EnvironmentEntry[];
  /** Skip AGENTS.md / CLAUDE.md discovery. Default: false. */
  noContextFiles?: boolean;
  /** Documentation pointers; the docs section renders only when given. */
  docs?: string;
  /** Add a compact listing of cwd (`workspace_tree`) and the AGENTS.md files below it (`dir_context`). Default: false. */
  workspaceTree?: boolean;
  /** Extra workspace roots. */
  roots?: readonly string[];
  /** Skill folders or files searched before the default ones. */
  skillPaths?: readonly string[];
  /** The clock: a Date, an ISO string or epoch milliseconds. Default: now. */
  now?: Date | string | number;
  /** Environment variables. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder. Default: `os.homedir()`. */
  home?: string;
  /** Platform and architecture for environment detection. Default: `process.platform` / `process.arch`. */
  machine?: { platform: string; arch: string };
  /** Deadline for the gathering stage in ms. Default: 5000. */
  deadlineMs?: number;
  /** Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`). Default: the package's own. */
  builtinDir?: string;
}
