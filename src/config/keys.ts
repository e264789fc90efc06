import { didYouMean } from "../_suggest.js";
import { RULE_SOURCE_NAMES } from "../gather/rules/index.js";
import { MAX_TREE_DEPTH } from "../gather/tree/depth.js";
import type { ConfigValues } from "./types.js";

/**
 * A variable's name: what `{{vars.NAME}}` can reach as a plain Handlebars
 * path, and what `--var NAME=value` accepts.
 */
export const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Longest variable name; longer ones are refused (nothing that long is a name). */
export const MAX_VAR_NAME_LENGTH = 64;

/** Why `name` cannot be a variable's name, or undefined when it can. */
export function varNameProblem(name: string): string | undefined {
  if (name.length > MAX_VAR_NAME_LENGTH) return `is longer than ${MAX_VAR_NAME_LENGTH} characters`;
  // An own `__proto__` cannot be set on a plain object: it would vanish without a word.
  if (name === "__proto__") return "is reserved (an object's prototype), pick another name";
  if (!VAR_NAME.test(name)) {
    return "is not a variable name: use letters, digits and _, not starting with a digit (it is written {{vars.NAME}})";
  }
  return undefined;
}

/** A checked value, or why the value cannot be used. */
type Checked<T> = { value: T } | { problem: string };

/** One key of a config file: the option it sets and how its value is checked. */
interface KeySpec<K extends keyof ConfigValues> {
  option: K;
  check: (value: unknown) => Checked<NonNullable<ConfigValues[K]>>;
  /** How a value is written, for the key's documentation and its problems. */
  example: string;
}

/** C0 and C1 controls, DEL, line and paragraph separators, bidi controls: a one-line value holds none. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function oneLineName(value: unknown, what: string): Checked<string> {
  if (typeof value !== "string" || value.trim() === "") return { problem: `must be ${what}` };
  if (CONTROL.test(value)) return { problem: "must be one line, without control characters" };
  return { value: value.trim() };
}

/** A list of names: a YAML list, or one comma-separated string as the flag takes. */
function nameList(value: unknown, what: string): Checked<string[]> {
  const items = typeof value === "string" ? value.split(",") : value;
  if (!Array.isArray(items)) return { problem: `must be a list of ${what}` };
  const names: string[] = [];
  for (const item of items) {
    const name = oneLineName(item, `a list of ${what}`);
    if ("problem" in name) {
      // `tools: ""` or `tools: []` is a list of none, like `--tools ""`.
      if (typeof value === "string" && typeof item === "string" && item.trim() === "") continue;
      return name;
    }
    names.push(name.value);
  }
  return { value: names };
}

function wholeNumber(value: unknown, min: number, what: string): Checked<number> {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min
    ? { value }
    : { problem: `must be ${what}` };
}

/**
 * The keys of `sysprompt.yaml`, named as the command-line flags are
 * (`max-tokens` for `--max-tokens`), each with the render option it sets.
 */
export const CONFIG_KEYS: { readonly [key: string]: KeySpec<keyof ConfigValues> } = {
  agent: {
    option: "agent",
    check: (v) => oneLineName(v, "an agent's name, such as claude-code"),
    example: "agent: claude-code",
  },
  tools: {
    option: "tools",
    check: (v) => nameList(v, "tool names"),
    example: "tools: [read, bash, edit, write]",
  },
  model: {
    option: "model",
    check: (v) => oneLineName(v, "a model name"),
    example: "model: gpt-5",
  },
  tree: {
    option: "workspaceTree",
    check: (v) => (typeof v === "boolean" ? { value: v } : { problem: "must be true or false" }),
    example: "tree: true",
  },
  "tree-depth": {
    option: "treeDepth",
    check: (v) =>
      typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= MAX_TREE_DEPTH
        ? { value: v }
        : { problem: `must be a whole number of levels from 1 to ${MAX_TREE_DEPTH}, such as 4` },
    example: "tree-depth: 4",
  },
  git: {
    option: "git",
    check: (v) => (typeof v === "boolean" ? { value: v } : { problem: "must be true or false" }),
    example: "git: true",
  },
  deadline: {
    option: "deadlineMs",
    check: (v) => wholeNumber(v, 0, "a whole number of milliseconds, 0 or more, such as 5000"),
    example: "deadline: 5000",
  },
  "max-tokens": {
    option: "maxPromptTokens",
    check: (v) => wholeNumber(v, 1, "a whole number of tokens, 1 or more, such as 8000"),
    example: "max-tokens: 8000",
  },
  "rule-sources": {
    option: "ruleSources",
    check: (v) => {
      const names = nameList(v, "rule source names");
      if ("problem" in names) return names;
      const unknown = names.value.find((n) => !RULE_SOURCE_NAMES.includes(n));
      if (unknown === undefined) return { value: [...new Set(names.value)] };
      const hint = didYouMean(unknown, RULE_SOURCE_NAMES);
      return {
        problem: `has the unknown rule source ${JSON.stringify(unknown)}; ${hint ?? `the sources are: ${RULE_SOURCE_NAMES.join(", ")}`}`,
      };
    },
    example: "rule-sources: [cursor, claude]",
  },
  vars: {
    option: "vars",
    // Checked entry by entry where the file is parsed, so one bad variable spares the others.
    check: () => ({ problem: "is checked per variable" }),
    example: "vars:\n  team: payments",
  },
};

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
