import { dirname, join, resolve } from "node:path";
import { kindOfPath } from "./_fs.js";
import { varNameProblem } from "./config/keys.js";
import type { EnvironmentEntry } from "./data.js";
import { DEFAULT_MAX_CONTEXT_BYTES } from "./gather/capped-read.js";
import { DEFAULT_DEADLINE_MS } from "./gather/deadline.js";
import type { Machine } from "./gather/environment/machine.js";
import { DEFAULT_TOOLS, toolEntry } from "./gather/guidelines/tools.js";
import { resolveRoots } from "./gather/roots.js";
import { checkRuleSources } from "./gather/rules/load.js";
import { MAX_TREE_DEPTH } from "./gather/tree/depth.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "./locate/layers.js";
import { readTextOrPath } from "./locate/text-or-path.js";
import type { ExtraSection } from "./sections/render.js";
import { CUSTOM_PROMPT_SECTION, SECTION_NAME } from "./sections/types.js";
import type { Skill } from "./skills/types.js";
import { type Diagnostic, SyspromptError } from "./types.js";

/** Options of {@link renderSystemPrompt}. Every field is optional; defaults are documented per field. */
export interface SystemPromptOptions {
  /** Working directory; must be an existing folder. Default: `process.cwd()`. */
  cwd?: string;
  /** User layer folder; when given, it must exist. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent` (may be missing). */
  agentDir?: string;
  /** Name of the project layer folder under cwd. Default: `".pi"`. */
  projectDir?: string;
  /** When false, project SYSTEM/APPEND/sections/skills are skipped (context files still load). Default: true. */
  projectTrusted?: boolean;
  /** The agent's name in the preamble. Default: the preset's name for its agent, else `"a coding agent"`. */
  agentName?: string;
  /**
   * Read `sysprompt.yaml` from the agent dir and, when the project is
   * trusted, from the project folder (`.pi/sysprompt.yaml`): their values
   * apply under the options given here (an option given wins, then the
   * project's file, then the user's). The CLI and the pi extension pass true.
   * Default: false (a library render depends on its options alone).
   */
  configFiles?: boolean;
  /**
   * Variables templates read as `{{vars.NAME}}`: names of letters, digits and
   * `_` (not starting with a digit), string values. With `configFiles`, they
   * win name by name over the files' `vars:`. Default: none.
   */
  vars?: Readonly<Record<string, string>>;
  /**
   * The agent the prompt is for: a preset (`prompts/agents/<name>.yaml`, which
   * `<agentDir>/agents/` and a trusted project's `.pi/agents/` override key by
   * key) gives the agent's own tools and their descriptions (used unless
   * `tools` / `toolSnippets` say otherwise), the preamble's name (unless
   * `agentName` is given), and the instruction files the agent loads itself,
   * which are then left out. Builtin: `pi`, `claude-code`, `codex`,
   * `gemini-cli`, `opencode`. A name no layer has throws a SyspromptError.
   * Default: `"pi"` (the builtin prompt as it is).
   */
  agent?: string;
  /**
   * The agent's mode, for a preset whose tools change with it (Gemini CLI's approval
   * mode: `default`, `auto_edit`, `yolo`, `plan`): it picks the preset's `toolSets` entry
   * whose `modes` name it, as `model` picks one by its `models` globs. Default: none
   * (the preset's plain `tools`).
   */
  agentMode?: string;
  /**
   * Model name, stated in the environment section; it also chooses per-model
   * section variants (`rules@small.md`, whose `models:` globs match it).
   * Default: none (plain section files only).
   */
  model?: string;
  /** Selected tool names, in order (an array, not a comma-separated string). Default: read, bash, edit, write. A name nothing describes gets an info diagnostic. */
  tools?: readonly string[];
  /** One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool. */
  toolSnippets?: Readonly<Record<string, string>>;
  /** Guidelines per tool, added to the rules when the tool is selected. */
  toolGuidelines?: Readonly<Record<string, readonly string[]>>;
  /** The caller's own rules, added after tool guidelines and before the general rules. */
  promptGuidelines?: readonly string[];
  /** Custom base prompt: text, or a path to a text file (`~` is `home`). Beats SYSTEM.md files. A one-line value that looks like a path but names no file is an error. */
  systemPrompt?: string;
  /** Appended after APPEND_SYSTEM.md, each text or a path to a text file (read as for `systemPrompt`). */
  appendSystemPrompt?: string | readonly string[];
  /**
   * The custom base prompt as a host that reads SYSTEM.md itself (pi) already
   * resolved it: literal text (never a path), or `null` (or `""`) for none.
   * When given, no layer's SYSTEM.md is read; a non-empty text is the custom
   * base prompt and beats every SYSTEM_TEMPLATE.md, while `null` leaves the
   * SYSTEM_TEMPLATE.md files (which such a host does not know) in charge.
   * Not together with `systemPrompt`. Default: not given (sysprompt reads SYSTEM.md).
   */
  resolvedSystemPrompt?: string | null;
  /**
   * The appended text as a host that reads APPEND_SYSTEM.md itself (pi)
   * already resolved it, literal. When given, no layer's APPEND_SYSTEM.md is
   * read; the text (`""` for none) takes its place, before every
   * `appendSystemPrompt` value. Default: not given (sysprompt reads APPEND_SYSTEM.md).
   */
  resolvedAppendPrompt?: string;
  /** Named sections from code: replace a section's body in place, or add one before the volatile sections (see `ExtraSection`). */
  sections?: Readonly<Record<string, string>>;
  /** Replaces environment detection entirely (the model line still follows). */
  environment?: readonly EnvironmentEntry[];
  /** Skip AGENTS.md / CLAUDE.md discovery. Default: false. */
  noContextFiles?: boolean;
  /**
   * The host appends the nested AGENTS.md / CLAUDE.md below cwd to the result
   * of the tool call that first touches their folder (pi's on-touch mode,
   * `session.contextFor()`): `dir_context` then says they arrive that way
   * instead of asking the model to read them. Set it only when the host
   * delivers them. Default: false.
   */
  contextOnTouch?: boolean;
  /** Documentation pointers; the docs section renders only when given. */
  docs?: string;
  /** Add a compact listing of cwd (`workspace_tree`) and the AGENTS.md files below it (`dir_context`). Default: false. */
  workspaceTree?: boolean;
  /**
   * Levels of entries the workspace tree shows below each root, 1 to 8
   * (the line cap still holds). Only with `workspaceTree`. Default: 3.
   */
  treeDepth?: number;
  /**
   * Add the `git` section: the branch, its upstream (ahead/behind), counts of
   * staged, unstaged and untracked files and the last 5 commit subjects, from
   * the system git under the deadline. Default: false.
   */
  git?: boolean;
  /**
   * Git folders outside the project that the git section may read when the
   * project's `.git` file or link leads there (`git init --separate-git-dir`;
   * `~` and relative paths resolve from cwd; each must be an existing folder).
   * Without it such a repository is refused (`git-outside`): a project's
   * `.git` may name any repository of the user's. Worktrees and submodules
   * need no entry. Default: none.
   */
  allowGitDirs?: readonly string[];
  /**
   * One time shown for every workspace tree entry instead of its own mtime (a
   * Date, epoch milliseconds or an ISO 8601 string), so entries order by name:
   * fixtures checked out anywhere render the same tree. Default: each entry's mtime.
   */
  treeMtime?: Date | string | number;
  /**
   * Extra workspace roots (folders; `~` and relative paths resolve from cwd). Each root's
   * ancestors are searched for context files after cwd's, and the `workspace_roots` section
   * lists them. A root that is not a folder throws a SyspromptError. Default: none.
   */
  roots?: readonly string[];
  /**
   * Cap of each context file and each `@import`, in bytes; a larger one is cut at a UTF-8
   * boundary and ends with a marker line saying how much was left out. Default: 262144 (256 KiB).
   */
  maxContextBytes?: number;
  /**
   * Which agents' rule files to read: format names (`cursor`, `windsurf`,
   * `cline`, `copilot`, `claude`, `gemini`, `kiro`, `roo`, `continue`, `zed`,
   * `sysprompt`) and `user:<format>` for another agent's user-level folder
   * (`user:claude` = `~/.claude/rules`, `user:windsurf`, `user:copilot`,
   * `user:kiro`, `user:roo`); `[]` reads none. Default: every format at
   * project level and sysprompt's own (`<agentDir>/rules`, `.pi/rules`), no
   * other agent's user-level folder. An unknown name throws a SyspromptError.
   */
  ruleSources?: readonly string[];
  /** Skill folders or files searched before the default ones. */
  skillPaths?: readonly string[];
  /**
   * Skills the caller already loaded, in the order to list them: the skills
   * step does not run (`skillPaths` is then unused) and this list is the
   * `skills` section's, minus those with `disableModelInvocation: true`. Extra
   * fields are ignored, so a host's own skill objects (pi's) pass as they are.
   * Default: not given (skills are discovered).
   */
  skills?: readonly PreloadedSkill[];
  /** The clock: a Date, epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it has an offset). Default: now. */
  now?: Date | string | number;
  /** Environment variables. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Home folder. Default: `os.homedir()`. */
  home?: string;
  /**
   * No folder above this one is looked at when searching upwards: for context
   * files, for `.git` (the project root), for `.agents/skills` and for
   * `.gitignore` files (as git's GIT_CEILING_DIRECTORIES). Snapshot scenarios
   * set it to their sandbox. Default: none (up to `/`).
   */
  ceilingDir?: string;
  /**
   * The machine the environment section describes. Default: this one (OS
   * release, /proc/cpuinfo, a GPU probe of system binaries only, cached in `$XDG_CACHE_HOME/sysprompt/` (else `~/.cache/sysprompt/`; `<agentDir>/cache/` when agentDir or `$SYSPROMPT_AGENT_DIR` is given)). When
   * given, it is the whole machine: facts it leaves out are not stated, and
   * without `readFile` / `runProbe` no file is read and no process started.
   */
  machine?: Machine;
  /**
   * Budget of the whole gathering stage in ms; every step starts at once and a
   * step still running at the deadline gives its fallback. A number ≥ 0
   * (`Infinity`: none). Default: 5000.
   */
  deadlineMs?: number;
  /** Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`); must hold `sections/`. Default: the package's own. */
  builtinDir?: string;
  /**
   * Token budget of the whole prompt (estimated with the o200k_base encoding).
   * Over it, sections that declare `shrink:` steps give up text, cheapest
   * first, until it fits; the result's `budget` says what was cut. A whole
   * number, 1 or more. Default: none.
   */
  maxPromptTokens?: number;
}

