import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { expandHome } from "../_paths.js";

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
 * The agent dir: the explicit option, else `$SYSPROMPT_AGENT_DIR`, else
 * `~/.pi/agent`. A leading `~` means the home folder.
 */
export function resolveAgentDir(options: {
  agentDir?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  cwd: string;
}): string {
  const raw = options.agentDir ?? (options.env.SYSPROMPT_AGENT_DIR || undefined);
  if (raw === undefined) return join(options.home, ".pi", "agent");
  return resolve(options.cwd, expandHome(raw, options.home));
}
