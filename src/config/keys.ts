import type { Checked } from "../options/checks.js";
import { OPTION_SPECS } from "../options/registry.js";
import type { ProjectRefusal } from "../options/spec.js";
import type { ConfigValues } from "./types.js";

export { MAX_VAR_NAME_LENGTH, VAR_NAME, varNameProblem } from "../options/checks.js";

/** One key of a config file: the option it sets and how its value is checked. */
interface KeySpec<K extends keyof ConfigValues> {
  option: K;
  check: (value: unknown) => Checked<NonNullable<ConfigValues[K]>>;
  /** How a value is written, for the key's documentation and its problems. */
  example: string;
  /** What a project's file may not set with it (the registry's `config.project`). */
  fromProject?: (value: unknown) => ProjectRefusal<unknown> | undefined;
}

/**
 * The keys of `sysprompt.yaml`, named as the command-line flags are
 * (`max-tokens` for `--max-tokens`), each with the render option it sets:
 * the options of the registry that declare a `config` key, in its order.
 */
export const CONFIG_KEYS: { readonly [key: string]: KeySpec<keyof ConfigValues> } =
  Object.fromEntries(
    OPTION_SPECS.flatMap(([name, spec]) =>
      spec.config
        ? [
            [
              spec.config.key,
              {
                option: name as keyof ConfigValues,
                check: spec.config.parse as KeySpec<keyof ConfigValues>["check"],
                example: spec.config.example,
                ...(spec.config.project ? { fromProject: spec.config.project.refuse } : {}),
              },
            ],
          ]
        : [],
    ),
  );

/** The config keys, in the order they are documented. */
export const CONFIG_KEY_NAMES: readonly string[] = Object.keys(CONFIG_KEYS);

/**
 * Option names someone may write instead of the key (the library's names):
 * the message says which key it is.
 */
export const OPTION_NAME_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CONFIG_KEYS)
    .filter(([key, spec]) => key !== spec.option)
    .map(([key, spec]) => [spec.option, key]),
);
