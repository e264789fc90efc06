/**
 * The instructions one finished tool call of another agent brings in: the
 * same on-touch loading as inside pi (`loadContextForPaths`, through the
 * prompt session's `sessionContextFor`), with the options `sysprompt export
 * --agent NAME` renders with (the config files, the agent's preset: its
 * rule sources left out, and the nested context files it loads itself).
 */
import { resolve } from "node:path";
import { expandHome } from "../_paths.js";
import { applyPreset } from "../agents/apply.js";
import { loadPreset } from "../agents/load.js";
import { applyConfigFiles } from "../config/apply.js";
import type { TouchedContext } from "../gather/context/on-touch.js";
import { normalizeOptions, type SystemPromptOptions } from "../options.js";
import { sessionContextFor } from "../session/_touch.js";
import { patchPaths } from "../touch/patch-paths.js";
import { shellPaths } from "../touch/shell-paths.js";
import type { Diagnostic } from "../types.js";
import type { NamedPaths, ToolAgent } from "./input.js";

/** Where the hook runs: the environment and home folder of the agent that ran it. */
export interface HookWhere {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

/**
 * The absolute paths `named` touched, for a call in `cwd`: its file
 * arguments as written (`~` expanded, relative ones against cwd), the paths
 * its shell command names that exist (relative ones too, against its
 * working folder; nothing is evaluated), and the files its patch names.
 */
export async function touchedPaths(
  named: NamedPaths,
  cwd: string,
  home: string,
): Promise<string[]> {
  const at = (p: string, dir = cwd) => resolve(dir, expandHome(p, home));
  const out = named.files.map((p) => at(p));
  if (named.shell) {
    const dir = named.shell.workdir === undefined ? cwd : at(named.shell.workdir);
    out.push(...(await shellPaths(named.shell.command, dir, home, { relative: true })));
  }
  if (named.patch !== undefined) out.push(...patchPaths(named.patch).map((p) => at(p)));
  return [...new Set(out)];
}

/**
 * The files `paths` bring in for `agent` in a project at `cwd`, each once
 * per `delivered` set (which this adds to). A bad config or preset value is
 * a diagnostic, as in a render; a cwd that does not exist throws.
 */
export async function hookContext(
  agent: ToolAgent,
  paths: readonly string[],
  cwd: string,
  delivered: Set<string>,
  where: HookWhere,
): Promise<TouchedContext> {
  const given: SystemPromptOptions = {
    cwd,
    agent,
    configFiles: true,
    env: where.env,
    home: where.home,
  };
  const config = await applyConfigFiles(given);
  const opts = await normalizeOptions(config.options);
  const loaded = await loadPreset(agent, opts, { required: false });
  const applied = applyPreset(opts, config.options, loaded.preset);
  const options: SystemPromptOptions = { ...config.options, ruleSources: applied.opts.ruleSources };
  const touched = await sessionContextFor(
    paths,
    options,
    new Map(),
    { delivered, overrides: {}, wrappers: undefined },
    {
      contextFiles: config.options.noContextFiles !== true,
      agentLoads: { agent, names: loaded.preset.nestedContextFiles },
    },
  );
  const problems: Diagnostic[] = [...config.diagnostics, ...loaded.diagnostics];
  return { files: touched.files, diagnostics: [...problems, ...touched.diagnostics] };
}
