// Every render option, declared once: its type and check, default, CLI flag,
// sysprompt.yaml key, scenario key, whether a prompt session fixes it, and its
// one-line doc. The API's checks, the flags, the config keys, the scenario keys
// and docs/options.md are all derived from this table.
import { resolveUserPath } from "../_paths.js";
import type { EnvironmentEntry } from "../data.js";
import type { Machine } from "../gather/environment/index.js";
import { ruleSourcesProblem } from "../gather/rules/rule-sources.js";
import { MAX_TREE_DEPTH } from "../gather/tree/depth.js";
import {
  type Check,
  digits,
  isBoolean,
  isName,
  isNameArray,
  isOneOf,
  isPath,
  isPlainObject,
  isRecordOf,
  isString,
  isStringArray,
  isWholeNumber,
  nameList,
  varNameProblem,
} from "./checks.js";
import {
  configKey,
  type FlagContext,
  listFlag,
  nameKey,
  type OptionSpec,
  option,
  pairs,
  toolPairs,
  valueFlag,
} from "./spec.js";

const TREE_LEVELS = `a whole number of levels from 1 to ${MAX_TREE_DEPTH}, such as 4`;
const TOKENS = "a whole number of tokens, 1 or more, such as 8000";
const WHOLE_MS = "a whole number of milliseconds, 0 or more, such as 5000";
const isTreeDepth = isWholeNumber(1, MAX_TREE_DEPTH, TREE_LEVELS);
const isTokens = isWholeNumber(1, Number.MAX_SAFE_INTEGER, TOKENS);
const isWholeMs = isWholeNumber(0, Number.MAX_SAFE_INTEGER, WHOLE_MS);
const isTime: Check = () => undefined; // checked more closely by parseNow
const userPath = (raw: string, at: FlagContext) => resolveUserPath(raw, at.cwd, at.home);

/**
 * The options, in the order the docs and "the options are" list them. A key
 * here is an option of `renderSystemPrompt`; the doc comment is its API doc.
 */
