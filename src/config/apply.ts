import { join } from "node:path";
import { realWorkingFolder } from "../gather/roots.js";
import { DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../locate/layers.js";
import type { SystemPromptOptions } from "../options.js";
import { ownAgentDir } from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";
import { loadConfigFiles } from "./load.js";
import { mergeConfig } from "./merge.js";
import type { ConfigFile, OptionProvenance } from "./types.js";

/** The options a render works from, after the config files. */
export interface ConfiguredOptions {
  options: SystemPromptOptions;
  /** Where each config key's value came from (see {@link OptionProvenance}). */
  provenance: OptionProvenance;
  /** The config files read (none when `configFiles` is not true). */
  files: ConfigFile[];
  diagnostics: Diagnostic[];
}

/**
 * `given` with the values of `sysprompt.yaml` under it, when `configFiles`
 * is true: the user's (`<agentDir>/sysprompt.yaml`), then the project's
 * (`<cwd>/.pi/sysprompt.yaml`, only when the project is trusted). Otherwise
 * `given` as it is, and no file is read. The options' types must have been
 * checked: this reads `cwd`, `agentDir`, `home`, `env` and `projectDir`.
 */
export async function applyConfigFiles(given: SystemPromptOptions): Promise<ConfiguredOptions> {
  if (given.configFiles !== true) {
    const { options, provenance } = mergeConfig(given, []);
    return { options, provenance, files: [], diagnostics: [] };
  }
  const { cwd, agentDir, home, agentDirNamed } = resolveCommonPaths(given);
  const projectTrusted = given.projectTrusted !== false;
  // An agent dir in an untrusted project (HOME inside the checkout) is the project's: its file is not yours.
  const { dir: own } = await ownAgentDir(agentDir, {
    cwd,
    home,
    trusted: projectTrusted,
    named: agentDirNamed,
  });
  // The project's folder in cwd's real folder, as the render's layer finds it (rev57a F1).
  const realCwd = await realWorkingFolder(cwd, { home });
  const { files, diagnostics } = await loadConfigFiles({
    cwd: realCwd,
    agentDir: own,
    projectDir: join(realCwd, given.projectDir ?? DEFAULT_PROJECT_DIR),
    projectTrusted,
    home,
  });
  const merged = mergeConfig(given, files);
  return {
    options: merged.options,
    provenance: merged.provenance,
    files,
    diagnostics: [...diagnostics, ...merged.diagnostics],
  };
}

/** The config file whose `agent:` applies (the last that sets it), with the key's line. */
export function agentConfigFile(
  files: readonly ConfigFile[],
): { path: string; line?: number } | undefined {
  const file = files.findLast((f) => f.values.agent !== undefined);
  if (file === undefined) return undefined;
  const line = file.lines.get("agent");
  return { path: file.path, ...(line !== undefined ? { line } : {}) };
}
