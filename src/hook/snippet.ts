/**
 * What `sysprompt export --agent NAME --hooks` prints: the snippet for the
 * agent's own settings that runs `sysprompt hook NAME` after its tool calls
 * (the opencode plugin for opencode), with the path of the installed
 * sysprompt in it. Pure: nothing is written, least of all into another
 * agent's configuration.
 */
import { basename, dirname, isAbsolute, join, posix, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { expandHome, pathKey, xdgFolder } from "../_paths.js";
import { escapeInline } from "../_text.js";
import { SETTINGS_FILES } from "../agent-settings-files.js";
import { quotePath } from "../agents/export.js";
import { RULE_FORMATS } from "../gather/rules/index.js";
import { TOOL_SHAPES, type ToolAgent } from "./input.js";

/**
 * Names compared as macOS and Windows take them, on every system: `.Claude/settings.json` is
 * `.claude/settings.json` there (rev58d F5), and a refusal must not hang on the platform.
 */
const fold = pathKey;

/** Seconds (Claude Code, Codex) or milliseconds (Gemini CLI) an agent waits for the hook. */
const TIMEOUT_S = 10;

export interface HookSnippet {
  /** Where the snippet goes, in words. */
  where: string;
  /** The snippet, ready to paste (it ends with a line break). */
  text: string;
  /** What the agent asks before it runs a project's hook, in words. */
  trust: string;
  /** The file the snippet has the agent run as code: the sysprompt script, or opencode's plugin file. */
  runs: string;
  /** Which hook it is, in words: the project trusted, or untrusted (`--untrusted`). */
  mode: string;
}

/** The agents `export --hooks` has a snippet for. */
export const HOOK_SNIPPET_AGENTS: readonly ToolAgent[] = [
  "claude-code",
  "codex",
  "gemini-cli",
  "opencode",
];

export function hasHookSnippet(agent: string): agent is ToolAgent {
  return (HOOK_SNIPPET_AGENTS as readonly string[]).includes(agent);
}

export { SETTINGS_FILES };

/**
 * Each agent's own folders, in a project or your home folder: what lies in
 * one is the agent's configuration (settings, MCP servers, models, commands,
 * opencode's plugins, which it runs as code; Claude Code's plugin manifests,
 * Codex's plugin marketplaces), save an instructions or prompt file at its
 * top ({@link INSTRUCTION_FILES}) and the files of its prompt folders
 * ({@link PROMPT_FOLDERS}). `export --out` never writes a prompt over any
 * other file in one ({@link agentFileOf}).
 */
export const AGENT_FOLDERS: Readonly<Record<ToolAgent | "pi", readonly string[]>> = {
  "claude-code": [".claude", ".claude-plugin"],
  // `.agents/skills`: the skills Codex (and pi, and sysprompt) load from a project and from your
  // home folder, refused as `.pi/skills` and `.claude/skills` are (review rev88d F1).
  codex: [".codex", ".agents/plugins", ".agents/skills"],
  "gemini-cli": [".gemini"],
  opencode: [".opencode", ".config/opencode"],
  pi: [".pi", ".pi/agent"],
};

/**
 * The folders of the other agents and editors a project (or your home
 * folder) configures: the agents' whose rules sysprompt reads, GitHub's
 * (Actions' workflows beside Copilot's instructions), Amazon Q's, Zed's, VS
 * Code's and JetBrains IDEs'. What lies in one is configuration (MCP servers,
 * hooks, tasks and workflows that run commands), save the files sysprompt
 * reads there as rules ({@link RULE_FORMATS}: `.cursor/rules/`,
 * `.github/copilot-instructions.md`) and an instructions file at its top.
 * `export --out` never writes a prompt over any other file in one ({@link
 * agentFileOf}; review rev56d F4). No preset exports into them, so in your
 * home folder they stay under the dot-name rule.
 */
export const CONFIG_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  Cursor: [".cursor"],
  Windsurf: [".windsurf", ".codeium"],
  Cline: [".clinerules", ".cline"],
  GitHub: [".github"],
  "Copilot CLI": [".copilot"],
  Kiro: [".kiro"],
  Roo: [".roo"],
  Continue: [".continue"],
  "Amazon Q": [".amazonq"],
  Zed: [".zed"],
  "VS Code": [".vscode"],
  JetBrains: [".idea"],
  // Review rev92d F4: each reads a project's folder of its own (sources: the agents' docs).
  // Qwen Code: `.qwen/commands/*.md`, custom commands whose `!{…}` runs shell (its docs' "Custom Commands").
  Qwen: [".qwen"],
  // Factory: `.factory/droids/*.md` (custom droids: the `---` block names tools and model), `.factory/commands` (executables run).
  Factory: [".factory"],
  // Augment (Auggie): `.augment/commands/*.md`, custom slash commands (frontmatter: description, model).
  Augment: [".augment"],
  // Crush: `<project>/.crush/commands/*.md`, custom commands (saved prompts), its COMMANDS.md.
  Crush: [".crush"],
  // Kilo Code: `.kilocode/workflows/*.md` (workflows), `.kilocode/rules/`, `.kilocode/mcp.json`.
  "Kilo Code": [".kilocode"],
  // Antigravity: `.agent/rules/*.md`, `.agent/workflows/*.md` (workflows; review rev103b F5).
  Antigravity: [".agent"],
};

