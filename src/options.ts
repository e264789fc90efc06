import { dirname, join, resolve } from "node:path";
import { kindOfPath } from "./_fs.js";
import { describe } from "./_text.js";
import { parseNow } from "./_time.js";
import { DEFAULT_DEADLINE_MS } from "./gather/deadline.js";
import { DEFAULT_TOOLS, toolEntry } from "./gather/guidelines/tools.js";
import type { GatherOptions } from "./gather/inputs.js";
import { resolveRoots } from "./gather/roots.js";
import { checkRuleSources } from "./gather/rules/load.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "./locate/layers.js";
import type { ResolvedFile } from "./locate/load-layer.js";
import { readTextOrPath } from "./locate/text-or-path.js";
import { isPlainObject } from "./options/checks.js";
import { OPTIONS, type PreloadedSkill, type SystemPromptOptions } from "./options/registry.js";
import { DEFAULT_MAX_CONTEXT_BYTES } from "./repo-files/index.js";
import type { ExtraSection } from "./sections/render.js";
import { CUSTOM_PROMPT_SECTION, SECTION_NAME } from "./sections/types.js";
import type { Skill } from "./skills/types.js";
import { type Diagnostic, SyspromptError } from "./types.js";

export type {
  OptionName,
  PreloadedSkill,
  SessionFixedOption,
  SystemPromptOptions,
} from "./options/registry.js";

/**
 * {@link SystemPromptOptions} checked and with every default applied: what
 * `preparePrompt` works from. Explicit text-or-path options are already read.
 * The gathering steps' part is {@link GatherOptions}; the rest is read by
 * locating and rendering.
 */
export interface NormalizedOptions extends GatherOptions {
  now: Date;
  deadlineMs: number;
  extraSections: ExtraSection[];
  /**
   * `systemPrompt`, read (its text and, when it named a file, the file), or a
   * non-empty `resolvedSystemPrompt`.
   */
  systemPrompt: { text: string; path?: string } | null;
  /** `resolvedAppendPrompt` (when given), then every `appendSystemPrompt` value, read. */
  appendSystemPrompt: string[];
  /** The token budget, or null for none. */
  maxPromptTokens: number | null;
}

/**
 * Checks the caller's options and applies the defaults. A bad explicit option
 * is the caller's mistake: it throws {@link SyspromptError} with the fix in
 * the message, before any gathering starts. Checked: every value's type, no
 * unknown keys, `cwd` an existing folder, an explicit `agentDir` an existing
 * folder (a missing default one is normal), `builtinDir` a folder with
 * `sections/`, `deadlineMs` a number ≥ 0, `now` and `treeMtime` times.
 */
export async function normalizeOptions(
  options: SystemPromptOptions = {},
): Promise<NormalizedOptions> {
  checkOptionTypes(options);
  const env = options.env ?? process.env;
  const { cwd, agentDir, home } = resolveCommonPaths(options);
  const now = parseNow(options.now);
  const treeMtime =
    options.treeMtime === undefined ? null : parseNow(options.treeMtime, "treeMtime");
  const extraSections = validateSections(options.sections);
  const projectDirName = options.projectDir ?? DEFAULT_PROJECT_DIR;
  const builtinDir = resolve(options.builtinDir ?? builtinPromptsDir());
  await checkFolders({
    cwd,
    ...(options.agentDir !== undefined ? { agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir } : {}),
  });
  if (options.systemPrompt !== undefined && options.resolvedSystemPrompt !== undefined) {
    throw new SyspromptError(
      "bad-option",
      "systemPrompt and resolvedSystemPrompt: pass one of them; resolvedSystemPrompt already is the custom base prompt",
    );
  }
  const resolvedFiles: ResolvedFile[] = [];
  if (options.resolvedSystemPrompt !== undefined) resolvedFiles.push("SYSTEM.md");
  if (options.resolvedAppendPrompt !== undefined) resolvedFiles.push("APPEND_SYSTEM.md");
  const [systemPrompt, appendSystemPrompt, roots, allowGitDirs] = await Promise.all([
    options.systemPrompt !== undefined
      ? readTextOrPath(options.systemPrompt, cwd, "--system-prompt", home)
      : options.resolvedSystemPrompt
        ? { text: options.resolvedSystemPrompt }
        : null,
    Promise.all(
      toList(options.appendSystemPrompt).map(
        async (v) => (await readTextOrPath(v, cwd, "--append-system-prompt", home)).text,
      ),
    ),
    resolveRoots(options.roots, cwd, home),
    resolveRoots(options.allowGitDirs, cwd, home, {
      flag: "--allow-git-dir",
      option: "allowGitDirs",
    }),
  ]);
  return {
    cwd,
    home,
    env,
    agentDir,
    agentDirGiven: options.agentDir !== undefined,
    projectDirName,
    projectDir: join(cwd, projectDirName),
    builtinDir,
    trusted: options.projectTrusted !== false,
    tools: [...(options.tools ?? DEFAULT_TOOLS)],
    now,
    deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    extraSections,
    systemPrompt,
    appendSystemPrompt:
      options.resolvedAppendPrompt === undefined
        ? appendSystemPrompt
        : [options.resolvedAppendPrompt, ...appendSystemPrompt],
    resolvedFiles,
    skills: options.skills ? options.skills.map(preloadedSkill) : null,
    skillPaths: options.skillPaths ?? null,
    roots,
    allowGitDirs,
    ceilingDir: options.ceilingDir === undefined ? null : resolve(cwd, options.ceilingDir),
    maxContextBytes: options.maxContextBytes ?? DEFAULT_MAX_CONTEXT_BYTES,
    ruleSources: checkRuleSources(options.ruleSources),
    noContextFiles: options.noContextFiles === true,
    machine: options.machine ?? null,
    environment: options.environment ?? null,
    git: options.git === true,
    workspaceTree: options.workspaceTree === true,
    treeDepth: options.treeDepth ?? null,
    treeMtime,
    maxPromptTokens: options.maxPromptTokens ?? null,
  };
}

