import { DEFAULT_RULE_SOURCES } from "../gather/rules/formats.js";
import type { SystemPromptOptions } from "../options.js";
import type { Diagnostic } from "../types.js";
import { CONFIG_KEYS } from "./keys.js";
import type { ConfigFile, ConfigValues, OptionProvenance } from "./types.js";

/**
 * The options with the config files' values under them: an option the caller
 * gave wins, then the last file that sets the key (`files` lowest first: the
 * user's, then the project's), then the default. Variables merge name by
 * name in the same order, except that a project's file may add variables,
 * not rewrite yours: your file's value of a name stays. Pure. `provenance`
 * says, for every config key and every variable, where its value came from;
 * `diagnostics` names each of your settings the project's file replaced (or
 * tried to, for a variable), at the project's line.
 */
export function mergeConfig(
  given: SystemPromptOptions,
  files: readonly ConfigFile[],
): { options: SystemPromptOptions; provenance: OptionProvenance; diagnostics: Diagnostic[] } {
  const options: SystemPromptOptions = { ...given };
  const provenance: OptionProvenance = {};
  const diagnostics: Diagnostic[] = [];
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
    const yours = from?.layer === "project" ? lastSetting(files, spec.option, "user") : undefined;
    if (from && yours && !sameValue(from.values[spec.option], yours.values[spec.option])) {
      diagnostics.push(replacedYours(key, from, yours));
    }
  }
  if (given.ruleSources === undefined && options.ruleSources !== undefined) {
    options.ruleSources = withOwnSources(options.ruleSources, files);
  }
  const vars: Record<string, string> = {};
  const varOrigins: Record<string, string> = {};
  const varFiles = new Map<string, ConfigFile>();
  for (const file of files) {
    for (const [name, value] of Object.entries(file.values.vars ?? {})) {
      const yours = varFiles.get(name);
      // Your variable is your text (your own section prints it): a project's value of its name would speak in your voice.
      if (file.layer === "project" && yours?.layer === "user") {
        if (given.vars?.[name] === undefined && value !== vars[name])
          diagnostics.push(projectVarKept(name, file, yours));
        continue;
      }
      vars[name] = value;
      varFiles.set(name, file);
      varOrigins[`vars.${name}`] = where(file, `vars.${name}`);
    }
  }
  for (const [name, value] of Object.entries(given.vars ?? {})) {
    vars[name] = value;
    varOrigins[`vars.${name}`] = "option";
  }
  if (Object.keys(vars).length > 0) options.vars = sortedRecord(vars);
  // The keys in their documented order, then the variables by name.
  return { options, provenance: { ...provenance, ...sortedRecord(varOrigins) }, diagnostics };
}

/**
 * A project's value over a setting your own file made (`git: false` over your
 * `git: true`): the documented order, but never silent.
 */
function replacedYours(key: string, project: ConfigFile, yours: ConfigFile): Diagnostic {
  const line = project.lines.get(key);
  return {
    level: "warning",
    code: "config-project-replaces-yours",
    message: `${key}: the project's value replaces yours (${where(yours, key).slice("user:".length)}), as a project's file comes after yours; a flag sets it for a render, and --untrusted leaves the project's file out`,
    path: project.path,
    ...(line !== undefined ? { line } : {}),
  };
}

/** A project's variable named like one of yours: yours stays, and this says so at the project's line. */
function projectVarKept(name: string, project: ConfigFile, yours: ConfigFile): Diagnostic {
  const key = `vars.${name}`;
  const line = project.lines.get(key);
  return {
    level: "warning",
    code: "config-project-var-kept",
    message: `${key}: the project's value is left out; your file sets it (${where(yours, key).slice("user:".length)}) and a project's file may add variables, not rewrite yours; give --var ${name}=VALUE to choose another value`,
    path: project.path,
    ...(line !== undefined ? { line } : {}),
  };
}

/** Two checked config values (scalars or lists of names) are the same setting. */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
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
  layer?: ConfigFile["layer"],
): ConfigFile | undefined {
  return files.findLast(
    (f) => f.values[option] !== undefined && (layer === undefined || f.layer === layer),
  );
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