/** A place sysprompt reads rules from inside a {@link CONFIG_FOLDERS} folder, as its rule formats say. */
interface RulePlace {
  /** The place's path, folded, in names (`.cursor`, `rules`). */
  names: string[];
  file: boolean;
  recursive: boolean;
  match: (name: string) => boolean;
  select: (rel: string) => boolean;
}

const configFolderNames = new Set(Object.values(CONFIG_FOLDERS).flat().map(fold));

/**
 * The rule files sysprompt reads in the folders of {@link CONFIG_FOLDERS}: the text in them.
 * Made at the first call, not as this module loads: src/_cache-location.ts reads this module,
 * and a module that loads it on the way from the rule formats' module would find
 * `RULE_FORMATS` not yet made (an import cycle: the module is half-made while it loads).
 */
let rulePlaces: readonly RulePlace[] | undefined;
function rulePlacesOf(): readonly RulePlace[] {
  rulePlaces ??= RULE_FORMATS.flatMap((f) => f.locations)
    .filter((l) => configFolderNames.has(fold(l.rel.split("/")[0] ?? "")))
    .map((l) => ({
      names: fold(l.rel).split("/"),
      file: l.kind === "file",
      recursive: l.recursive === true,
      match: l.match ?? (() => true),
      select: l.select ?? (() => true),
    }));
  return rulePlaces;
}

/** The rule places of {@link CONFIG_FOLDERS}' `folder`, as a refusal names them (`.cursor/rules/`). */
export function rulePlacesIn(folder: string): string[] {
  const top = fold(folder);
  return rulePlacesOf()
    .filter((p) => p.names[0] === top)
    .map((p) => `${p.names.join("/")}${p.file ? "" : "/"}`);
}

/**
 * The folders in an agent's folder ({@link AGENT_FOLDERS}) whose files are
 * text for the model and nothing else (no command runs from them, no tool or
 * setting is named in them, save in a leading `---` block, which the writer
 * holds back: {@link promptFolderOf}): Claude Code's output styles, Codex's custom
 * prompts, pi's prompt templates (its project's and its agent dir's), and
 * opencode's `prompts/` beside its config, where its `{file:./prompts/x.txt}`
 * points. `export --out` writes a prompt there, anywhere below. Not the
 * command folders: Claude Code's and opencode's commands run shell lines
 * (`!`), Gemini CLI's are TOML. In your home folder each is yours (its agent reads it in every
 * project as your words): `render -o` writes an untrusted project's prompt into none of them
 * (`yourInputOf` in src/cli/commands/_output-file.ts; review rev107d F2), nor in another
 * user's, nor where an environment variable moves them ({@link promptFoldersOfYours}, review
 * rev108c F1).
 */
export const PROMPT_FOLDERS: Readonly<Record<ToolAgent | "pi", readonly string[]>> = {
  "claude-code": [".claude/output-styles"],
  codex: [".codex/prompts"],
  "gemini-cli": [],
  opencode: [".opencode/prompts", ".config/opencode/prompts"],
  pi: [".pi/prompts", ".pi/agent/prompts"],
};

/**
 * The folders in the other agents' folders ({@link CONFIG_FOLDERS}) whose
 * files are text for the model, as {@link PROMPT_FOLDERS} are in the agents':
 * Copilot's custom agents, prompt files and chat modes, Cursor's and Roo's
 * commands, Windsurf's and Cline's workflows, Amazon Q's rules, Factory's droids, Augment's
 * and Crush's commands, Kilo Code's and Antigravity's workflows. `export --out`
 * writes a prompt there, anywhere below (rev57a F4: `.github/agents/x.agent.md`
 * was refused as GitHub's configuration), but not one that opens with a `---`
 * block: Copilot reads it as the agent's tools, model and mode (rev88d F1).
 */
export const CONFIG_PROMPT_FOLDERS: Readonly<Partial<Record<string, readonly string[]>>> = {
  GitHub: [".github/agents", ".github/prompts", ".github/chatmodes"],
  Cursor: [".cursor/commands"],
  Windsurf: [".windsurf/workflows"],
  Cline: [".clinerules/workflows"],
  Roo: [".roo/commands"],
  "Amazon Q": [".amazonq/rules"],
  // Review rev92d F4: text for the model, a leading `---` block held back (Qwen's commands are
  // none: their `!{…}` runs shell).
  Factory: [".factory/droids"],
  Augment: [".augment/commands"],
  Crush: [".crush/commands"],
  "Kilo Code": [".kilocode/workflows"],
  Antigravity: [".agent/workflows"],
};

/**
 * The folders of {@link CONFIG_FOLDERS} a program reads only at a
 * repository's top: GitHub reads `.github` there alone (Actions' workflows,
 * CODEOWNERS), so a `docs/.github/` inside a repository is a plain folder.
 */
export const TOP_ONLY_FOLDERS: readonly string[] = [".github"];

