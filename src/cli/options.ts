import { homedir } from "node:os";
import { resolveUserPath } from "../_paths.js";
import { parseNow, type SystemPromptOptions } from "../options.js";
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
  strict?: boolean;
}

/**
 * `--cwd` and `--agent-dir`, absolute: relative to where the command runs
 * (not to each other), `~` the home folder.
 */
export function flagPaths(
  flags: { cwd?: string | undefined; agentDir?: string | undefined },
  cwd: string,
  home: string = homedir(),
): { cwd: string; agentDir?: string } {
  const resolved = resolveUserPath(flags.cwd ?? ".", cwd, home);
  return flags.agentDir === undefined
    ? { cwd: resolved }
    : { cwd: resolved, agentDir: resolveUserPath(flags.agentDir, cwd, home) };
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
  const paths = flagPaths(flags, cwd, home);
  const options: SystemPromptOptions = { cwd: paths.cwd, env };
  if (home !== undefined) options.home = home;
  if (paths.agentDir !== undefined) options.agentDir = paths.agentDir;
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
    parseNow(flags.now, "--now"); // the library's own check, worded for the flag
    options.now = flags.now;
  }
  if (flags.untrusted) options.projectTrusted = false;
  if (flags.contextFiles === false) options.noContextFiles = true;
  return options;
}