export const OPTIONS = {
  /** Working directory; must be an existing folder. Default: `process.cwd()`. */
  cwd: option<string>()({
    doc: "Working directory: the project the prompt is for; must be an existing folder.",
    type: "path",
    default: "the current folder",
    check: isPath,
    session: "fixed",
    scenario: "cwd",
    flag: valueFlag(
      [["--cwd <dir>", "working directory (default: the current one)"]],
      isPath,
      userPath,
    ),
  }),
  /** User layer folder; when given, it must exist. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent` (may be missing). */
  agentDir: option<string>()({
    doc: "User layer folder; when given, it must exist.",
    type: "path",
    default: "`$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`",
    check: isPath,
    session: "fixed",
    scenario: "agentDir",
    flag: valueFlag(
      [["--agent-dir <dir>", "user layer folder (default: $SYSPROMPT_AGENT_DIR or ~/.pi/agent)"]],
      isPath,
      userPath,
    ),
  }),
  /** Name of the project layer folder under cwd. Default: `".pi"`. */
  projectDir: option<string>()({
    doc: "Name of the project layer folder under cwd.",
    type: "path",
    default: "`.pi`",
    check: isPath,
    session: "fixed",
    scenario: "projectDir",
  }),
  /** When false, project SYSTEM/APPEND/sections/skills are skipped (context files still load). Default: true. */
  projectTrusted: option<boolean>()({
    doc: "When false, the project's SYSTEM/APPEND/sections/skills/config are skipped; context files still load.",
    type: "boolean",
    default: "true",
    check: isBoolean,
    scenario: "projectTrusted",
    flag: {
      declare: [
        [
          "--untrusted",
          "treat the project as untrusted: skip its .pi layer (sections, SYSTEM/APPEND, rules, presets, sysprompt.yaml) and its skills; its context files still load",
        ],
      ],
      parse: (raw) => (raw === true ? { value: false } : undefined),
    },
  }),
  /** The agent's name in the preamble. Default: the preset's name for its agent, else `"a coding agent"`. */
  agentName: option<string>()({
    doc: "The agent's name in the preamble.",
    type: "string",
    default: "the preset's name for its agent, else `a coding agent`",
    check: isString,
    scenario: "agentName",
  }),
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
  agent: option<string>()({
    doc: "The agent the prompt is for: a preset's name (`pi`, `claude-code`, `codex`, `gemini-cli`, `opencode`, or your own).",
    type: "string",
    default: "`pi`",
    check: isName('a preset name such as "codex"'),
    scenario: "agent",
    flag: valueFlag(
      [
        [
          "--agent <name>",
          "the agent the prompt is for: pi (default), claude-code, codex, gemini-cli, opencode, or a preset of your own",
        ],
      ],
      isString,
    ),
    config: nameKey("agent", "agent: claude-code", "an agent's name, such as claude-code"),
  }),
  /**
   * The agent's mode, for a preset whose tools change with it (Gemini CLI's approval
   * mode: `default`, `auto_edit`, `yolo`, `plan`): it picks the preset's `toolSets` entry
   * whose `modes` name it, as `model` picks one by its `models` globs. Default: none
   * (the preset's plain `tools`).
   */
  agentMode: option<string>()({
    doc: "The agent's mode, for a preset whose tools change with it (gemini-cli: `default`, `auto_edit`, `yolo`, `plan`).",
    type: "string",
    default: "none (the preset's plain tools)",
    check: isName('a mode name such as "yolo"'),
    flag: valueFlag(
      [
        [
          "--agent-mode <name>",
          "the agent's mode where its tools change with it (gemini-cli: default, auto_edit, yolo, plan)",
        ],
      ],
      isString,
    ),
    config: nameKey("agent-mode", "agent-mode: yolo", "a mode name, such as yolo"),
  }),
  /**
   * Read `sysprompt.yaml` from the agent dir and, when the project is
   * trusted, from the project folder (`.pi/sysprompt.yaml`): their values
   * apply under the options given here (an option given wins, then the
   * project's file, then the user's). The CLI and the pi extension pass true.
   * Default: false (a library render depends on its options alone).
   */
  configFiles: option<boolean>()({
    doc: "Read `sysprompt.yaml` (the agent dir's, then a trusted project's) under the options given.",
    type: "boolean",
    default: "false (the CLI: true)",
    check: isBoolean,
    flag: {
      declare: [["--no-config", "read no sysprompt.yaml (user or project)"]],
      parse: (raw) => ({ value: raw !== false }),
      // The CLI reads the files unless --no-config.
      cliDefault: true,
    },
  }),
  /**
   * Variables templates read as `{{vars.NAME}}`: names of letters, digits and
   * `_` (not starting with a digit), string values. With `configFiles`, they
   * win name by name over the files' `vars:`. Default: none.
   */
  vars: option<Readonly<Record<string, string>>>()({
    doc: "Variables templates read as `{{vars.NAME}}`; they win name by name over the files' `vars:`.",
    type: "record of strings",
    default: "none",
    check: (v) => {
      const type = isRecordOf(isString, "strings")(v);
      if (type !== undefined) return type;
      const bad = Object.keys(v as object).find((name) => varNameProblem(name) !== undefined);
      return bad === undefined
        ? undefined
        : `an object whose keys are variable names (${JSON.stringify(bad)} ${varNameProblem(bad)})`;
    },
    flag: listFlag(
      [
        [
          "--var <name=value>",
          "a variable templates read as {{vars.name}} (repeatable; beats sysprompt.yaml's vars:)",
        ],
      ],
      (raw) => pairs(raw, "NAME=value, such as --var team=payments", varNameProblem),
    ),
    // Checked entry by entry where the file is parsed, so one bad variable spares the others.
    config: {
      key: "vars",
      example: "vars:\n  team: payments",
      parse: () => ({ problem: "is checked per variable" }),
    },
  }),
  /**
   * Model name, stated in the environment section; it also chooses per-model
   * section variants (`rules@small.md`, whose `models:` globs match it).
   * Default: none (plain section files only).
   */
  model: option<string>()({
    doc: "Model name: stated in the environment section; it picks per-model variants (`rules@small.md`).",
    type: "string",
    default: "none",
    check: isString,
    scenario: "model",
    flag: valueFlag(
      [
        [
          "--model <name>",
          "model name: stated in the environment section, and it picks per-model variants (rules@small.md)",
        ],
      ],
      isString,
    ),
    config: nameKey("model", "model: gpt-5", "a model name"),
  }),
  /** Selected tool names, in order (an array, not a comma-separated string). Default: read, bash, edit, write. A name nothing describes gets an info diagnostic. */
  tools: option<readonly string[]>()({
    doc: "Selected tool names, in order; a name nothing describes gets an info diagnostic.",
    type: "string[]",
    default: "the agent's own (pi: read, bash, edit, write)",
    check: isNameArray,
    scenario: "tools",
    flag: {
      declare: [
        [
          "--tools <a,b>",
          "selected tools, comma-separated (default: the agent's own; pi: read,bash,edit,write)",
        ],
      ],
      parse: (raw) => ({
        value: (raw as string)
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== ""),
      }),
    },
    config: {
      key: "tools",
      example: "tools: [read, bash, edit, write]",
      parse: (v) => nameList(v, "tool names"),
    },
  }),
  /** One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool. */
  toolSnippets: option<Readonly<Record<string, string>>>()({
    doc: 'One-line tool descriptions that add to or replace the builtin ones; `""` hides a tool.',
    type: "record of strings",
    default: "none",
    check: isRecordOf(isString, "strings"),
    scenario: "toolSnippets",
    flag: listFlag(
      [
        [
          "--tool <name=text>",
          "a tool's one-line description, added or replacing the builtin one; an empty text hides the tool (repeatable)",
        ],
      ],
      toolPairs,
    ),
  }),
  /** Guidelines per tool, added to the rules when the tool is selected. */
  toolGuidelines: option<Readonly<Record<string, readonly string[]>>>()({
    doc: "Guidelines per tool, added to the rules when the tool is selected.",
    type: "record of string[]",
    default: "none",
    check: isRecordOf(isStringArray, "arrays of strings"),
    scenario: "toolGuidelines",
  }),
  /** The caller's own rules, added after tool guidelines and before the general rules. */
  promptGuidelines: option<readonly string[]>()({
    doc: "The caller's own rules, added after tool guidelines and before the general rules.",
    type: "string[]",
    default: "none",
    check: isStringArray,
    scenario: "promptGuidelines",
    flag: listFlag([["--guideline <text>", "add a rule to the rules section (repeatable)"]]),
  }),
  /** Custom base prompt: text, or a path to a text file (`~` is `home`). Beats SYSTEM.md files. A one-line value that looks like a path but names no file is an error. */
  systemPrompt: option<string>()({
    doc: "Custom base prompt: text, or a path to a text file; beats SYSTEM.md files.",
    type: "text or path",
    default: "none",
    check: isString,
    scenario: "systemPrompt",
    flag: valueFlag(
      [
        [
          "--system-prompt <text|file>",
          "replace the base sections with this text, or with the file it names (beats SYSTEM.md)",
        ],
      ],
      isString,
    ),
  }),
  /** Appended after APPEND_SYSTEM.md, each text or a path to a text file (read as for `systemPrompt`). */
  appendSystemPrompt: option<string | readonly string[]>()({
    doc: "Appended after APPEND_SYSTEM.md, each text or a path to a text file.",
    type: "text or path, or a list",
    default: "none",
    check: isOneOf(isString, isStringArray),
    scenario: "appendSystemPrompt",
    flag: listFlag([
      [
        "--append-system-prompt <text|file>",
        "append this text, or the file it names, after APPEND_SYSTEM.md (repeatable)",
      ],
    ]),
  }),
  /**
   * The custom base prompt as a host that reads SYSTEM.md itself (pi) already
   * resolved it: literal text (never a path), or `null` (or `""`) for none.
   * When given, no layer's SYSTEM.md is read; a non-empty text is the custom
   * base prompt and beats every SYSTEM_TEMPLATE.md, while `null` leaves the
   * SYSTEM_TEMPLATE.md files (which such a host does not know) in charge.
   * Not together with `systemPrompt`. Default: not given (sysprompt reads SYSTEM.md).
   */
  resolvedSystemPrompt: option<string | null>()({
    doc: "The custom base prompt as a host that reads SYSTEM.md itself resolved it (literal text, or null).",
    type: "string or null",
    default: "not given (SYSTEM.md is read)",
    check: (v) => (v === null || typeof v === "string" ? undefined : "a string or null"),
  }),
  /**
   * The appended text as a host that reads APPEND_SYSTEM.md itself (pi)
   * already resolved it, literal. When given, no layer's APPEND_SYSTEM.md is
   * read; the text (`""` for none) takes its place, before every
   * `appendSystemPrompt` value. Default: not given (sysprompt reads APPEND_SYSTEM.md).
   */
  resolvedAppendPrompt: option<string>()({
    doc: "The appended text as a host that reads APPEND_SYSTEM.md itself resolved it, literal.",
    type: "string",
    default: "not given (APPEND_SYSTEM.md is read)",
    check: isString,
  }),
  /** Named sections from code: replace a section's body in place, or add one before the volatile sections (see `ExtraSection`). */
  sections: option<Readonly<Record<string, string>>>()({
    doc: "Named sections from code: replace a section's body in place, or add one before the volatile sections.",
    type: "record of strings",
    default: "none",
    check: (v) => (isPlainObject(v) ? undefined : "an object of section name to text"),
    scenario: "sections",
  }),
  /** Replaces environment detection entirely (the model line still follows). */
  environment: option<readonly EnvironmentEntry[]>()({
    doc: "Replaces environment detection entirely (the model line still follows).",
    type: "{ label, value }[]",
    default: "detected",
    check: (v) =>
      Array.isArray(v) &&
      v.every((e) => isPlainObject(e) && typeof e.label === "string" && typeof e.value === "string")
        ? undefined
        : "an array of { label, value } strings",
    scenario: "environment",
  }),
  /** Skip AGENTS.md / CLAUDE.md discovery. Default: false. */
  noContextFiles: option<boolean>()({
    doc: "Skip AGENTS.md / CLAUDE.md discovery.",
    type: "boolean",
    default: "false",
    check: isBoolean,
    scenario: "noContextFiles",
    flag: {
      declare: [["--no-context-files", "skip AGENTS.md / CLAUDE.md discovery"]],
      parse: (raw) => (raw === false ? { value: true } : undefined),
    },
  }),
  /**
   * The host appends the nested AGENTS.md / CLAUDE.md below cwd to the result
   * of the tool call that first touches their folder (pi's on-touch mode,
   * `session.contextFor()`): `dir_context` then says they arrive that way
   * instead of asking the model to read them. Set it only when the host
   * delivers them. Default: false.
   */
  contextOnTouch: option<boolean>()({
    doc: "The host delivers nested AGENTS.md files with the first tool result in their folder; `dir_context` says so.",
    type: "boolean",
    default: "false",
    check: isBoolean,
    flag: {
      declare: [
        [
          "--on-touch",
          "say that deeper AGENTS.md files arrive with the first tool result in their folder (as the pi extension delivers them)",
        ],
      ],
      parse: (raw) => (raw === true ? { value: true } : undefined),
    },
  }),
  /** Documentation pointers; the docs section renders only when given. */
  docs: option<string>()({
    doc: "Documentation pointers; the docs section renders only when given.",
    type: "string",
    default: "none",
    check: isString,
    scenario: "docs",
  }),
  /** Add a compact listing of cwd (`workspace_tree`) and the AGENTS.md files below it (`dir_context`). Default: false. */
  workspaceTree: option<boolean>()({
    doc: "Add a compact listing of cwd (`workspace_tree`) and the AGENTS.md files below it (`dir_context`).",
    type: "boolean",
    default: "false",
    check: isBoolean,
    scenario: "workspaceTree",
    flag: {
      declare: [
        ["--tree", "add the workspace tree and the list of deeper AGENTS.md files"],
        ["--no-tree", "leave the workspace tree out, whatever sysprompt.yaml says"],
      ],
      // --tree and --no-tree both beat a config file's `tree:`.
      parse: (raw) => (typeof raw === "boolean" ? { value: raw } : undefined),
    },
    config: configKey("tree", "tree: true", isBoolean),
  }),
  /**
   * Levels of entries the workspace tree shows below each root, 1 to 8
   * (the line cap still holds). Only with `workspaceTree`. Default: 3.
   */
  treeDepth: option<number>()({
    doc: "Levels of entries the workspace tree shows below each root (the line cap still holds).",
    type: `1 to ${MAX_TREE_DEPTH}`,
    default: "3",
    check: isTreeDepth,
    flag: {
      ...valueFlag(
        [
          [
            "--tree-depth <n>",
            `levels the workspace tree shows, 1 to ${MAX_TREE_DEPTH} (default 3); turns the tree on`,
          ],
        ],
        isTreeDepth,
        digits,
      ),
      // Asking for a depth is asking for the tree; --no-tree still wins.
      implies: { workspaceTree: true },
    },
    config: configKey("tree-depth", "tree-depth: 4", isTreeDepth),
  }),
  /**
   * Add the `git` section: the branch, its upstream (ahead/behind), counts of
   * staged, unstaged and untracked files and the last 5 commit subjects, from
   * the system git under the deadline. Default: false.
   */
  git: option<boolean>()({
    doc: "Add the `git` section: branch, upstream, changed-file counts, last commit subjects.",
    type: "boolean",
    default: "false",
    check: isBoolean,
    flag: {
      declare: [
        [
          "--git",
          "add the git section: branch, upstream, changed-file counts, last commit subjects",
        ],
      ],
      parse: (raw) => (raw === true ? { value: true } : undefined),
    },
    config: configKey("git", "git: true", isBoolean),
  }),
  /**
   * Git folders outside the project that the git section may read when the
   * project's `.git` file or link leads there (`git init --separate-git-dir`;
   * `~` and relative paths resolve from cwd; each must be an existing folder).
   * Without it such a repository is refused (`git-outside`): a project's
   * `.git` may name any repository of the user's. Worktrees and submodules
   * need no entry. Default: none.
   */
  allowGitDirs: option<readonly string[]>()({
    doc: "Git folders outside the project that the project's `.git` file may lead to (a `--separate-git-dir`).",
    type: "path[]",
    default: "none",
    check: isStringArray,
    flag: listFlag(
      [
        [
          "--allow-git-dir <dir>",
          "a git folder outside the project that its .git file may lead to, such as a --separate-git-dir (repeatable)",
        ],
      ],
      (raw, at) => ({ value: raw.map((dir) => userPath(dir, at)) }),
    ),
  }),
  /**
   * One time shown for every workspace tree entry instead of its own mtime (a
   * Date, epoch milliseconds or an ISO 8601 string), so entries order by name:
   * fixtures checked out anywhere render the same tree. Default: each entry's mtime.
   */
  treeMtime: option<Date | string | number>()({
    doc: "One time shown for every workspace tree entry instead of its own mtime.",
    type: "Date, epoch ms or ISO 8601",
    default: "each entry's mtime",
    check: isTime,
    scenario: "mtime",
  }),
  /**
   * Extra workspace roots (folders; `~` and relative paths resolve from cwd). Each root's
   * ancestors are searched for context files after cwd's, and the `workspace_roots` section
   * lists them. A root that is not a folder throws a SyspromptError. Default: none.
   */
  roots: option<readonly string[]>()({
    doc: "Extra workspace roots: their context files load too, and `workspace_roots` lists them.",
    type: "path[]",
    default: "none",
    check: isStringArray,
    scenario: "roots",
    // Relative to where the command runs, like --cwd itself (not to --cwd).
    flag: listFlag(
      [
        [
          "--root <dir>",
          "extra workspace root: its context files load too (repeatable; relative to the shell's folder, like --cwd)",
        ],
      ],
      (raw, at) => ({ value: raw.map((root) => userPath(root, at)) }),
    ),
  }),
  /**
   * Cap of each context file and each `@import`, in bytes; a larger one is cut at a UTF-8
   * boundary and ends with a marker line saying how much was left out. Default: 262144 (256 KiB).
   */
  maxContextBytes: option<number>()({
    doc: "Cap of each context file and each `@import`, in bytes; a larger one is cut with a marker line.",
    type: "bytes",
    default: "262144 (256 KiB)",
    check: isWholeNumber(1, Number.MAX_SAFE_INTEGER, "a whole number of bytes, 1 or more"),
    scenario: "maxContextBytes",
  }),
  /**
   * Which agents' rule files to read: format names (`cursor`, `windsurf`,
   * `cline`, `copilot`, `claude`, `gemini`, `kiro`, `roo`, `continue`, `zed`,
   * `sysprompt`) and `user:<format>` for another agent's user-level folder
   * (`user:claude` = `~/.claude/rules`, `user:windsurf`, `user:copilot`,
   * `user:kiro`, `user:roo`); `[]` reads none. Default: every format at
   * project level and sysprompt's own (`<agentDir>/rules`, `.pi/rules`), no
   * other agent's user-level folder. An unknown name throws a SyspromptError.
   */
  ruleSources: option<readonly string[]>()({
    doc: "Which agents' rule files to read: format names, and `user:<format>` for another agent's user folder.",
    type: "string[]",
    default: "every format at project level, and sysprompt's own",
    check: isStringArray,
    config: {
      key: "rule-sources",
      example: "rule-sources: [cursor, claude]",
      parse: (v) => {
        const names = nameList(v, "rule source names");
        if ("problem" in names) return names;
        const problem = ruleSourcesProblem(names.value);
        return problem === undefined ? { value: [...new Set(names.value)] } : { problem };
      },
    },
  }),
  /** Skill folders or files searched before the default ones. */
  skillPaths: option<readonly string[]>()({
    doc: "Skill folders or files searched before the default ones.",
    type: "path[]",
    default: "none",
    check: isStringArray,
    scenario: "skillPaths",
  }),
  /**
   * Skills the caller already loaded, in the order to list them: the skills
   * step does not run (`skillPaths` is then unused) and this list is the
   * `skills` section's, minus those with `disableModelInvocation: true`. Extra
   * fields are ignored, so a host's own skill objects (pi's) pass as they are.
   * Default: not given (skills are discovered).
   */
  skills: option<readonly PreloadedSkill[]>()({
    doc: "Skills the caller already loaded, in order: the skills step does not run.",
    type: "{ name, description, filePath }[]",
    default: "not given (skills are discovered)",
    check: (v) =>
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
  }),
  /** The clock: a Date, epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it has an offset). Default: now. */
  now: option<Date | string | number>()({
    doc: "The clock: a Date, epoch milliseconds, or an ISO 8601 date or date-time (UTC unless it has an offset).",
    type: "Date, epoch ms or ISO 8601",
    default: "now",
    check: isTime,
    scenario: "now",
    // Checked by the library's parseNow, which names the flag.
    flag: valueFlag(
      [["--now <iso>", "pin the clock (ISO 8601, UTC when no offset is given)"]],
      isString,
    ),
  }),
  /** Environment variables. Default: `process.env`. */
  env: option<Readonly<Record<string, string | undefined>>>()({
    doc: "Environment variables.",
    type: "record of strings",
    default: "`process.env`",
    check: isRecordOf((x) => (x === undefined ? undefined : isString(x)), "strings"),
    session: "fixed",
    scenario: "env",
  }),
  /** Home folder. Default: `os.homedir()`. */
  home: option<string>()({
    doc: "Home folder.",
    type: "path",
    default: "`os.homedir()`",
    check: isPath,
    session: "fixed",
    scenario: "home",
  }),
  /**
   * The machine the environment section describes. Default: this one (OS
   * release, /proc/cpuinfo, a GPU probe of system binaries only, cached in `$XDG_CACHE_HOME/sysprompt/` (else `~/.cache/sysprompt/`; `<agentDir>/cache/` when agentDir or `$SYSPROMPT_AGENT_DIR` is given)). When
   * given, it is the whole machine: facts it leaves out are not stated, and
   * without `readFile` / `runProbe` no file is read and no process started.
   */
  machine: option<Machine>()({
    doc: "The machine the environment section describes; when given, it is the whole machine.",
    type: "{ platform, arch, … }",
    default: "this one",
    check: (v) =>
      isPlainObject(v) && typeof v.platform === "string" && typeof v.arch === "string"
        ? undefined
        : 'an object { platform, arch } of strings, such as { platform: "linux", arch: "x64" }',
    session: "fixed",
    scenario: "machine",
  }),
  /**
   * Budget of the whole gathering stage in ms; every step starts at once and a
   * step still running at the deadline gives its fallback. A number ≥ 0
   * (`Infinity`: none). Default: 5000.
   */
  deadlineMs: option<number>()({
    doc: "Budget of the whole gathering stage in ms; a step still running at the deadline gives its fallback.",
    type: "ms (`Infinity`: none)",
    default: "5000",
    check: (v) =>
      typeof v === "number" && v >= 0 ? undefined : "a number of milliseconds, 0 or more",
    flag: valueFlag(
      [
        [
          "--deadline <ms>",
          "gathering budget in ms; late steps give their fallback (default: 5000)",
        ],
      ],
      isWholeMs,
      digits,
    ),
    config: configKey("deadline", "deadline: 5000", isWholeMs),
  }),
  /** Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`); must hold `sections/`. Default: the package's own. */
  builtinDir: option<string>()({
    doc: "Builtin prompts folder (`sections/`, `partials/`, `tools.md`, `rules.md`); must hold `sections/`.",
    type: "path",
    default: "the package's own",
    check: isPath,
    session: "fixed",
  }),
  /**
   * Token budget of the whole prompt (estimated with the o200k_base encoding).
   * Over it, sections that declare `shrink:` steps give up text, cheapest
   * first, until it fits; the result's `budget` says what was cut. A whole
   * number, 1 or more. Default: none.
   */
  maxPromptTokens: option<number>()({
    doc: "Token budget of the whole prompt (o200k estimate): sections with `shrink:` steps give up text until it fits.",
    type: "tokens",
    default: "none",
    check: isTokens,
    scenario: "maxPromptTokens",
    flag: valueFlag(
      [
        [
          "--max-tokens <n>",
          "token budget (o200k estimate): sections with shrink steps give up text until it fits",
        ],
      ],
      isTokens,
      digits,
    ),
    config: configKey("max-tokens", "max-tokens: 8000", isTokens),
  }),
  /**
   * No folder above this one is looked at when searching upwards: for context
   * files, for `.git` (the project root), for `.agents/skills` and for
   * `.gitignore` files (as git's GIT_CEILING_DIRECTORIES). Snapshot scenarios
   * set it to their sandbox. Default: none (up to `/`).
   */
  ceilingDir: option<string>()({
    doc: "No folder above this one is looked at when searching upwards (context files, `.git`, skills, ignores).",
    type: "path",
    default: "none (up to `/`)",
    check: isPath,
  }),
};

