import { homedir } from "node:os";
import { resolveUserPath } from "../_paths.js";
import { varNameProblem } from "../config/index.js";
import type { Machine } from "../gather/environment/machine.js";
import { MAX_TREE_DEPTH } from "../gather/tree/depth.js";
import { parseNow, type SystemPromptOptions } from "../options.js";
import { UsageError } from "./io.js";

/** The flags shared by commands that render (as commander gives them). */
export interface RenderFlags {
  cwd?: string;
  agentDir?: string;
  agent?: string;
  agentMode?: string;
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
  /** `--on-touch`: the host delivers deeper AGENTS.md files on touch (the pi extension does). */
  onTouch?: boolean;
  /** `--tree-depth N`: levels the tree shows (it turns the tree on unless `--no-tree` is given). */
  treeDepth?: string;
  git?: boolean;
  /** `--allow-git-dir DIR`, repeatable. */
  allowGitDir?: string[];
  deadline?: string;
  root?: string[];
  maxTokens?: string;
  strict?: boolean;
  /** `--var NAME=value`, repeatable. */
  var?: string[];
  /** False with `--no-config`: no sysprompt.yaml is read. */
  config?: boolean;
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

/**
 * `--var NAME=value` flags as variables; a later flag for a name wins. The
 * value may be empty and may hold `=`.
 *
 * @throws UsageError for a flag without `=` or with a name templates cannot reach.
 */
export function parseVars(entries: readonly string[]): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf("=");
    if (eq < 0)
      throw new UsageError(`--var expects NAME=value, such as --var team=payments, got "${entry}"`);
    const name = entry.slice(0, eq);
    const problem = varNameProblem(name);
    if (problem !== undefined) throw new UsageError(`--var: "${name}" ${problem}`);
    vars[name] = entry.slice(eq + 1);
  }
  return vars;
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
  machine?: Machine,
) {
  const paths = flagPaths(flags, cwd, home);
  // The CLI reads sysprompt.yaml (user, then trusted project) under its flags, unless --no-config.
  const options: SystemPromptOptions = { cwd: paths.cwd, env, configFiles: flags.config !== false };
  if (home !== undefined) options.home = home;
  if (machine !== undefined) options.machine = machine;
  if (paths.agentDir !== undefined) options.agentDir = paths.agentDir;
  if (flags.agent !== undefined) options.agent = flags.agent;
  if (flags.agentMode !== undefined) options.agentMode = flags.agentMode;
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
  if (flags.deadline !== undefined) {
    if (!/^\d+$/.test(flags.deadline)) {
      throw new UsageError(
        `--deadline expects a whole number of milliseconds such as 5000, got "${flags.deadline}"`,
      );
    }
    options.deadlineMs = Number(flags.deadline);
  }
  if (flags.untrusted) options.projectTrusted = false;
  if (flags.contextFiles === false) options.noContextFiles = true;
  // --tree and --no-tree both beat a config file's `tree:`.
  if (flags.tree !== undefined) options.workspaceTree = flags.tree;
  if (flags.onTouch) options.contextOnTouch = true;
  if (flags.treeDepth !== undefined) {
    const depth = Number(flags.treeDepth);
    if (!/^\d+$/.test(flags.treeDepth) || depth < 1 || depth > MAX_TREE_DEPTH) {
      throw new UsageError(
        `--tree-depth expects a whole number of levels from 1 to ${MAX_TREE_DEPTH}, such as 4, got "${flags.treeDepth}"`,
      );
    }
    options.treeDepth = depth;
    // Asking for a depth is asking for the tree; --no-tree still wins.
    if (flags.tree !== false) options.workspaceTree = true;
  }
  if (flags.git) options.git = true;
  if (flags.var?.length) options.vars = parseVars(flags.var);
  // Relative to where the command runs, like --cwd itself (not to --cwd); a
  // root that is not a folder is exit 2.
  if (flags.root?.length) {
    const from = home ?? homedir();
    options.roots = flags.root.map((root) => resolveUserPath(root, cwd, from));
  }
  if (flags.allowGitDir?.length) {
    const from = home ?? homedir();
    options.allowGitDirs = flags.allowGitDir.map((dir) => resolveUserPath(dir, cwd, from));
  }
  if (flags.maxTokens !== undefined) {
    if (!/^\d+$/.test(flags.maxTokens) || Number(flags.maxTokens) < 1) {
      throw new UsageError(
        `--max-tokens expects a whole number of tokens, 1 or more, such as 8000, got "${flags.maxTokens}"`,
      );
    }
    options.maxPromptTokens = Number(flags.maxTokens);
  }
  return options;
}
