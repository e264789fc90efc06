// The shapes an option's entry in the registry takes, and the builders its
// flags and config keys are written with.
import { type Check, type Checked, checked, oneLineName } from "./checks.js";

/** Where a flag's paths are relative to: the shell's folder and the home folder. */
export interface FlagContext {
  cwd: string;
  home: string;
}

/** A command-line flag of the commands that render. */
export interface FlagSpec<T> {
  /** Commander declarations with their help (`--tree` and `--no-tree` are two of one option). */
  declare: readonly (readonly [flags: string, help: string])[];
  /** The flag may be given more than once; its value is then the list of them. */
  repeatable?: true;
  /**
   * The option's value from the flag's (a string, a list of them or a boolean, as commander
   * gives it), a problem worded to follow the flag's name (`expects …, got "…"`, or
   * `: "name" is …`), or undefined when the flag sets nothing.
   */
  parse: (raw: unknown, at: FlagContext) => Checked<T> | undefined;
  /** Options the flag turns on as well, unless a flag of theirs says otherwise. */
  implies?: Readonly<Record<string, unknown>>;
  /** What the CLI passes when the flag is not given, where that differs from the API's default. */
  cliDefault?: T;
}

/** A `sysprompt.yaml` key: named as the flag is (`max-tokens` for `--max-tokens`). */
export interface ConfigSpec<T> {
  key: string;
  /** How a value is written, for the key's documentation and its problems. */
  example: string;
  /** The value as the file gives it (already parsed YAML), or what is wrong with it. */
  parse: (value: unknown) => Checked<T>;
  /** What a project's `.pi/sysprompt.yaml` may not set with this key (the user's file and the flag may). */
  project?: ProjectLimit<T>;
}

/** The part of a config key that only the user sets. */
export interface ProjectLimit<T> {
  /** That part, for the options table: `any value`, `` `true` ``. */
  yours: string;
  /** The project's checked value: what it may not set, or undefined when it may set all of it. */
  refuse: (value: T) => ProjectRefusal<T> | undefined;
}

/**
 * A value a project's file gives that is the user's to decide: one warning, and the key is
 * left out, or only `keep` of it is used.
 */
export interface ProjectRefusal<T> {
  /** The warning's code: `config-project-<what>`. */
  code: string;
  /** What was left out, why, and where to set it instead. */
  message: string;
  /** The part of the value the project's file may set; absent: none of it. */
  keep?: T;
}

/** One option. `T` is its type in `SystemPromptOptions` (registry.ts). */
export interface OptionSpec<T> {
  /** Its one line in docs/options.md. */
  doc: string;
  /** Its type as the docs show it. */
  type: string;
  /** What applies when it is not given, as the docs show it. */
  default: string;
  /** The API's check of a given value (the phrase after "must be"). */
  check: Check;
  /** Fixed when a prompt session is created; a render of the session cannot change it. */
  session?: "fixed";
  flag?: FlagSpec<T>;
  config?: ConfigSpec<T>;
  /** Its key in a snapshot scenario, when a scenario may set it. */
  scenario?: string;
  /** Never read: carries `T` to `SystemPromptOptions`. */
  readonly _type?: T;
}

/** An option of type `T`; the spec's literal fields (`session`, `scenario`) stay literal for the derived types. */
export const option =
  <T>() =>
  <const S extends OptionSpec<T>>(spec: S): S & OptionSpec<T> =>
    spec;

/** A flag whose one string value is checked as the option's. */
export function valueFlag<T>(
  declare: FlagSpec<T>["declare"],
  check: Check,
  convert: (raw: string, at: FlagContext) => unknown = (raw) => raw,
): FlagSpec<T> {
  return {
    declare,
    parse: (raw, at) => gotRaw(checked<T>(check, convert(raw as string, at)), raw),
  };
}

/** A repeatable flag: every value, in order. */
export function listFlag<T>(
  declare: FlagSpec<T>["declare"],
  convert: (raw: string[], at: FlagContext) => Checked<T> = (raw) => ({ value: raw as T }),
): FlagSpec<T> {
  return {
    declare,
    repeatable: true,
    parse: (raw, at) => ((raw as string[]).length > 0 ? convert(raw as string[], at) : undefined),
  };
}

/** A flag's problem: `expects …, got "text"` (the flag's name goes before it). */
function gotRaw<T>(result: Checked<T>, raw: unknown): Checked<T> {
  return "problem" in result
    ? {
        problem: `${result.problem.replace(/^must be /, "expects ")}, got ${JSON.stringify(String(raw))}`,
      }
    : result;
}

/** A config key whose value the option's own check takes as it is. */
export function configKey<T>(key: string, example: string, check: Check): ConfigSpec<T> {
  return { key, example, parse: (value) => checked<T>(check, value) };
}

/**
 * A key only the user sets (the agent dir's `sysprompt.yaml`, `flag`, the API): a project's file
 * giving it is one `config-project-<code>` warning, and the key is left out.
 */
export function userOnly<T>(
  spec: ConfigSpec<T>,
  code: string,
  why: string,
  flag: string,
): ConfigSpec<T> {
  return {
    ...spec,
    project: {
      yours: "any value",
      refuse: (value) => ({
        code: `config-project-${code}`,
        message: `${spec.key}: ${String(value)} left out: a project's file cannot set ${why}; pass ${flag}, or set it in the agent dir's sysprompt.yaml`,
      }),
    },
  };
}

/** A config key holding one name: trimmed, one line, no control characters. */
export function nameKey(key: string, example: string, what: string): ConfigSpec<string> {
  return { key, example, parse: (value) => oneLineName(value, what) };
}

/**
 * `NAME=value` entries as a record; a later entry for a name wins. The value
 * may be empty and may hold `=`; the name is checked by `nameProblem`, and
 * `__proto__` is refused for every user (`--var`, `--tool`): set on a plain
 * object it sets the prototype, and the entry vanished without a word (rev53d F4).
 */
export function pairs(
  entries: readonly string[],
  what: string,
  nameProblem: (name: string) => string | undefined,
): Checked<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf("=");
    if (eq < 0) return { problem: `expects ${what}, got ${JSON.stringify(entry)}` };
    const name = entry.slice(0, eq);
    const problem =
      name === "__proto__"
        ? "is reserved (an object's prototype), pick another name"
        : nameProblem(name);
    if (problem !== undefined) return { problem: `: ${JSON.stringify(name)} ${problem}` };
    out[name] = entry.slice(eq + 1);
  }
  return { value: out };
}

/** A tool's name in `--tool name=text`: trimmed, not empty. */
export function toolPairs(entries: readonly string[]): Checked<Record<string, string>> {
  const what = "name=description";
  const bad = entries.find((e) => e.indexOf("=") <= 0);
  if (bad !== undefined) return { problem: `expects ${what}, got ${JSON.stringify(bad)}` };
  const named = entries.map(
    (e) => `${e.slice(0, e.indexOf("=")).trim()}${e.slice(e.indexOf("="))}`,
  );
  return pairs(named, what, () => undefined);
}