/** A skill the caller loaded itself (the `skills` option). */
export interface PreloadedSkill {
  name: string;
  description: string;
  /** Path of the skill's file, as the model should open it. */
  filePath: string;
  /** True: left out of the prompt (the skill is only invoked by the user). Default: false. */
  disableModelInvocation?: boolean;
}

type Options = typeof OPTIONS;
type TypeOf<S> = S extends OptionSpec<infer T> ? T : never;

/** Options of `renderSystemPrompt`. Every field is optional; defaults are documented per field. */
export type SystemPromptOptions = { -readonly [K in keyof Options]?: TypeOf<Options[K]> };

/** The name of an option. */
export type OptionName = keyof Options;

/** The options a prompt session fixes when it is created. */
export type SessionFixedOption = {
  [K in OptionName]: Options[K] extends { session: "fixed" } ? K : never;
}[OptionName];

/** A scenario's key for each option a scenario may set (`mtime` for `treeMtime`). */
export type ScenarioKeyOf = {
  [K in OptionName as Options[K] extends { scenario: string } ? Options[K]["scenario"] : never]: K;
};

/** Every option's spec, in order, typed loosely for the code that walks them. */
export const OPTION_SPECS = Object.entries(OPTIONS) as [OptionName, OptionSpec<unknown>][];