/**
 * The folders, as `path` spells them (as written and with its `.` and `..`
 * taken away), that hold a {@link TOP_ONLY_FOLDERS} folder on it: the ones
 * {@link agentFileOf}'s `isTop` is asked about.
 */
export function topOnlyHolders(path: string): string[] {
  const written = path.split(sep).join("/");
  const topOnly = new Set(TOP_ONLY_FOLDERS.map(fold));
  return [written, posix.normalize(written)].flatMap((spelled) => {
    const names = spelled.split("/");
    return names.flatMap((n, i) => (topOnly.has(fold(n)) ? [names.slice(0, i).join("/")] : []));
  });
}

/**
 * Where agents make git worktrees, each a checkout of the project under a
 * name of its own: `claude --worktree NAME` makes `.claude/worktrees/NAME/`,
 * the Codex app `~/.codex/worktrees/<id>/<project>/`. What lies below that
 * name is a project's, not the agent's: it is judged as from the
 * checkout's top ({@link agentFileOf}), where its own `.claude/` or
 * `.mcp.json` is that checkout's configuration again.
 */
export const WORKTREE_FOLDERS: Readonly<Partial<Record<ToolAgent, readonly string[]>>> = {
  "claude-code": [".claude/worktrees"],
  codex: [".codex/worktrees"],
};

/**
 * The files at the top of an agent's folder ({@link AGENT_FOLDERS}) that are
 * text for the model, not configuration: the instructions files agents read
 * (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, pi's `SYSTEM.md` and
 * `APPEND_SYSTEM.md`, codex's `AGENTS.override.md`), and the prompt files the
 * presets export (`system-prompt.md`, `instructions.md`, gemini's
 * `system.md`, `prompt.md`). Compared without case.
 */
export const INSTRUCTION_FILES: readonly string[] = [
  "AGENTS.md",
  "AGENTS.override.md",
  "CLAUDE.md",
  "GEMINI.md",
  "SYSTEM.md",
  "APPEND_SYSTEM.md",
  "system-prompt.md",
  "instructions.md",
  "prompt.md",
];

/**
 * The files at the top of pi's agent dir that it (and sysprompt's render) loads by itself as
 * yours in every project: its context files and its prompt files. At `~/.pi/agent` by default
 * ({@link GLOBAL_INSTRUCTION_FILES}), and at the agent dir the render resolves wherever it is
 * (`--agent-dir ~/pi-agent`, `SYSPROMPT_AGENT_DIR`: {@link globalInstructionPlaces}' `agentDirs`;
 * review rev101d F2).
 */
export const AGENT_DIR_INSTRUCTION_FILES: readonly string[] = [
  "AGENTS.md",
  "CLAUDE.md",
  "SYSTEM.md",
  "APPEND_SYSTEM.md",
];

/**
 * Each agent's own instructions files in your home folder, which it loads by
 * itself in every project as your words (its global memory): Claude Code's
 * user memory, Codex's global `AGENTS.md` (and its override), Gemini CLI's
 * global `GEMINI.md`, opencode's global rules, pi's agent dir's context and
 * prompt files. The presets' `loadsItself` names the project's files; these
 * are the home folder's beside them (each preset's comment names them).
 * `render -o` and `export --out` refuse them: the project's prompt, a
 * repository's text in it, would be read as yours in every project (review
 * rev92d F5). At their default places, and where `CLAUDE_CONFIG_DIR`, `CODEX_HOME` or
 * `XDG_CONFIG_HOME` move them ({@link MOVED_INSTRUCTION_PLACES}, review rev107e F3); pi's
 * agent dir is followed where pi or the render resolves it ({@link globalInstructionPlaces}).
 */
export const GLOBAL_INSTRUCTION_FILES: Readonly<Record<ToolAgent | "pi", readonly string[]>> = {
  "claude-code": [".claude/CLAUDE.md"],
  codex: [".codex/AGENTS.md", ".codex/AGENTS.override.md"],
  "gemini-cli": [".gemini/GEMINI.md"],
  opencode: [".config/opencode/AGENTS.md"],
  pi: AGENT_DIR_INSTRUCTION_FILES.map((f) => `.pi/agent/${f}`),
};

/**
 * The folders of your home folder whose every Markdown file an agent loads by itself in every
 * workspace as your rules, as {@link GLOBAL_INSTRUCTION_FILES} are loaded: Cline's global rules
 * folder, `~/Documents/Cline/Rules` (on Linux some installs use `~/Cline/Rules`; Cline's docs,
 * "Global Rules Directory Location"). Not a dot folder, so no other rule reaches it (review
 * rev101d F3). Claude Code's user rules folder `~/.claude/rules`, walked down every folder for
 * its `.md` files, each loaded as yours with its `@` imports expanded (Claude Code 2.1.332's
 * rules walk, review rev107e F2). Of the other agents sysprompt exports for, Gemini CLI 0.61.0
 * and opencode 1.18.33 load their global files alone, and Codex 0.171.0's `~/.codex/rules`
 * holds `.rules` command policies, not instructions.
 */
