import { isAbsolute, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { currentFolder, expandHome, homeFolder, NOT_UTF8_PATH } from "../_paths.js";
import type { Diagnostic } from "../types.js";

/** Where each layer's files live. */
export interface LayerDirs {
  /** The package's `prompts/` folder. */
  builtin: string;
  /** The agent dir (`~/.pi/agent` by default). */
  user: string;
  /** `<cwd>/.pi` (the folder name is an option). */
  project: string;
}

export const DEFAULT_PROJECT_DIR = ".pi";

/** True when running the compiled package (`dist/src/…`), false when running from `src/`. */
export function runningCompiled(): boolean {
  return fileURLToPath(import.meta.url).includes(`${sep}dist${sep}src${sep}`);
}

/** The builtin `prompts/` folder of this package. */
export function builtinPromptsDir(): string {
  const up = runningCompiled() ? "../../../prompts" : "../../prompts";
  return fileURLToPath(new URL(up, import.meta.url));
}

/**
 * `$SYSPROMPT_AGENT_DIR` when it is absolute or starts from the home folder
 * (`~`, `~/x`), else undefined. A relative value would be read from the
 * working folder, which is the project's: `SYSPROMPT_AGENT_DIR=.pi/agent`
 * made the project's folder your user layer, whose links are followed
 * anywhere (untrusted or not). Ignored, as a relative XDG folder is
 * (`xdgFolder`); {@link relativeAgentDirWarning} says so. An explicit
 * `agentDir` option (the CLI's `--agent-dir`) is what the user typed and
 * stays relative to `cwd`.
 */
export function envAgentDir(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = env.SYSPROMPT_AGENT_DIR;
  return value && fromRootOrHome(value) && !value.includes("\uFFFD") ? value : undefined;
}

/**
 * {@link envAgentDir} as a path, `~` read as `home`: the value as written
 * (`~/.pi/agent`) was taken as a folder by the hook's cache files, a relative
 * `~` folder under its working folder that it could not make (review fx109h).
 */
export function envAgentDirPath(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string | undefined {
  const value = envAgentDir(env);
  return value === undefined ? undefined : resolve(expandHome(value, home));
}

/** An absolute path, or one from the home folder (`~`, `~/x`): a folder an environment variable may name. */
export function fromRootOrHome(value: string): boolean {
  return isAbsolute(value) || value === "~" || value.startsWith("~/");
}

/**
 * Why a folder an environment variable names (`$SYSPROMPT_AGENT_DIR`,
 * `$PI_CODING_AGENT_DIR`) is ignored, or undefined when it is not: a relative
 * path (read from the project's working folder), or one that is not UTF-8
 * (review rev61c F7: the user layer was dropped with no word, while
 * `--agent-dir` refuses such a path).
 */
export function ignoredEnvFolderReason(value: string): string | undefined {
  if (!fromRootOrHome(value))
    return `${JSON.stringify(value)} is a relative path, which would be read from the working folder (the project's)`;
  if (value.includes("\uFFFD")) return `${JSON.stringify(value)}: ${NOT_UTF8_PATH}`;
  return undefined;
}

/** The warning for a `$SYSPROMPT_AGENT_DIR` that {@link envAgentDir} ignores (none when the `agentDir` option is given). */
export function relativeAgentDirWarning(
  env: Readonly<Record<string, string | undefined>>,
  agentDirGiven: boolean,
): Diagnostic | undefined {
  const value = env.SYSPROMPT_AGENT_DIR;
  if (agentDirGiven || !value || envAgentDir(env) !== undefined) return undefined;
  const why = ignoredEnvFolderReason(value);
  const relative = !fromRootOrHome(value);
  return {
    level: "warning",
    code: relative ? "agent-dir-relative" : "agent-dir-not-utf8",
    message: `$SYSPROMPT_AGENT_DIR is ignored: ${why}; the user layer is ~/.pi/agent.${relative ? " Give an absolute path, or ~/…" : ""}`,
  };
}

/**
 * The agent dir: the explicit option, else `$SYSPROMPT_AGENT_DIR` (only when
 * absolute or from `~`: {@link envAgentDir}), else `~/.pi/agent`. A leading
 * `~` means the home folder.
 */
export function resolveAgentDir(options: {
  agentDir?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  cwd: string;
}): string {
  const raw = options.agentDir ?? envAgentDir(options.env);
  if (raw === undefined) return join(options.home, ".pi", "agent");
  return resolve(options.cwd, expandHome(raw, options.home));
}

/**
 * `$PI_CODING_AGENT_DIR`, pi's agent dir, when it is absolute or starts from the home folder and
 * is UTF-8 (as {@link envAgentDir} reads `$SYSPROMPT_AGENT_DIR`), `~` unexpanded; else undefined.
 */
export function envPiAgentDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const value = env.PI_CODING_AGENT_DIR;
  return value && ignoredEnvFolderReason(value) === undefined ? value : undefined;
}

/**
 * Every agent dir whose files are yours, as pi or sysprompt would resolve one: the one the render
 * resolves ({@link resolveAgentDir}: `--agent-dir`, `$SYSPROMPT_AGENT_DIR`), pi's own
 * (`$PI_CODING_AGENT_DIR`, {@link envPiAgentDir}), and the default `~/.pi/agent`; each once, in
 * that order. What `-o`/`--out` judges as your agent dir: pi loads the `SYSTEM.md`,
 * `APPEND_SYSTEM.md` and `prompts/` of the folder `$PI_CODING_AGENT_DIR` names whatever
 * sysprompt's render reads (review rev107e F3).
 */
export function yourAgentDirs(options: {
  agentDir?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  cwd: string;
}): string[] {
  const pi = envPiAgentDir(options.env);
  return [
    ...new Set([
      resolveAgentDir(options),
      ...(pi === undefined ? [] : [resolve(options.cwd, expandHome(pi, options.home))]),
      join(options.home, ".pi", "agent"),
    ]),
  ];
}

/** The path options every entry point shares; each is optional. */
export interface CommonPathOptions {
  /** Working directory (relative: against `process.cwd()`; `~` is `home`). Default: `process.cwd()`. */
  cwd?: string | undefined;
  /** The user's agent folder (relative: against `cwd`). Default: `$SYSPROMPT_AGENT_DIR`, else `~/.pi/agent`. */
  agentDir?: string | undefined;
  /** The home folder. Default: `os.homedir()`. */
  home?: string | undefined;
  /** Where `SYSPROMPT_AGENT_DIR` is read (ignored when relative). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * `cwd`, `agentDir` and `home`, absolute, with the defaults that
 * `renderSystemPrompt`, `loadPromptTemplates`, `loadSkills` and the CLI all
 * share, so no entry point finds other folders than another.
 */
export function resolveCommonPaths(options: CommonPathOptions): {
  cwd: string;
  agentDir: string;
  home: string;
  /** Whether you named the agent dir ({@link agentDirNamed}). */
  agentDirNamed: boolean;
} {
  const home = resolve(options.home ?? homeFolder());
  // `resolve` of a relative path reads the current folder too, so an absolute
  // cwd works from a folder that is gone; anything else asks currentFolder().
  const given = options.cwd === undefined ? undefined : expandHome(options.cwd, home);
  const cwd =
    given !== undefined && isAbsolute(given)
      ? resolve(given)
      : resolve(currentFolder(), given ?? ".");
  const env = options.env ?? process.env;
  const agentDir = resolveAgentDir({ agentDir: options.agentDir, env, home, cwd });
  return { cwd, agentDir, home, agentDirNamed: agentDirNamed(options) };
}

/**
 * Whether you named the agent dir: the `agentDir` option (`--agent-dir`), or
 * `$SYSPROMPT_AGENT_DIR` as {@link envAgentDir} takes it. A repository sets
 * neither, so one named is yours under `--untrusted` too unless it lies in the
 * working folder or the project root (`ownAgentDir`): from a plain folder under
 * a home folder that is a git work tree, where `~/.pi/agent` alone is left out
 * as the home's repository's, the hook, which takes no `--agent-dir`, reads it
 * again through the variable (review rev109e F2).
 */
export function agentDirNamed(options: CommonPathOptions): boolean {
  return options.agentDir !== undefined || envAgentDir(options.env ?? process.env) !== undefined;
}
