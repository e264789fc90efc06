import type * as Yaml from "yaml";
import { didYouMean } from "../_suggest.js";
import { describe } from "../_text.js";
import { parseYaml, shownKey, YAML_TEXT_CAPS } from "../_yaml.js";
import type { Diagnostic } from "../types.js";
import { CONFIG_KEY_NAMES, CONFIG_KEYS, OPTION_NAME_KEYS, varNameProblem } from "./keys.js";
import type { ConfigFile, ConfigLayer, ConfigValues } from "./types.js";

/** Most YAML errors and warnings reported for one file. */
const MAX_YAML_PROBLEMS = 5;

/** Most problems with keys and values reported for one file; one more diagnostic counts the rest. */
export const MAX_KEY_PROBLEMS = 20;

/** Anchors a file may expand: enough for any config, far too few for a billion laughs. */
const MAX_ALIAS_COUNT = 100;

/**
 * Reads one `sysprompt.yaml` text: pure, no I/O. Every problem is a located
 * diagnostic: bad YAML (the whole file is ignored), an unknown key (a warning
 * with a suggestion; the rest still applies), a bad value (an error; that key,
 * or that one variable, is ignored).
 */
export function parseConfig(source: string, path: string, layer: ConfigLayer): ConfigFile {
  const file: ConfigFile = {
    layer,
    path,
    found: true,
    values: {},
    lines: new Map(),
    diagnostics: [],
  };
  const lines = file.lines as Map<string, number>;
  const report = (level: Diagnostic["level"], code: string, message: string, line?: number) => {
    file.diagnostics.push({ level, code, message, path, ...(line !== undefined ? { line } : {}) });
  };
  const parsed = parseYaml(source, { maxChars: YAML_TEXT_CAPS.config });
  if (!parsed.ok) {
    const { message, line } = parsed.problem;
    report("error", "config-yaml", `${message}; the file is ignored`, line);
    return file;
  }
  const { yaml, doc, lines: counter } = parsed;
  const lineAt = (node: unknown): number | undefined => {
    const offset = yaml.isNode(node) ? node.range?.[0] : undefined;
    return offset === undefined ? undefined : counter.linePos(offset).line;
  };
  if (doc.errors.length > 0) {
    for (const error of doc.errors.slice(0, MAX_YAML_PROBLEMS)) {
      const at = error.pos[0] === undefined ? undefined : counter.linePos(error.pos[0]).line;
      report(
        "error",
        "config-yaml",
        `not valid YAML: ${firstLine(error.message)}; the file is ignored`,
        at,
      );
    }
    return file;
  }
  for (const warning of doc.warnings.slice(0, MAX_YAML_PROBLEMS)) {
    const at = warning.pos[0] === undefined ? undefined : counter.linePos(warning.pos[0]).line;
    report("warning", "config-yaml", firstLine(warning.message), at);
  }
  const contents = doc.contents;
  if (contents === null || (yaml.isScalar(contents) && contents.value === null)) return file;
  if (!yaml.isMap(contents)) {
    report(
      "error",
      "config-yaml",
      "must be a mapping of keys to values, such as `tools: [read, bash]`; the file is ignored",
      lineAt(contents),
    );
    return file;
  }
  const values: Record<string, unknown> = {};
  for (const pair of contents.items) {
    const line = lineAt(pair.key);
    const key = yaml.isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== "string" || !Object.hasOwn(CONFIG_KEYS, key)) {
      report(
        "warning",
        "config-unknown-key",
        unknownKeyMessage(key, shownKey(yaml, pair.key)),
        line,
      );
      continue;
    }
    if (key === "vars") {
      const vars = readVars(yaml, pair.value, lineAt, report, lines);
      if (vars) {
        values.vars = vars;
        if (line !== undefined) lines.set(key, line);
      }
      continue;
    }
    const spec = CONFIG_KEYS[key];
    if (!spec) continue;
    const value = toValue(yaml, doc, pair.value);
    const checked =
      value === null
        ? { problem: "has no value; give one or leave the key out" }
        : value === ALIAS_ERROR
          ? { problem: `uses more than ${MAX_ALIAS_COUNT} aliases or an unknown one` }
          : spec.check(value);
    if ("problem" in checked) {
      // A scalar is quoted back; a list's problem names the item itself.
      const got = isScalarValue(value) ? `, got ${shown(value)}` : "";
      report(
        "error",
        "config-bad-value",
        `${key} ${checked.problem}${got} (as in \`${spec.example}\`); the key is ignored`,
        lineAt(pair.value) ?? line,
      );
      continue;
    }
    let kept: unknown = checked.value;
    // What a project's file may not set is declared with the key, in the option registry.
    const refused = layer === "project" ? spec.fromProject?.(kept) : undefined;
    if (refused) {
      report("warning", refused.code, refused.message, lineAt(pair.value) ?? line);
      if (refused.keep === undefined) continue;
      kept = refused.keep;
    }
    values[spec.option] = kept;
    if (line !== undefined) lines.set(key, line);
  }
  file.values = values as ConfigValues;
  const extra = file.diagnostics.length - MAX_KEY_PROBLEMS;
  if (extra > 0) {
    file.diagnostics.splice(MAX_KEY_PROBLEMS);
    report("warning", "config-problems-capped", `${extra} more problems in this file not shown`);
  }
  return file;
}