export const GLOBAL_INSTRUCTION_FOLDERS: Readonly<Record<string, readonly string[]>> = {
  Cline: ["Documents/Cline/Rules", "Cline/Rules"],
  "claude-code": [".claude/rules"],
};

/**
 * The agents of {@link GLOBAL_INSTRUCTION_FOLDERS} that expand the `@` imports of each file in
 * their folder, as of their global instructions file: what those files import is yours too
 * (review rev107e F1).
 */
export const IMPORTING_INSTRUCTION_FOLDERS: ReadonlySet<string> = new Set(["claude-code"]);

/**
 * The agents' folders an environment variable moves, with the global instructions files and
 * folders the agent loads there: Claude Code's `$CLAUDE_CONFIG_DIR` (`CLAUDE.md`, `rules/`: its
 * config folder in place of `~/.claude`), Codex's `$CODEX_HOME` (`AGENTS.md`,
 * `AGENTS.override.md`), opencode's `$XDG_CONFIG_HOME/opencode` (`AGENTS.md`). Gemini CLI's
 * `$GEMINI_CLI_HOME`, its home folder in place of yours (`.gemini/GEMINI.md`: Gemini CLI 0.61.0's
 * global memory file is `<$GEMINI_CLI_HOME or ~>/.gemini/GEMINI.md`), and opencode's
 * `$OPENCODE_CONFIG_DIR`, its config folder in place of `~/.config/opencode` (opencode 1.18.33
 * loads the global `AGENTS.md` of `$OPENCODE_CONFIG_DIR` when set; review rev109f F4). Followed
 * when the value is absolute or from `~` (as `$SYSPROMPT_AGENT_DIR` is); a relative one is not
 * (review rev107e F3).
 */
export const MOVED_INSTRUCTION_PLACES: readonly {
  variable: string;
  agent: string;
  /** The folder of your home folder it moves (`.codex`): the default place of `$CODEX_HOME`. */
  moves: string;
  below: string;
  files: readonly string[];
  folders: readonly string[];
  /** Its prompt folders there ({@link PROMPT_FOLDERS} moved with it: review rev108c F1). */
  prompts: readonly string[];
}[] = [
  {
    variable: "CLAUDE_CONFIG_DIR",
    moves: ".claude",
    agent: "claude-code",
    below: "",
    files: ["CLAUDE.md"],
    folders: ["rules"],
    prompts: ["output-styles"],
  },
  {
    variable: "CODEX_HOME",
    moves: ".codex",
    agent: "codex",
    below: "",
    files: ["AGENTS.md", "AGENTS.override.md"],
    folders: [],
    prompts: ["prompts"],
  },
  {
    variable: "XDG_CONFIG_HOME",
    moves: ".config",
    agent: "opencode",
    below: "opencode",
    files: ["AGENTS.md"],
    folders: [],
    prompts: ["prompts"],
  },
  {
    variable: "GEMINI_CLI_HOME",
    // Gemini CLI's home folder itself: its `.gemini` is below it.
    moves: "",
    agent: "gemini-cli",
    below: ".gemini",
    files: ["GEMINI.md"],
    folders: [],
    prompts: [],
  },
  {
    variable: "OPENCODE_CONFIG_DIR",
    moves: ".config/opencode",
    agent: "opencode",
    below: "",
    files: ["AGENTS.md"],
    folders: [],
    prompts: ["prompts"],
  },
];

/** A global instructions place ({@link globalInstructionPlaces}): a file, or a folder of them. */
export interface GlobalInstructionPlace {
  agent: string;
  /** Its name as said (`~/.gemini/GEMINI.md`, `/srv/pi-agent/SYSTEM.md`). */
  file: string;
  path: string;
  /** Where it is, in words: `your home folder`, `your agent dir`. */
  where: string;
  /** A folder whose every file the agent loads (Cline's global rules). */
  folder?: true;
  /** The user whose home folder it is in, when not yours (`alice`). */
  owner?: string;
}

/** Another user's home folder as {@link globalInstructionPlaces} takes it: `alice` at `path`. */
export interface OwnedHome {
  path: string;
  user: string;
}

/**
 * The agent whose global instructions file ({@link GLOBAL_INSTRUCTION_FILES},
 * {@link GLOBAL_INSTRUCTION_FOLDERS}, an agent dir's {@link AGENT_DIR_INSTRUCTION_FILES})
 * one of `paths` is, in one of `homes` (your home folder by its names) or `agentDirs`, or where
 * `env` moves it, and which one (`~/.gemini/GEMINI.md`); undefined for none.
 */
export function globalInstructionFileOf(
  paths: readonly string[],
  homes: readonly (string | OwnedHome)[],
  agentDirs: readonly string[] = [],
  env?: Readonly<Record<string, string | undefined>>,
): GlobalInstructionPlace | undefined {
  const keys = paths.map(samePathKey);
  return globalInstructionPlaces(homes, agentDirs, env).find((place) =>
    keys.some((k) => placeHolds(place, k)),
  );
}

/** Whether `place` is (or, a folder, holds) the path whose {@link samePathKey} is `key`. */
export function placeHolds(place: GlobalInstructionPlace, key: string): boolean {
  const at = samePathKey(place.path);
  return key === at || (place.folder === true && key.startsWith(`${at.replace(/\/$/, "")}/`));
}