/**
 * Folders the caller named must be there: a typo would otherwise give a
 * prompt for nothing (an empty builtin layer, an empty user layer, a cwd with
 * no project) without a word. Used by `normalizeOptions` and by the CLI
 * commands that load templates and skills.
 *
 * @throws SyspromptError naming the folder and what to pass instead.
 */
export async function checkFolders(folders: {
  cwd?: string;
  agentDir?: string;
  builtinDir?: string;
}): Promise<void> {
  const { cwd, agentDir, builtinDir } = folders;
  const [cwdKind, agentKind, builtinKind] = await Promise.all([
    cwd === undefined ? "dir" : kindOfPath(cwd),
    agentDir === undefined ? "dir" : kindOfPath(agentDir),
    builtinDir === undefined ? "dir" : kindOfPath(join(builtinDir, "sections")),
  ]);
  if (cwdKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `cwd: ${cwdKind === "missing" ? "there is no folder" : "not a folder"} at ${cwd}; pass the project's folder`,
    );
  }
  if (agentKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `agentDir: ${agentKind === "missing" ? "there is no folder" : "not a folder"} at ${agentDir}; pass an existing folder, or leave it out for $SYSPROMPT_AGENT_DIR or ~/.pi/agent`,
    );
  }
  if (builtinKind !== "dir") {
    throw new SyspromptError(
      "bad-option",
      `builtinDir: no sections/ folder in ${builtinDir}; pass a folder laid out like the package's prompts/ (sections/, partials/, tools.md, rules.md), or leave it out`,
    );
  }
}

/**
 * Selected tools that nothing describes (not the builtin tools.md, not
 * `toolSnippets`): most likely a typo, and the tools section cannot say what
 * they do, so the caller hears about it.
 */
export function unknownToolDiagnostics(
  tools: readonly string[],
  builtin: Readonly<Record<string, string>>,
  snippets: Readonly<Record<string, string>> = {},
): Diagnostic[] {
  return [...new Set(tools)]
    .filter(
      (name) => toolEntry(builtin, name) === undefined && toolEntry(snippets, name) === undefined,
    )
    .map((name) => ({
      level: "info",
      code: "tool-unknown",
      message: `tool "${name}" has no description (none in tools.md or toolSnippets), so the tools section cannot say what it does; check the spelling, or describe it (--tool ${name}=text, toolSnippets)`,
    }));
}

/**
 * Checks the type of every option and that no key is unknown.
 *
 * @throws SyspromptError naming the option and what it must be.
 */
export function checkOptionTypes(options: SystemPromptOptions): void {
  if (!isPlainObject(options)) {
    throw new SyspromptError("bad-option", `options must be an object, got ${describe(options)}`);
  }
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(OPTIONS, key)) {
      throw new SyspromptError(
        "bad-option",
        `unknown option "${key}"; the options are: ${Object.keys(OPTIONS).join(", ")}`,
      );
    }
    const problem = optionValueProblem(key as keyof SystemPromptOptions, value);
    if (problem !== undefined) throw new SyspromptError("bad-option", `${key}: ${problem}`);
  }
}

/**
 * Why `value` cannot be the option `key` (`must be …, got …`), or undefined
 * when its type is right. The type check only: `now`, `treeMtime` and
 * `sections` are checked more closely by {@link normalizeOptions}. Shared with
 * the snapshot scenario files, whose keys are options.
 */
export function optionValueProblem(
  key: keyof SystemPromptOptions,
  value: unknown,
): string | undefined {
  // An option set to undefined is the same as one left out.
  const expected = value === undefined ? undefined : OPTIONS[key].check(value);
  return expected === undefined ? undefined : `must be ${expected}, got ${describe(value)}`;
}

/** A preloaded skill in the loader's shape: its folder is the one holding its file. */
function preloadedSkill(skill: PreloadedSkill): Skill {
  return {
    name: skill.name,
    description: skill.description,
    filePath: skill.filePath,
    baseDir: dirname(skill.filePath),
    disableModelInvocation: skill.disableModelInvocation === true,
    source: "option",
  };
}

function toList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : [...value];
}

function validateSections(sections: SystemPromptOptions["sections"]): ExtraSection[] {
  const out: ExtraSection[] = [];
  for (const [name, text] of Object.entries(sections ?? {})) {
    if (!SECTION_NAME.test(name)) {
      throw new SyspromptError(
        "bad-option",
        `sections: "${name}" is not a valid section name; use ${SECTION_NAME.source}`,
      );
    }
    if (name === CUSTOM_PROMPT_SECTION) {
      throw new SyspromptError(
        "bad-option",
        `sections: "${name}" is the custom base prompt, not a section; pass it as systemPrompt`,
      );
    }
    if (typeof text !== "string") {
      throw new SyspromptError("bad-option", `sections: the value of "${name}" must be a string`);
    }
    out.push({ name, text });
  }
  return out;
}
