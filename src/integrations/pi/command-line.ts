/**
 * The `sysprompt render` command that prints, outside pi, the prompt the
 * extension renders for a turn (`/sysprompt command`). pi's tool
 * descriptions and guidelines live in pi (its tools, its settings, other
 * extensions' tools), so they are not in sysprompt's files: the command
 * carries them as `--tool` and `--guideline` flags, taken from pi's inputs of
 * that turn. Everything else the CLI reads from the same files pi does.
 */
import { quotePath } from "../../agents/index.js";
import { isText } from "../../locate/text-or-path.js";
import type { SystemPromptOptions } from "../../options.js";

/** The command and what it cannot carry (each a line for the user), from a turn's render options. */
export function renderCommandLine(
  options: SystemPromptOptions,
  env: Readonly<Record<string, string | undefined>>,
): { command: string; notCarried: string[] } {
  const words: string[] = [];
  // The user layer as the render inside pi had it, where the shell's own could differ.
  const agentDir = options.env?.SYSPROMPT_AGENT_DIR;
  if (agentDir && (env.PI_CODING_AGENT_DIR || env.SYSPROMPT_AGENT_DIR)) {
    words.push(`SYSPROMPT_AGENT_DIR=${q(agentDir)}`);
  }
  words.push("sysprompt", "render");
  const flag = (name: string, value?: string) =>
    words.push(value === undefined ? name : `${name} ${q(value)}`);
  if (options.agent !== undefined) flag("--agent", options.agent);
  if (options.cwd !== undefined) flag("--cwd", options.cwd);
  if (options.model !== undefined) flag("--model", options.model);
  const tools = options.tools ?? [];
  flag("--tools", tools.join(","));
  for (const tool of tools) {
    const snippet = options.toolSnippets?.[tool];
    if (snippet !== undefined) flag("--tool", `${tool}=${snippet}`);
  }
  // The CLI's guidelines are rules in the order given: pi's per-tool ones in tool order, then pi's own.
  const guidelines = [
    ...tools.flatMap((tool) => options.toolGuidelines?.[tool] ?? []),
    ...(options.promptGuidelines ?? []),
  ];
  for (const guideline of guidelines) flag("--guideline", guideline);
  // Explicit both ways: a sysprompt.yaml `tree:` must not decide it outside pi either.
  flag(options.workspaceTree === true ? "--tree" : "--no-tree");
  if (options.contextOnTouch === true) flag("--on-touch");
  if (options.noContextFiles === true) flag("--no-context-files");
  if (options.projectTrusted === false) flag("--untrusted");
  if (typeof options.resolvedSystemPrompt === "string") {
    // pi's text, literal in pi; the CLI reads a one-line value that is not prose as a file
    // (a project's SYSTEM.md of one line `~/.ssh/id_rsa`): a line break keeps it text, unchanged.
    const text = options.resolvedSystemPrompt;
    flag("--system-prompt", isText(text) ? text : `${text}\n`);
  }

  const notCarried: string[] = [];
  if (options.resolvedAppendPrompt) {
    notCarried.push(
      "pi's appended prompt: sysprompt reads APPEND_SYSTEM.md itself; pi's --append-system-prompt text must be given again",
    );
  }
  const sections = Object.keys(options.sections ?? {});
  if (sections.length > 0) {
    notCarried.push(`sections other pi extensions add (${sections.join(", ")})`);
  }
  if ((options.skills ?? []).length > 0) {
    notCarried.push(
      "pi's skills: sysprompt finds the skills folders itself; skills from pi packages or --skill are not found",
    );
  }
  return { command: words.join(" "), notCarried };
}

function q(value: string): string {
  return quotePath(value, "shell");
}