/**
 * Each global instructions file ({@link GLOBAL_INSTRUCTION_FILES}) and folder ({@link
 * GLOBAL_INSTRUCTION_FOLDERS}) at its default place in each of `homes`, in that order: its agent,
 * its name from the home folder (`~/.gemini/GEMINI.md`) and its path there; then pi's files at
 * the top of each of `agentDirs` (the agent dir the render resolves, as given and by its real
 * path: review rev101d F2); then, with `env`, the places its variables move ({@link
 * MOVED_INSTRUCTION_PLACES}, `~` the first of `homes` given as a path). What `-o` is compared
 * with, as written and by the real paths they lead to. A home given with its user ({@link
 * OwnedHome}) is another user's (`~alice/...`, "the home folder of alice"): run as root, hers
 * are hers as yours are yours (review rev103b F1).
 */
export function globalInstructionPlaces(
  homes: readonly (string | OwnedHome)[],
  agentDirs: readonly string[] = [],
  env?: Readonly<Record<string, string | undefined>>,
): GlobalInstructionPlace[] {
  const home = homes.find((h): h is string => typeof h === "string");
  return [
    ...homes.flatMap((given) => {
      const home = typeof given === "string" ? given : given.path;
      const owner = typeof given === "string" ? undefined : given.user;
      const where = owner === undefined ? "your home folder" : `the home folder of ${owner}`;
      const tilde = owner === undefined ? "~" : `~${owner}`;
      const whose = owner === undefined ? {} : { owner };
      return [
        ...Object.entries(GLOBAL_INSTRUCTION_FILES).flatMap(([agent, files]) =>
          files.map((f) => ({
            agent,
            file: `${tilde}/${f}`,
            path: join(home, f),
            where,
            ...whose,
          })),
        ),
        ...Object.entries(GLOBAL_INSTRUCTION_FOLDERS).flatMap(([agent, folders]) =>
          folders.map((f) => ({
            agent,
            file: `${tilde}/${f}/`,
            path: join(home, f),
            where,
            folder: true as const,
            ...whose,
          })),
        ),
      ];
    }),
    ...agentDirs.flatMap((dir) =>
      AGENT_DIR_INSTRUCTION_FILES.map((f) => ({
        agent: "pi",
        file: join(dir, f),
        path: join(dir, f),
        where: "your agent dir",
      })),
    ),
    ...(env === undefined || home === undefined ? [] : movedInstructionPlaces(env, home)),
  ];
}

/**
 * The folder `variable` of {@link MOVED_INSTRUCTION_PLACES} names under `env`, `~` being `home`:
 * an absolute value, or one from `~` (an XDG one absolute only); undefined for none.
 */
function movedRoot(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  home: string,
): string | undefined {
  const value = env[variable];
  if (variable.startsWith("XDG_")) return xdgFolder(env, variable as "XDG_CONFIG_HOME");
  return value !== undefined && (isAbsolute(value) || value === "~" || value.startsWith("~/"))
    ? expandHome(value, home)
    : undefined;
}

/** The places {@link MOVED_INSTRUCTION_PLACES} names under `env`, `~` being `home`. */
function movedInstructionPlaces(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): GlobalInstructionPlace[] {
  return MOVED_INSTRUCTION_PLACES.flatMap(({ variable, agent, below, files, folders }) => {
    const at = movedRoot(env, variable, home);
    if (at === undefined) return [];
    const dir = join(at, below);
    const where = `the folder $${variable} names`;
    return [
      ...files.map((f) => ({ agent, file: join(dir, f), path: join(dir, f), where })),
      ...folders.map((f) => ({
        agent,
        file: `${join(dir, f)}/`,
        path: join(dir, f),
        where,
        folder: true as const,
      })),
    ];
  });
}

/**
 * `text`, advice that names an agent's folder in your home folder (`~/.codex/config.toml`,
 * `~/.claude/settings.json`, `~/.config/opencode/opencode.json`), with each folder a variable of
 * {@link MOVED_INSTRUCTION_PLACES} moves under `env` named where the agent reads it: an absolute
 * value, or one from `~`, by the path it leads to (`/srv/codex/config.toml`); a relative
 * `CODEX_HOME` or `CLAUDE_CONFIG_DIR`, which sysprompt does not follow (the agent takes it from
 * the folder it starts in), as the variable (`$CODEX_HOME/config.toml`); a relative XDG one is
 * ignored, as the XDG spec has it. An empty value is none (review rev108c F6: with `CODEX_HOME`
 * set, `export --agent codex` named `~/.codex/config.toml`, a file Codex then never reads).
 */