/** A skill the caller loaded itself (the `skills` option). */
export interface PreloadedSkill {
  name: string;
  description: string;
  /** Path of the skill's file, as the model should open it. */
  filePath: string;
  /** True: left out of the prompt (the skill is only invoked by the user). Default: false. */
  disableModelInvocation?: boolean;
}

/** Files a host already read (`resolvedSystemPrompt`, `resolvedAppendPrompt`): no layer reads them. */
export type ResolvedFile = "SYSTEM.md" | "APPEND_SYSTEM.md";

/**
 * {@link SystemPromptOptions} checked and with every default applied: what
 * `preparePrompt` works from. Explicit text-or-path options are already read.
 */
export interface NormalizedOptions {
  cwd: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  agentDir: string;
  /** The project layer folder's name (`.pi`) and its absolute path. */
  projectDirName: string;
  projectDir: string;
  builtinDir: string;
  trusted: boolean;
  tools: string[];
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
  /** The layer files the caller resolved itself, not to be read. */
  resolvedFiles: ResolvedFile[];
  /** The `skills` option, as skills; null when skills are to be discovered. */
  skills: Skill[] | null;
  /** Extra workspace roots: absolute, existing folders, each once. */
  roots: string[];
  /** `allowGitDirs`: absolute, existing folders, each once. */
  allowGitDirs: string[];
  /** `ceilingDir`, resolved; null when not given. */
  ceilingDir: string | null;
  maxContextBytes: number;
  /** The rule sources to read, checked (`ruleSources`, or the default ones). */
  ruleSources: string[];
  /** `treeMtime` as a Date, or null for the entries' own mtimes. */
  treeMtime: Date | null;
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
    roots,
    allowGitDirs,
    ceilingDir: options.ceilingDir === undefined ? null : resolve(cwd, options.ceilingDir),
    maxContextBytes: options.maxContextBytes ?? DEFAULT_MAX_CONTEXT_BYTES,
    ruleSources: checkRuleSources(options.ruleSources),
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

type Check = (value: unknown) => string | undefined;

const isString: Check = (v) => (typeof v === "string" ? undefined : "a string");
const isPath: Check = (v) => (typeof v === "string" && v !== "" ? undefined : "a non-empty path");
const isBoolean: Check = (v) => (typeof v === "boolean" ? undefined : "true or false");
const isStringArray: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === "string")
    ? undefined
    : typeof v === "string"
      ? `an array of strings (split a list first: ${JSON.stringify(v.split(",").map((x) => x.trim()))})`
      : "an array of strings";
