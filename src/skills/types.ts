import type { Diagnostic } from "../types.js";

/** Where a skill was found: an explicit path, the project, or the user's folders. */
export type SkillSource = "user" | "project" | "option";

/** The tool the model uses to load a skill's file. */
export type SkillsTool = "read" | "bash";

/** One Agent Skill: a `SKILL.md` (or a loose `.md` file) with a description. */
export interface Skill {
  /** From the `name` frontmatter field, else the name of the folder holding the file. */
  name: string;
  /** From the `description` frontmatter field, trimmed; never empty. */
  description: string;
  /** Absolute path of the skill's file, as reached (symlinks not resolved). */
  filePath: string;
  /** The folder holding `filePath`; the skill's relative paths resolve against it. */
  baseDir: string;
  /** True only for the YAML boolean `disable-model-invocation: true`: left out of the prompt, still invocable. */
  disableModelInvocation: boolean;
  /** `option` for a path the caller named out of the project; one named into it gives `project`. */
  source: SkillSource;
}

export interface LoadSkillsOptions {
  /** No folder above this one is searched for `.agents/skills` or `.git`. Default: none. */
  ceilingDir?: string;
  /** The working directory; project roots are searched from here. Default: `process.cwd()`. */
  cwd?: string;
  /** The user's agent directory; `<agentDir>/skills` is a user root. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Where `SYSPROMPT_AGENT_DIR` is read. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Explicit skill folders or `.md` files, searched first. Relative paths resolve against `cwd`; `~` means `home`.
   * One into the project (as `--append-system-prompt`'s path is judged) gives the project's skills, read within it.
   */
  paths?: string[];
  /** Search the project and user roots. Default `true`. */
  includeDefaults?: boolean;
  /** When false, project roots are skipped with an info diagnostic. Default `true`. */
  projectTrusted?: boolean;
  /** Name of the project configuration folder under `cwd`. Default `".pi"`. */
  projectDir?: string;
  /** What a leading `~` means, and where `~/.agents/skills` is. Default `os.homedir()`. */
  home?: string;
  /**
   * Stops the search: no folder is read after it fires, and the promise
   * rejects with the signal's reason. Without one, a render's default
   * deadline (5 s) stops it: no skills, and a `load-deadline` warning.
   */
  signal?: AbortSignal;
}

export interface LoadSkillsResult {
  /** In discovery order: explicit paths, project, user; the first of a name wins. */
  skills: Skill[];
  diagnostics: Diagnostic[];
}
