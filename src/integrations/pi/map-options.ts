import { DEFAULT_AGENT } from "../../agents/index.js";
import { envPiAgentDir, fromRootOrHome, ignoredEnvFolderReason } from "../../locate/layers.js";
import type { SystemPromptOptions } from "../../options.js";
import { CUSTOM_PROMPT_SECTION, SECTION_NAME } from "../../sections/types.js";
import type { Diagnostic } from "../../types.js";
import type { PiSystemPromptOptions } from "./types.js";

/**
 * The preset a render inside pi uses, whatever a `sysprompt.yaml` says: pi's
 * (`prompts/agents/pi.yaml`: the preamble's name; a user's or trusted
 * project's `agents/pi.yaml` on top). Another agent's preset would leave out
 * files that agent loads itself, and pi loads none of them.
 */
export const PI_AGENT = DEFAULT_AGENT;

/** The pi flag that adds the workspace tree; off by default. */
export const TREE_FLAG = "sysprompt-tree";

/** pi's agent dir when `$PI_CODING_AGENT_DIR` does not name one sysprompt reads. */
export const PI_DEFAULT_AGENT_DIR = "~/.pi/agent";

/**
 * pi's agent dir as sysprompt reads it (its trust decisions, its
 * `sysprompt.yaml`, the user layer): `$PI_CODING_AGENT_DIR` when absolute or
 * from `~`, else `~/.pi/agent`, `~` unexpanded. A relative value would be
 * read from the working folder, the project's, which could then say it is
 * trusted in its own `trust.json`: ignored, as `$SYSPROMPT_AGENT_DIR` is.
 */
export function piAgentDir(env: Readonly<Record<string, string | undefined>>): string {
  return envPiAgentDir(env) ?? PI_DEFAULT_AGENT_DIR;
}

/** The warning for a `$PI_CODING_AGENT_DIR` that {@link piAgentDir} ignores (relative, or not UTF-8). */
function ignoredPiAgentDirWarning(env: Readonly<Record<string, string | undefined>>): Diagnostic[] {
  const value = env.PI_CODING_AGENT_DIR;
  const why = value ? ignoredEnvFolderReason(value) : undefined;
  if (!value || why === undefined) return [];
  const relative = !fromRootOrHome(value);
  return [
    {
      level: "warning",
      code: relative ? "agent-dir-relative" : "agent-dir-not-utf8",
      message: `$PI_CODING_AGENT_DIR is ignored: ${why}; sysprompt reads pi's trust decisions, sysprompt.yaml and the user layer from ${PI_DEFAULT_AGENT_DIR}.${relative ? " Give an absolute path, or ~/…" : ""}`,
    },
  ];
}

/** Everything the mapping reads, gathered by the extension from pi's event and context. */
export interface PiPromptInput {
  /** `event.systemPromptOptions` (or a command's `ctx.getSystemPromptOptions()`). */
  prompt: PiSystemPromptOptions;
  /** `ctx.model?.id`. */
  model: string | undefined;
  /** `ctx.isProjectTrusted()`. */
  projectTrusted: boolean;
  /** The `--sysprompt-tree` flag. */
  workspaceTree: boolean;
  /**
   * Whether the extension appends nested AGENTS.md files to the tool result
   * that first touches their folder (`--sysprompt-on-touch`, with context
   * files on and a renderer that can): the prompt then says so. Default: false.
   */
  contextOnTouch?: boolean;
  /** pi's process environment; `PI_CODING_AGENT_DIR` names pi's agent dir. */
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Turns pi's own resolved prompt inputs into render options. pi's inputs win
 * where pi already resolved them, so nothing is read or said twice: the tools
 * are the selected ones minus the hidden ones, with pi's snippets and
 * guidelines; pi's custom prompt and appended text are taken as resolved (no
 * SYSTEM.md / APPEND_SYSTEM.md read again); pi's skills are the skill list;
 * pi's sections are sections from code. sysprompt adds what pi lacks: section
 * files with overrides, imports and dedupe in context files, the environment,
 * the tree (the `--sysprompt-tree` flag). Pure: the diagnostics name the pi
 * inputs sysprompt cannot take.
 */
export function piRenderOptions(input: PiPromptInput): {
  options: SystemPromptOptions;
  diagnostics: Diagnostic[];
} {
  const { prompt } = input;
  const hidden = new Set(prompt.hiddenTools ?? []);
  const selected = prompt.selectedTools ?? ["read", "bash", "edit", "write"];
  const named = piSections(prompt.sections ?? {});
  const { sections } = named;
  const diagnostics = [...ignoredPiAgentDirWarning(input.env), ...named.diagnostics];
  const options: SystemPromptOptions = {
    cwd: prompt.cwd,
    // pi's agent dir is the user layer. Passed the way sysprompt's own default
    // is, through the environment: an explicit agentDir must exist, and pi's
    // may not yet.
    env: { ...input.env, SYSPROMPT_AGENT_DIR: piAgentDir(input.env) },
    projectTrusted: input.projectTrusted,
    agent: PI_AGENT,
    ...(input.model ? { model: input.model } : {}),
    tools: selected.filter((name) => !hidden.has(name)),
    toolSnippets: prompt.toolSnippets ?? {},
    toolGuidelines: prompt.toolGuidelines ?? {},
    promptGuidelines: prompt.promptGuidelines ?? [],
    resolvedSystemPrompt: prompt.customPrompt ?? null,
    resolvedAppendPrompt: prompt.appendSystemPrompt ?? "",
    sections,
    skills: (prompt.skills ?? []).map((s) => ({
      name: s.name,
      description: s.description,
      filePath: s.filePath,
      disableModelInvocation: s.disableModelInvocation,
    })),
    // pi loaded none: the user turned them off (or there are none); sysprompt loads none either.
    ...((prompt.contextFiles ?? []).length === 0 ? { noContextFiles: true } : {}),
    // pi's flag decides the tree: pi cannot tell `--sysprompt-tree false` from no flag.
    workspaceTree: input.workspaceTree,
    ...(input.contextOnTouch === true ? { contextOnTouch: true } : {}),
    // sysprompt.yaml (pi's agent dir; the project's when pi trusts it) sets
    // what pi does not: the deadline, the budget, rule sources, variables.
    // pi's own inputs above are explicit and win.
    configFiles: true,
  };
  return { options, diagnostics };
}

/**
 * pi's extra sections as sections from code. pi adds nothing for an empty
 * text, while an empty text from code removes a section in sysprompt, so empty
 * ones are left out. A name sysprompt cannot take (`system`, its custom base
 * prompt's) is left out with a warning.
 */
function piSections(given: Readonly<Record<string, string>>): {
  sections: Record<string, string>;
  diagnostics: Diagnostic[];
} {
  const sections: Record<string, string> = {};
  const diagnostics: Diagnostic[] = [];
  for (const [name, text] of Object.entries(given)) {
    if (typeof text !== "string" || text === "") continue;
    if (name === CUSTOM_PROMPT_SECTION || !SECTION_NAME.test(name)) {
      diagnostics.push({
        level: "warning",
        code: "pi-section-name",
        message: `pi's prompt section "${name}" is left out: sysprompt section names match ${SECTION_NAME.source} and "${CUSTOM_PROMPT_SECTION}" is the custom base prompt's`,
      });
      continue;
    }
    sections[name] = text;
  }
  return { sections, diagnostics };
}