const isNameArray: Check = (v) =>
  isStringArray(v) ??
  ((v as string[]).some((x) => x.trim() === "") ? "an array of non-empty names" : undefined);
const isRecordOf =
  (item: Check, what: string): Check =>
  (v) =>
    isPlainObject(v) && Object.values(v).every((x) => item(x) === undefined)
      ? undefined
      : `an object whose values are ${what}`;
const isOneOf =
  (...checks: Check[]): Check =>
  (v) =>
    checks.some((c) => c(v) === undefined)
      ? undefined
      : checks.map((c) => c(v)?.replace(/ \(.*$/, "")).join(" or ");

/**
 * The type of every option. Typed by `SystemPromptOptions`' keys, so a new
 * option does not compile until it says how it is checked. `now`,
 * `treeMtime` and `sections` have their own, more precise checks.
 */
const OPTION_CHECKS: { [K in keyof Required<SystemPromptOptions>]: Check } = {
  cwd: isPath,
  agentDir: isPath,
  projectDir: isPath,
  projectTrusted: isBoolean,
  agentName: isString,
  agent: (v) => (typeof v === "string" && v !== "" ? undefined : 'a preset name such as "codex"'),
  agentMode: (v) => (typeof v === "string" && v !== "" ? undefined : 'a mode name such as "yolo"'),
  configFiles: isBoolean,
  vars: (v) => {
    const type = isRecordOf(isString, "strings")(v);
    if (type !== undefined) return type;
    const bad = Object.keys(v as object).find((name) => varNameProblem(name) !== undefined);
    return bad === undefined
      ? undefined
      : `an object whose keys are variable names (${JSON.stringify(bad)} ${varNameProblem(bad)})`;
  },
  model: isString,
  tools: isNameArray,
  toolSnippets: isRecordOf(isString, "strings"),
  toolGuidelines: isRecordOf(isStringArray, "arrays of strings"),
  promptGuidelines: isStringArray,
  systemPrompt: isString,
  appendSystemPrompt: isOneOf(isString, isStringArray),
  resolvedSystemPrompt: (v) =>
    v === null || typeof v === "string" ? undefined : "a string or null",
  resolvedAppendPrompt: isString,
  sections: (v) => (isPlainObject(v) ? undefined : "an object of section name to text"),
  environment: (v) =>
    Array.isArray(v) &&
    v.every((e) => isPlainObject(e) && typeof e.label === "string" && typeof e.value === "string")
      ? undefined
      : "an array of { label, value } strings",
  noContextFiles: isBoolean,
  contextOnTouch: isBoolean,
  docs: isString,
  workspaceTree: isBoolean,
  treeDepth: (v) =>
    typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= MAX_TREE_DEPTH
      ? undefined
      : `a whole number of levels from 1 to ${MAX_TREE_DEPTH}`,
  git: isBoolean,
  allowGitDirs: isStringArray,
  treeMtime: () => undefined,
  roots: isStringArray,
  maxContextBytes: (v) =>
    typeof v === "number" && Number.isInteger(v) && v > 0
      ? undefined
      : "a whole number of bytes, 1 or more",
  ruleSources: isStringArray,
  skillPaths: isStringArray,
  skills: (v) =>
    Array.isArray(v) &&
    v.every(
      (s) =>
        isPlainObject(s) &&
        typeof s.name === "string" &&
        typeof s.description === "string" &&
        isPath(s.filePath) === undefined &&
        (s.disableModelInvocation === undefined || typeof s.disableModelInvocation === "boolean"),
    )
      ? undefined
      : "an array of { name, description, filePath, disableModelInvocation? } (strings; a boolean)",
  now: () => undefined,
  env: isRecordOf((x) => (x === undefined ? undefined : isString(x)), "strings"),
  home: isPath,
  machine: (v) =>
    isPlainObject(v) && typeof v.platform === "string" && typeof v.arch === "string"
      ? undefined
      : 'an object { platform, arch } of strings, such as { platform: "linux", arch: "x64" }',
  deadlineMs: (v) =>
    typeof v === "number" && v >= 0 ? undefined : "a number of milliseconds, 0 or more",
  builtinDir: isPath,
  maxPromptTokens: (v) =>
    typeof v === "number" && Number.isInteger(v) && v > 0
      ? undefined
      : "a whole number of tokens, 1 or more",
  ceilingDir: isPath,
};

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
    if (!Object.hasOwn(OPTION_CHECKS, key)) {
      throw new SyspromptError(
        "bad-option",
        `unknown option "${key}"; the options are: ${Object.keys(OPTION_CHECKS).join(", ")}`,
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
  const expected = value === undefined ? undefined : OPTION_CHECKS[key](value);
  return expected === undefined ? undefined : `must be ${expected}, got ${describe(value)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)
  );
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

/**
 * ISO 8601 extended format: a date, or a date and time (`T` or a space
 * between, as RFC 3339 allows) with optional seconds, fraction and zone.
 * Linear: no nested or overlapping quantifiers.
 */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The clock option as a Date: a Date, epoch milliseconds, or an ISO 8601
 * string. A string without an offset is UTC, so the date never depends on the
 * machine's time zone; anything JavaScript would merely guess at ("Jan 1
 * 2026", "2026/01/01") or roll over (2026-02-30) is refused. Shared by the
 * API and the CLI's `--now`; `what` names the option in the message.
 *
 * @throws SyspromptError when the value is not a valid time.
 */
export function parseNow(now: Date | string | number | undefined, what = "now"): Date {
  if (now === undefined) return new Date();
  if (typeof now === "string") {
    const time = parseIsoTime(now);
    if (time === undefined) {
      throw new SyspromptError(
        "bad-option",
        `${what}: "${now}" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)`,
      );
    }
    return new Date(time);
  }
  const date = now instanceof Date ? new Date(now.getTime()) : new Date(now);
  if ((typeof now !== "number" && !(now instanceof Date)) || Number.isNaN(date.getTime())) {
    throw new SyspromptError(
      "bad-option",
      `${what}: ${describe(now)} is not a time; pass a Date, epoch milliseconds or an ISO 8601 string`,
    );
  }
  return date;
}

/** Epoch milliseconds of an ISO 8601 string, or undefined when it is not one or names no real time. */
function parseIsoTime(text: string): number | undefined {
  const m = ISO_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((m[7] ?? "").padEnd(3, "0").slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(utc);
  // Date.UTC rolls 2026-02-30 over to March; a clock option that does so is a typo.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() + 1 !== month ||
    check.getUTCDate() !== day
  ) {
    return undefined;
  }
  const zone = m[8];
  if (zone === undefined || zone === "Z") return utc;
  const offsetHours = Number(zone.slice(1, 3));
  const offsetMinutes = Number(zone.slice(-2));
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const sign = zone.startsWith("-") ? -1 : 1;
  return utc - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/** A value for a message: strings quoted (and cut), other values by their kind. */
function describe(value: unknown): string {
  if (typeof value === "string") {
    // Capped: the value may be a whole prompt.
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  }
  if (value instanceof Date) return String(value);
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : String(value);
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
