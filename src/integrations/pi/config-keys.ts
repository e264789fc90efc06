/**
 * The `sysprompt.yaml` keys a render inside pi does not apply: the ones whose
 * option the extension sets from pi itself (`agent`, `tools`, `model`, `tree`),
 * which therefore beat the files as any caller's option does. Outside pi they
 * work, so a user who wrote one hears once why pi's prompt ignores it.
 */

import { join } from "node:path";
import { minOf, pushAll } from "../../_arrays.js";
import { CONFIG_KEYS, type ConfigFile, loadConfigFiles } from "../../config/index.js";
import type { SystemPromptOptions } from "../../options.js";
import type { Diagnostic } from "../../types.js";
import { PI_PROJECT_DIR } from "./trust.js";

/** What decides, inside pi, the option of a config key the extension sets. */
const DECIDED_BY: Readonly<Record<string, string>> = {
  agent: "pi's own preset, since another agent's would leave out files that pi does not load",
  tools: "pi's active tools (pi --tools)",
  model: "pi's model (pi --model, /model)",
  tree: "the --sysprompt-tree flag",
};

/**
 * One warning per config file that sets a key whose option `options` (the
 * extension's, from pi) already sets to another value; at the first such key's
 * line. Then the project's file's keys that only the user sets (`deadline`,
 * `max-tokens`, `git: true`: `config-project-*`), as outside pi: a render's
 * warnings are not said in pi, and these change what of yours reaches the model. Pure.
 */
export function piIgnoredConfig(
  options: SystemPromptOptions,
  files: readonly ConfigFile[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const file of files) {
    const keys = Object.entries(CONFIG_KEYS).filter(([, spec]) => {
      const value = file.values[spec.option];
      const own = options[spec.option];
      return value !== undefined && own !== undefined && !sameValue(value, own);
    });
    if (keys.length === 0) continue;
    const lines = keys.map(([key]) => file.lines.get(key)).filter((l) => l !== undefined);
    const first = lines.length > 0 ? minOf(lines) : undefined;
    out.push({
      level: "warning",
      code: "pi-config-ignored",
      message: `not applied inside pi: ${keys
        .map(([key]) => `${key}, decided by ${DECIDED_BY[key] ?? "the extension, from pi"}`)
        .join("; ")}; the file's other keys apply`,
      path: file.path,
      ...(first !== undefined ? { line: first } : {}),
    });
  }
  for (const file of files) {
    if (file.layer !== "project") continue;
    pushAll(
      out,
      file.diagnostics.filter((d) => d.code.startsWith("config-project-")),
    );
  }
  return out;
}

/**
 * The config files a render in `cwd` reads: the agent dir's, then the project's when trusted.
 * Yours placed as a render places it (`home`): in a checkout, read through its door (fx100b).
 */
export async function piConfigFiles(
  cwd: string,
  agentDir: string,
  projectTrusted: boolean,
  home: string,
): Promise<ConfigFile[]> {
  const projectDir = join(cwd, PI_PROJECT_DIR);
  return (await loadConfigFiles({ cwd, agentDir, projectDir, projectTrusted, home })).files;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