export function movedFoldersSaid(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string {
  let said = text;
  for (const { variable, moves, below } of MOVED_INSTRUCTION_PLACES) {
    const from = `~/${posix.join(moves, below)}/`;
    const value = env[variable];
    if (value === undefined || value === "" || !said.includes(from)) continue;
    const at = movedRoot(env, variable, home);
    if (at === undefined && variable.startsWith("XDG_")) continue;
    const to =
      at === undefined
        ? `$${variable}/${below === "" ? "" : `${below}/`}`
        : folderSaid(join(at, below));
    said = said.replaceAll(from, escapeInline(to));
  }
  return said;
}

/** `path` (normalised by `join`: at most one `/` at its end) with one `/` at its end. */
function folderSaid(path: string): string {
  return path.endsWith("/") ? path : `${path}/`;
}

/** A prompt folder of yours or another user's ({@link promptFoldersOfYours}). */
export interface OwnedPromptFolder {
  agent: string;
  path: string;
  /** The user whose home folder it is in, when not yours (`alice`). */
  owner?: string;
}

/**
 * The agents' prompt folders ({@link PROMPT_FOLDERS}) whose files an agent reads as its user's
 * words in every project: each at its default place in each of `homes` (yours, and, given with
 * its user, another user's: {@link OwnedHome}), then where `env` moves it ({@link
 * MOVED_INSTRUCTION_PLACES}' `prompts`: `$CLAUDE_CONFIG_DIR/output-styles`, `$CODEX_HOME/prompts`,
 * `$XDG_CONFIG_HOME/opencode/prompts`; an absolute or `~` value, `~` the first of `homes` given as
 * a path). `-o` writes no untrusted prompt below any of them (review rev107d F2, rev108c F1,
 * rev108a F2).
 */
export function promptFoldersOfYours(
  homes: readonly (string | OwnedHome)[],
  env?: Readonly<Record<string, string | undefined>>,
): OwnedPromptFolder[] {
  const home = homes.find((h): h is string => typeof h === "string");
  return [
    ...homes.flatMap((given) => {
      const at = typeof given === "string" ? given : given.path;
      const whose = typeof given === "string" ? {} : { owner: given.user };
      return Object.entries(PROMPT_FOLDERS).flatMap(([agent, folders]) =>
        folders.map((f) => ({ agent, path: join(at, f), ...whose })),
      );
    }),
    ...(env === undefined || home === undefined
      ? []
      : MOVED_INSTRUCTION_PLACES.flatMap(({ variable, agent, below, prompts }) => {
          const at = movedRoot(env, variable, home);
          return at === undefined ? [] : prompts.map((f) => ({ agent, path: join(at, below, f) }));
        })),
  ];
}

/** A path as the instructions files' places are compared: without case, trailing dots and spaces. */
export function samePathKey(path: string): string {
  return fold(path.split(sep).join("/"));
}

/**
 * The agent whose settings file `path` is (one of {@link SETTINGS_FILES}, by
 * the path it ends with), and which one; undefined for any other path.
 */
export function settingsFileOf(path: string): { agent: string; file: string } | undefined {
  const written = fold(path.split(sep).join("/"));
  for (const [agent, files] of Object.entries(SETTINGS_FILES)) {
    const file = files.find((f) => written.endsWith(`/${fold(f)}`) || written === fold(f));
    if (file !== undefined) return { agent, file };
  }
  return undefined;
}

/** Where a folder's names (`a/b`) run in `parts` before its last name, each as `[at, end)`. */
function runsOf(parts: readonly string[], folder: string): { at: number; end: number }[] {
  const segments = fold(folder).split("/");
  const top = parts.length - 1;
  const runs: { at: number; end: number }[] = [];
  for (let at = 0; at + segments.length <= top; at++) {
    if (segments.every((s, j) => parts[at + j] === s)) runs.push({ at, end: at + segments.length });
  }
  return runs;
}

/**
 * The agent whose configuration `path` is, and which file or folder says so:
 * one of its settings files ({@link settingsFileOf}), or a file inside one of
 * its folders ({@link AGENT_FOLDERS}, found anywhere on the path: a project's
 * or yours) other than an instructions file at that folder's top
 * ({@link INSTRUCTION_FILES}) or a file in one of its prompt folders
 * ({@link PROMPT_FOLDERS}). A checkout in an agent's worktree folder
 * ({@link WORKTREE_FOLDERS}) is judged from its own top. The path is judged
 * as written and with its `.` and `..` taken away by name: either finding is
 * the answer. A top-only folder ({@link TOP_ONLY_FOLDERS}) counts only where
 * `isTop` says the folder holding it (as the path spells it) is a
 * repository's top; by default everywhere. Undefined for any other path.
 */
export function agentFileOf(
  path: string,
  isTop: (folder: string) => boolean = () => true,
): { agent: string; file: string; folder?: string } | undefined {
  return judgedPaths(path, isTop).find((j) => j !== undefined && "agent" in j) as
    | AgentFile
    | undefined;
}

/**
 * The prompt folder ({@link PROMPT_FOLDERS}, {@link CONFIG_PROMPT_FOLDERS}) `path` is a file
 * of, as {@link agentFileOf} lets it be written there (`.github/agents`), or undefined (a file
 * out of them, or one agentFileOf refuses). Each agent reads a leading `---` block of such a
 * file as its settings (Copilot's agents, prompt files and chat modes: their tools, model and
 * mode), not as text: the writer holds such a block back (review rev88d F1).
 */
export function promptFolderOf(
  path: string,
  isTop: (folder: string) => boolean = () => true,
): PromptFolder | undefined {
  const judged = judgedPaths(path, isTop);
  if (judged.some((j) => j !== undefined && "agent" in j)) return undefined;
  return judged.flatMap((j) => (j !== undefined && "prompt" in j ? [j.prompt] : []))[0];
}

type AgentFile = { agent: string; file: string; folder?: string };

/** A prompt folder (`.github/agents`) and whose it is (`GitHub`). */
export interface PromptFolder {
  agent: string;
  folder: string;
}

/** {@link agentFileIn} of `path` as written and with its `.` and `..` taken away. */
function judgedPaths(path: string, isTop: (folder: string) => boolean) {
  const written = path.split(sep).join("/");
  return [agentFileIn(written, isTop), agentFileIn(posix.normalize(written), isTop)];
}

/** The agent file `written` is, or the prompt folder it is a file of (allowed), or undefined. */
function agentFileIn(
  written: string,
  isTop: (folder: string) => boolean,
): AgentFile | { prompt: PromptFolder } | undefined {
  const named = settingsFileOf(written);
  if (named !== undefined) return named;
  const all = written.split("/");
  // A checkout in an agent's worktree folder: from the name after the last one on the path.
  let from = 0;
  for (const folder of Object.values(WORKTREE_FOLDERS).flat()) {
    for (const run of runsOf(all.map(fold), folder)) {
      if (run.end < all.length - 1) from = Math.max(from, run.end + 1);
    }
  }
  const names = all.slice(from);
  const parts = names.map(fold);
  const top = parts.length - 1;
  // Each place an agent's folder's names run on the path, with the file below them.
  // (A top-only folder, `.github`, counts only in a folder `isTop` says is a repository's top.)
  const topOnly = new Set(TOP_ONLY_FOLDERS.map(fold));
  const runs = [...Object.entries(AGENT_FOLDERS), ...Object.entries(CONFIG_FOLDERS)].flatMap(
    ([agent, folders]) =>
      folders.flatMap((folder) =>
        runsOf(parts, folder)
          .filter((r) => !topOnly.has(fold(folder)) || isTop(all.slice(0, from + r.at).join("/")))
          .map((r) => ({ agent, folder, ...r })),
      ),
  );
  const outer = runs.sort((a, b) => a.at - b.at || a.end - b.end)[0];
  if (outer === undefined) return undefined;
  const name = parts[top]?.toLowerCase() ?? "";
  // Text at the top of each folder it lies in (pi's `.pi/agent/SYSTEM.md`: `.pi/agent`'s top).
  const atTop = (at: number) => runs.some((r) => r.at === at && r.end === top);
  if (INSTRUCTION_FILES.some((f) => f.toLowerCase() === name) && runs.every((r) => atTop(r.at))) {
    return undefined;
  }
  // A file below a prompt folder, with no `..` after it and in no other agent folder than the
  // one the prompt folder is in (`.codex` of `.codex/prompts`).
  const prompts = [...Object.entries(PROMPT_FOLDERS), ...Object.entries(CONFIG_PROMPT_FOLDERS)]
    .flatMap(([agent, folders]) => (folders ?? []).map((folder) => ({ agent, folder })))
    .flatMap((f) => runsOf(parts, f.folder).map((r) => ({ ...f, ...r })))
    .filter((p) => !parts.slice(p.end).includes(".."));
  const prompt = prompts.find((p) => runs.every((r) => r.at >= p.at && r.end <= p.end));
  if (prompt !== undefined) return { prompt: { agent: prompt.agent, folder: prompt.folder } };
  // A rule file sysprompt reads in another agent's folder, in no other folder of the lists.
  const rules = rulePlacesOf().flatMap((place) =>
    runsOf([...parts, ""], place.names.join("/"))
      .filter((r) => ruleFileAt(place, names.slice(r.end)))
      .map((r) => ({ at: r.at, end: r.end - (place.file ? 1 : 0) })),
  );
  if (rules.some((p) => runs.every((r) => r.at >= p.at && r.end <= p.end))) return undefined;
  return {
    agent: outer.agent,
    file: names.slice(outer.at).join("/"),
    folder: outer.folder,
  };
}

/** Whether `below`, the names after a rule place on a path, make a rule file sysprompt reads there. */
function ruleFileAt(place: RulePlace, below: readonly string[]): boolean {
  if (place.file) return below.length === 0;
  if (below.length === 0 || below.some((n) => n === "" || n === "." || n === "..")) return false;
  if (below.length > 1 && !place.recursive) return false;
  return place.match(below[below.length - 1] ?? "") && place.select(below.join("/"));
}

/** The tools whose calls the hook looks at, as a matcher (`A|B`, or anchored `^(A|B)$`). */
function matcher(agent: ToolAgent, anchored: boolean): string {
  const names = Object.keys(TOOL_SHAPES[agent]).join("|");
  return anchored ? `^(${names})$` : names;
}

/**
 * The snippet for `agent`; `trusted` false (`export --untrusted --hooks`): its hook treats
 * every project it runs in as untrusted (`hook AGENT --untrusted`, opencode's
 * `plugin-untrusted.js`), as a hook in your own settings runs in every project (review
 * rev107a F1). `self` is the path of the running `sysprompt`
 * command: the hook's command runs it with `node`, the absolute path of a
 * node binary (never found through PATH: the agent runs the hook in the
 * project's folder, where a relative PATH entry would give the project's own
 * `node_modules/.bin/node` to the script's `#!/usr/bin/env node`). `installed`
 * is its real path (`dist/src/cli/sysprompt.cjs` of the installed package,
 * where npm's bin link leads): opencode's plugin sits beside it, not beside
 * the link.
 */
export function hookSnippet(
  agent: ToolAgent,
  self: string,
  node: string,
  installed = self,
  trusted = true,
  moved?: { env: Readonly<Record<string, string | undefined>>; home: string },
): HookSnippet {
  const snippet = agentHookSnippet(agent, self, node, installed, trusted);
  if (moved === undefined) return snippet;
  // Your settings file named where its agent's variable moves its folder (rev108c F6).
  const said = (text: string) => movedFoldersSaid(text, moved.env, moved.home);
  return { ...snippet, where: said(snippet.where), trust: said(snippet.trust) };
}

/** {@link hookSnippet} with your agents' folders in your home folder at their default places. */
function agentHookSnippet(
  agent: ToolAgent,
  self: string,
  node: string,
  installed: string,
  trusted: boolean,
): HookSnippet {
  const flag = trusted ? "" : " --untrusted";
  const command = `${quotePath(node, "shell")} ${quotePath(self, "shell")} hook ${agent}${flag}`;
  const mode = hookMode(agent, trusted);
  const [file = "", beside = ""] = SETTINGS_FILES[agent];
  const group = (event: string, match: string, hook: Record<string, unknown>) =>
    `${JSON.stringify({ hooks: { [event]: [{ matcher: match, hooks: [hook] }] } }, null, 2)}\n`;
  switch (agent) {
    case "claude-code":
      return {
        where: `${file} (this project) or ~/${file} (every project), beside any hooks already there`,
        text: group("PostToolUse", matcher(agent, false), {
          type: "command",
          command,
          timeout: TIMEOUT_S,
        }),
        trust:
          "Claude Code runs the hooks of a project's .claude/settings.json only once you have accepted the folder in its trust dialog (asked at the first start there).",
        runs: self,
        mode,
      };
    case "codex":
      return {
        where: `~/${file} (or <project>/${file}); the same in JSON goes into a ${basename(beside)} beside either`,
        text: [
          "[[hooks.PostToolUse]]",
          `matcher = "${quotePath(matcher(agent, true), "toml")}"`,
          "",
          "[[hooks.PostToolUse.hooks]]",
          'type = "command"',
          `command = "${quotePath(command, "toml")}"`,
          `timeout = ${TIMEOUT_S}`,
          "",
        ].join("\n"),
        trust:
          'Codex runs a hook only after you review and trust it in /hooks (a changed hook is asked again), and a project\'s .codex/ hooks only in a trusted project (accept the folder when Codex asks, or set trust_level = "trusted" for it under [projects] in ~/.codex/config.toml).',
        runs: self,
        mode,
      };
    case "gemini-cli":
      return {
        where: `${file} (this project) or ~/${file} (every project), beside any hooks already there`,
        text: group("AfterTool", matcher(agent, true), {
          name: "sysprompt",
          type: "command",
          command,
          timeout: TIMEOUT_S * 1000,
        }),
        trust:
          "With folder trust on, Gemini CLI loads a project's .gemini/settings.json (and so its hooks) only in a folder you trusted (it asks once per folder; GEMINI_CLI_TRUST_WORKSPACE=true trusts it when headless).",
        runs: self,
        mode,
      };
    case "opencode": {
      const name = trusted ? "plugin.js" : "plugin-untrusted.js";
      const plugin = join(dirname(installed), "..", "integrations", "opencode", name);
      return {
        where: `a new file ~/${beside} (every project) or ${file} (this project)`,
        text: `export { SyspromptPlugin } from ${JSON.stringify(pathToFileURL(plugin).href)};\n`,
        trust:
          "opencode loads every plugin file in those folders at start, with no trust step of its own: a project's .opencode/plugins/ runs as soon as opencode starts there.",
        runs: plugin,
        mode,
      };
    }
  }
}

/** What {@link hookSnippet}'s `mode` says: which trust the printed hook runs with. */
function hookMode(agent: ToolAgent, trusted: boolean): string {
  const what = agent === "opencode" ? "this plugin" : "this hook";
  return trusted
    ? `${what} treats the project it runs in as trusted (its .pi rules, presets and sysprompt.yaml are read, as a render without --untrusted); a hook in your own settings runs in every project: print it with --untrusted for one that treats each project as untrusted`
    : `${what} treats every project it runs in as untrusted (${agent === "opencode" ? "plugin-untrusted.js" : "hook --untrusted"}: no .pi rules, presets or sysprompt.yaml of the project, and its files' imports held to its non-private files, as render --untrusted)`;
}
