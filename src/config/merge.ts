import { DEFAULT_RULE_SOURCES } from "../gather/rules/formats.js";
import type { SystemPromptOptions } from "../options.js";
import { CONFIG_KEYS } from "./keys.js";
import type { ConfigFile, ConfigValues, OptionProvenance } from "./types.js";

/**
 * The options with the config files' values under them: an option the caller
 * gave wins, then the last file that sets the key (`files` lowest first: the
 * user's, then the project's), then the default. Variables merge name by
 * name in the same order. Pure. `provenance` says, for every config key and
 * every variable, where its value came from.
 */
export function mergeConfig(
  given: SystemPromptOptions,
  files: readonly ConfigFile[],
): { options: SystemPromptOptions; provenance: OptionProvenance } {
  const options: SystemPromptOptions = { ...given };
  const provenance: OptionProvenance = {};
  const set = options as Record<string, unknown>;
  for (const [key, spec] of Object.entries(CONFIG_KEYS)) {
    if (spec.option === "vars") continue;
    if (given[spec.option] !== undefined) {
      provenance[key] = "option";
      continue;
    }
    const from = lastSetting(files, spec.option);
    provenance[key] = from ? where(from, key) : "default";
    if (from) set[spec.option] = from.values[spec.option];
  }
  if (given.ruleSources === undefined && options.ruleSources !== undefined) {
    options.ruleSources = withOwnSources(options.ruleSources, files);
  }
  const vars: Record<string, string> = {};
  const varOrigins: Record<string, string> = {};
  for (const file of files) {
    for (const [name, value] of Object.entries(file.values.vars ?? {})) {
      vars[name] = value;
      varOrigins[`vars.${name}`] = where(file, `vars.${name}`);
    }
  }
  for (const [name, value] of Object.entries(given.vars ?? {})) {
    vars[name] = value;
    varOrigins[`vars.${name}`] = "option";
  }
  if (Object.keys(vars).length > 0) options.vars = sortedRecord(vars);
  // The keys in their documented order, then the variables by name.
  return { options, provenance: { ...provenance, ...sortedRecord(varOrigins) } };
}

/**
 * The variables whose value a project's file gave (`vars.<name>` from
 * `project:…` in the provenance): the repository's text, made data where
 * it enters the prompt. Yours (your file's, `--var`, the `vars` option) are
 * not in it.
 */
export function projectVarNames(provenance: OptionProvenance): string[] {
  return Object.entries(provenance).flatMap(([key, from]) =>
    key.startsWith("vars.") && from.startsWith("project:") ? [key.slice("vars.".length)] : [],
  );
}

/**
 * A project's `rule-sources` chooses among the project's formats; your own
 * rules stay as your file (or the default) has them: the agent dir's
 * (`sysprompt`, which also reads the project's `.pi/rules`) and other
 * agents' user-level folders (`user:…`). A repository's `rule-sources: []`
 * dropped your `~/.pi/agent/rules` without a word.
 */
function withOwnSources(sources: readonly string[], files: readonly ConfigFile[]): string[] {
  const project = files.findLast((f) => f.values.ruleSources !== undefined);
  if (project?.layer !== "project") return [...sources];
  const below = files.filter((f) => f.layer !== "project").findLast((f) => f.values.ruleSources);
  const own = (below?.values.ruleSources ?? DEFAULT_RULE_SOURCES).filter(
    (n) => n === "sysprompt" || n.startsWith("user:"),
  );
  return [...new Set([...sources, ...own])];
}

function lastSetting(
  files: readonly ConfigFile[],
  option: keyof ConfigValues,
): ConfigFile | undefined {
  return files.findLast((f) => f.values[option] !== undefined);
}

/** `project:<path>:<line>`, or without the line when the file did not say (never, in practice). */
function where(file: ConfigFile, key: string): string {
  const line = file.lines.get(key);
  return `${file.layer}:${file.path}${line === undefined ? "" : `:${line}`}`;
}

/** Keys in code-unit order: the same files give the same bytes whatever order they were read in. */
function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
