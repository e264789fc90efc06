import { YAML_TEXT_CAPS } from "../_yaml.js";
import type { OPTIONS, OptionName, SystemPromptOptions } from "../options/registry.js";
import type { Diagnostic } from "../types.js";

/** The file name of the config, in the agent dir (user) and in `.pi/` (project). */
export const CONFIG_FILE_NAME = "sysprompt.yaml";

/** Largest config file read, in bytes: its entry of {@link YAML_TEXT_CAPS}. */
export const MAX_CONFIG_FILE_BYTES = YAML_TEXT_CAPS.config;

/** Whose config file it is. */
export type ConfigLayer = "user" | "project";

/** Where a value of a config file was written (1-based line). */
export interface ConfigOrigin {
  layer: ConfigLayer;
  path: string;
  line: number;
}

/** The options that have a `sysprompt.yaml` key (`config` in the option registry). */
type ConfigOption = {
  [K in OptionName]: (typeof OPTIONS)[K] extends { config: object } ? K : never;
}[OptionName];

/**
 * The render options a config file can set, by their option names. Each is
 * already checked: a bad value never gets here (it is a diagnostic instead).
 */
export type ConfigValues = { [K in ConfigOption]?: NonNullable<SystemPromptOptions[K]> };

/** One config file, read and checked. */
export interface ConfigFile {
  layer: ConfigLayer;
  /** Absolute path of the file. */
  path: string;
  /** False when there is no file (or it could not be used at all). */
  found: boolean;
  values: ConfigValues;
  /** The line of each key that gave a value, by config key (`max-tokens`) and `vars.<name>`. */
  lines: ReadonlyMap<string, number>;
  diagnostics: Diagnostic[];
}

/**
 * Where the value of each config key came from: `option` (the caller passed
 * it; the CLI shows it as `flag`), `project:<path>:<line>`,
 * `user:<path>:<line>`, or `default`. Keys are the config keys (`tools`,
 * `max-tokens`) and `vars.<name>` for each variable.
 */
export type OptionProvenance = Record<string, string>;
