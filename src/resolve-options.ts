import { applyConfigFiles, type ConfiguredOptions } from "./config/apply.js";
import { checkOptionTypes } from "./options/given.js";
import { normalizeCheckedOptions } from "./options/normalize.js";
import { OPTION_SPECS, type OptionName } from "./options/registry.js";
import type { NormalizedOptions, SystemPromptOptions } from "./options.js";

/** Who gave the options passed to {@link resolveOptions}. */
export type GivenBy = "api" | "cli" | "scenario";

/** Where an option's value came from: given (by whom), a `sysprompt.yaml`, or the default. */
export type OptionSource = GivenBy | "config" | "default";

export interface OptionOrigin {
  source: OptionSource;
  /** For `config`: the file and line, `user:<path>:<line>` or `project:<path>:<line>`. */
  at?: string;
}

/** Every option resolved once: what a render works from. */
export interface ResolvedOptions {
  /** The options given, with the config files' values under them. */
  options: SystemPromptOptions;
  /** The same, checked, with every default applied and explicit files read. */
  normalized: NormalizedOptions;
  /** Where each option of the registry got its value, in the registry's order. */
  provenance: Record<OptionName, OptionOrigin>;
  /** The config files read, their diagnostics, and where each config key's value came from. */
  config: ConfiguredOptions;
}

/**
 * Resolves the options of one render: checks what was given (a bad explicit
 * value throws a SyspromptError, before anything is read), puts the
 * `sysprompt.yaml` values under it when `configFiles` is true (their bad
 * values are diagnostics), then applies every default. Runs before the
 * deadline starts: the files may set it. `givenBy` names who gave `given`
 * in the provenance.
 */
export async function resolveOptions(
  given: SystemPromptOptions = {},
  givenBy: GivenBy = "api",
): Promise<ResolvedOptions> {
  checkOptionTypes(given);
  const config = await applyConfigFiles(given);
  // Checked once: `given` above, each config file's values as it was parsed.
  const normalized = await normalizeCheckedOptions(config.options);
  return {
    options: config.options,
    normalized,
    provenance: provenanceOf(given, config, givenBy),
    config,
  };
}

/** Each option's origin: given, else the config key's file, else the default. */
function provenanceOf(
  given: SystemPromptOptions,
  config: ConfiguredOptions,
  givenBy: GivenBy,
): Record<OptionName, OptionOrigin> {
  const out = {} as Record<OptionName, OptionOrigin>;
  for (const [name, spec] of OPTION_SPECS) {
    if (given[name] !== undefined) {
      out[name] = { source: givenBy };
      continue;
    }
    // A config key's origin, or for vars the first file that sets a variable.
    const keys = Object.entries(config.provenance).filter(([key]) =>
      name === "vars" ? key.startsWith("vars.") : key === spec.config?.key,
    );
    const at = keys.map(([, from]) => from).find((from) => /^(user|project):/.test(from));
    out[name] = at === undefined ? { source: "default" } : { source: "config", at };
  }
  return out;
}
