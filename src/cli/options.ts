import type { SystemPromptOptions } from "../options.js";
import { UsageError } from "./io.js";

/** The flags shared by commands that render (as commander gives them). */
export interface RenderFlags {
  cwd?: string;
  agentDir?: string;
  tools?: string;
  tool?: string[];
  guideline?: string[];
  model?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  now?: string;
  untrusted?: boolean;
  contextFiles?: boolean;
  tree?: boolean;
  deadline?: string;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Turns CLI flags into library options; a malformed flag value is a usage error. */
export function toRenderOptions(
  flags: RenderFlags,
  cwd: string,
  env: Record<string, string | undefined>,
  home?: string,
) {
  const options: SystemPromptOptions = { cwd: flags.cwd ?? cwd, env };
  if (home !== undefined) options.home = home;
  if (flags.agentDir !== undefined) options.agentDir = flags.agentDir;
  if (flags.tools !== undefined) {
    options.tools = flags.tools
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== "");
  }
  if (flags.tool?.length) {
    const snippets: Record<string, string> = {};
    for (const entry of flags.tool) {
      const eq = entry.indexOf("=");
      if (eq <= 0) throw new UsageError(`--tool expects name=description, got "${entry}"`);
      snippets[entry.slice(0, eq).trim()] = entry.slice(eq + 1);
    }
    options.toolSnippets = snippets;
  }
  if (flags.guideline?.length) options.promptGuidelines = flags.guideline;
  if (flags.model !== undefined) options.model = flags.model;
  if (flags.systemPrompt !== undefined) options.systemPrompt = flags.systemPrompt;
  if (flags.appendSystemPrompt?.length) options.appendSystemPrompt = flags.appendSystemPrompt;
  if (flags.now !== undefined) {
    if (
      !/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(flags.now) ||
      Number.isNaN(Date.parse(flags.now.length > 10 ? flags.now : `${flags.now}T00:00:00Z`))
    ) {
      throw new UsageError(
        `--now expects an ISO 8601 date or time such as 2026-01-31T12:00:00Z, got "${flags.now}"`,
      );
    }
    options.now = flags.now;
  }
  if (flags.untrusted) options.projectTrusted = false;
  if (flags.contextFiles === false) options.noContextFiles = true;
  if (flags.tree) options.workspaceTree = true;
  if (flags.deadline !== undefined) {
    if (!/^\d+$/.test(flags.deadline)) {
      throw new UsageError(
        `--deadline expects a whole number of milliseconds, got "${flags.deadline}"`,
      );
    }
    options.deadlineMs = Number(flags.deadline);
  }
  return options;
}