const ALIAS_ERROR = Symbol("alias error");

function isScalarValue(value: unknown): boolean {
  return ["string", "number", "boolean"].includes(typeof value);
}

function toValue(yaml: typeof Yaml, doc: Yaml.Document, node: unknown): unknown {
  if (!yaml.isNode(node)) return node ?? null;
  try {
    return node.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml throws for an alias to a missing anchor and for too many aliases: both are the file's.
    if (error instanceof Error) return ALIAS_ERROR;
    throw error;
  }
}

/** `vars:` entry by entry: a bad name or a value that is not a string loses that variable only. */
function readVars(
  yaml: typeof Yaml,
  node: unknown,
  lineAt: (node: unknown) => number | undefined,
  report: (level: Diagnostic["level"], code: string, message: string, line?: number) => void,
  lines: Map<string, number>,
): Record<string, string> | undefined {
  if (!yaml.isMap(node)) {
    report(
      "error",
      "config-bad-value",
      `vars must be a mapping of names to strings (as in \`vars:\\n  team: payments\`); the key is ignored`,
      lineAt(node),
    );
    return undefined;
  }
  const vars: Record<string, string> = {};
  for (const pair of node.items) {
    const line = lineAt(pair.key);
    const name = yaml.isScalar(pair.key) ? pair.key.value : undefined;
    const nameProblem =
      typeof name === "string" ? varNameProblem(name) : "is not a variable name (a plain word)";
    if (typeof name !== "string" || nameProblem !== undefined) {
      report(
        "error",
        "config-bad-value",
        `vars: ${shownKey(yaml, pair.key)} ${nameProblem}; it is ignored`,
        line,
      );
      continue;
    }
    const value = yaml.isScalar(pair.value) ? pair.value.value : undefined;
    if (typeof value !== "string") {
      const got = yaml.isScalar(pair.value)
        ? shown(value)
        : yaml.isSeq(pair.value)
          ? "a list"
          : yaml.isMap(pair.value)
            ? pair.value.tag === "tag:yaml.org,2002:set"
              ? "a set (!!set)"
              : "a mapping"
            : pair.value
              ? "an alias"
              : "nothing";
      report(
        "error",
        "config-bad-value",
        `vars.${name} must be a string (quote a number or true/false: ${name}: "…"), got ${got}; it is ignored`,
        lineAt(pair.value) ?? line,
      );
      continue;
    }
    vars[name] = value;
    if (line !== undefined) lines.set(`vars.${name}`, line);
  }
  return vars;
}

/** Why a top-level key is not read: `named` is the key as a message names it ({@link shownKey}). */
function unknownKeyMessage(key: unknown, named: string): string {
  if (typeof key !== "string") {
    return `a key must be a plain word, got ${named}; the keys are: ${CONFIG_KEY_NAMES.join(", ")}`;
  }
  const known = OPTION_NAME_KEYS[key];
  const hint =
    known !== undefined && Object.hasOwn(OPTION_NAME_KEYS, key)
      ? `it is written "${known}" here, as the command-line flag`
      : (didYouMean(key, CONFIG_KEY_NAMES) ?? `the keys are: ${CONFIG_KEY_NAMES.join(", ")}`);
  return `unknown key ${shown(key)}, ignored; ${hint}`;
}

/** A value for a message: the one quoting helper, in YAML's words. */
function shown(value: unknown): string {
  return describe(value, "yaml");
}

function firstLine(message: string): string {
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
}
