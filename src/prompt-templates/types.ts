import type { Diagnostic } from "../types.js";

/**
 * Where a prompt template came from, lowest precedence first: the user's agent
 * folder, the project, then a path the caller named explicitly.
 */
export type PromptTemplateSource = "user" | "project" | "option";

/** A slash-command template: `/name args` expands to `content` with the args substituted. */
export interface PromptTemplate {
  /** The file name without `.md`; what follows the `/`. */
  name: string;
  /** Frontmatter `description`, else the first non-blank body line (cut to 60 characters). */
  description: string;
  /** Frontmatter `argument-hint`, when it is a non-empty string. */
  argumentHint?: string;
  /** The body without its frontmatter, exactly as written (LF line endings). */
  content: string;
  /** Absolute path of the file the template was read from. */
  filePath: string;
  source: PromptTemplateSource;
}

export interface LoadPromptTemplatesOptions {
  /** Project folder (relative: against `process.cwd()`); relative `paths` and `agentDir` resolve against it. Default: `process.cwd()`. */
  cwd?: string;
  /** The user's agent folder; its `prompts/` folder is the user layer. Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string;
  /** Where `SYSPROMPT_AGENT_DIR` is read. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Extra `.md` files or folders (read one level deep). Relative paths resolve
   * against `cwd`; a leading `~` is `home`. They win over both default layers.
   */
  paths?: readonly string[];
  /** Read `<agentDir>/prompts/` and `<cwd>/<projectDir>/prompts/`. Default `true`. */
  includeDefaults?: boolean;
  /** When `false` the project folder is skipped (with an info diagnostic). Default `true`. */
  projectTrusted?: boolean;
  /** Name of the project's agent folder inside `cwd`. Default `".pi"`. */
  projectDir?: string;
  /** What a leading `~` in `paths` means. Default `os.homedir()`. */
  home?: string;
  /**
   * Stops the loading between two files (the async loader): the promise
   * rejects with the signal's reason. Without one, the async loader stops at
   * a render's default deadline (5 s), as the synchronous one does.
   */
  signal?: AbortSignal;
  /**
   * Set (the async loader) after each root is read whole, the user's folder
   * first: what a caller whose `signal` stopped the load still has. Without
   * a `signal`, the loader keeps it itself past the default deadline.
   */
  soFar?: { value?: LoadPromptTemplatesResult };
}

export interface LoadPromptTemplatesResult {
  /** One template per name, the winner of any collision, sorted by name. */
  templates: PromptTemplate[];
  diagnostics: Diagnostic[];
}
