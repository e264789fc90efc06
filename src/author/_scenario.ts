import { readFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { didYouMean } from "../_suggest.js";
import { optionValueProblem, type SystemPromptOptions } from "../options.js";
import { SyspromptError } from "../types.js";

/** A snapshot scenario's file name ends in this; the rest is its name. */
export const SCENARIO_SUFFIX = ".scenario.yaml";

/**
 * The keys a scenario may hold, each with the render option it sets. They are
 * the render options by the same names, but for `mtime` (the option
 * `treeMtime`) and what a scenario pins itself: `deadlineMs` (a snapshot must
 * not depend on the machine's speed) and `builtinDir` (the package's own).
 */
export const SCENARIO_KEYS = {
  cwd: "cwd",
  agentDir: "agentDir",
  home: "home",
  projectDir: "projectDir",
  projectTrusted: "projectTrusted",
  agentName: "agentName",
  model: "model",
  tools: "tools",
  toolSnippets: "toolSnippets",
  toolGuidelines: "toolGuidelines",
  promptGuidelines: "promptGuidelines",
  systemPrompt: "systemPrompt",
  appendSystemPrompt: "appendSystemPrompt",
  sections: "sections",
  environment: "environment",
  machine: "machine",
  env: "env",
  now: "now",
  noContextFiles: "noContextFiles",
  docs: "docs",
  workspaceTree: "workspaceTree",
  mtime: "treeMtime",
  roots: "roots",
  skillPaths: "skillPaths",
  maxContextBytes: "maxContextBytes",
  maxPromptTokens: "maxPromptTokens",
} as const satisfies Record<string, keyof SystemPromptOptions>;

export type ScenarioKey = keyof typeof SCENARIO_KEYS;

/** Keys naming folders, resolved against the scenario's folder and kept inside it. */
const FOLDER_KEYS = ["cwd", "agentDir", "home"] as const;

/** The fields of `machine` a file can state; the rest of `Machine` is code. */
const MACHINE_FIELDS = ["platform", "arch", "release", "hostname", "timeZone"];

/** Where in the scenario file something is: 1-based. */
export interface Position {
  line: number;
  column: number;
}

/**
 * A scenario file that cannot be used: bad YAML, an unknown key, a value of
 * the wrong type, a folder outside the scenario's folder. `message` starts
 * with `path:line:column:`; `reason` is the message without it.
 */
export class ScenarioError extends SyspromptError {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly position?: Position,
    options?: { cause?: unknown },
  ) {
    const where = position ? `${path}:${position.line}:${position.column}` : path;
    super("bad-scenario", `${where}: ${reason}`, options);
  }
}

/** A scenario file, read and checked; nothing resolved yet. */
export interface Scenario {
  /** The scenario file, absolute. */
  file: string;
  /** Its folder: every folder key is relative to it and inside it. */
  dir: string;
  /** The file name without `.scenario.yaml`: its golden is `<name>.md` beside it. */
  name: string;
  /** The keys as written (`mtime`, not `treeMtime`), checked. */
  values: { [K in ScenarioKey]?: unknown };
  /** Where each key is, for problems found when the options are used. */
  positions: ReadonlyMap<ScenarioKey, Position>;
}

/** Reads and checks a scenario file. @throws ScenarioError */
export async function readScenario(file: string): Promise<Scenario> {
  const path = resolve(file);
  let source: string;
  try {
    source = await readFile(path, "utf8");
  } catch (error) {
    throw new ScenarioError(path, `cannot read it: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  return parseScenario(source, path);
}

/**
 * Parses the YAML of a scenario and checks every key: known, of the option's
 * type, folders relative and inside the scenario's folder, `machine` only
 * with string facts. An empty file is a scenario with every default.
 *
 * @throws ScenarioError located at the key or the YAML problem.
 */
export async function parseScenario(source: string, file: string): Promise<Scenario> {
  const yaml = await import("yaml");
  const lines = new yaml.LineCounter();
  const doc = yaml.parseDocument(source, { lineCounter: lines, logLevel: "silent" });
  const at = (offset: number | undefined): Position | undefined => {
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const firstError = doc.errors[0];
  if (firstError) {
    const reason = firstError.message.split("\n")[0] ?? firstError.message;
    throw new ScenarioError(file, `not valid YAML: ${reason}`, at(firstError.pos[0]));
  }
  const dir = dirname(file);
  const name = scenarioName(file);
  const scenario: Scenario = { file, dir, name, values: {}, positions: new Map() };
  const contents = doc.contents;
  if (contents === null || (yaml.isScalar(contents) && contents.value === null)) return scenario;
  if (!yaml.isMap(contents)) {
    throw new ScenarioError(
      file,
      "must be a mapping of render options, such as `tools: [read, bash]`",
      at(contents.range?.[0]),
    );
  }
  const positions = new Map<ScenarioKey, Position>();
  for (const pair of contents.items) {
    const keyNode = pair.key;
    const position = at(yaml.isNode(keyNode) ? keyNode.range?.[0] : undefined);
    const key = yaml.isScalar(keyNode) ? keyNode.value : keyNode;
    if (typeof key !== "string" || !Object.hasOwn(SCENARIO_KEYS, key)) {
      throw new ScenarioError(
        file,
        `unknown key ${JSON.stringify(String(key))}; ${didYouMean(String(key), Object.keys(SCENARIO_KEYS)) ?? `the keys are: ${Object.keys(SCENARIO_KEYS).join(", ")}`}`,
        position,
      );
    }
    const scenarioKey = key as ScenarioKey;
    const value = yaml.isNode(pair.value) ? pair.value.toJS(doc) : pair.value;
    const problem = valueProblem(scenarioKey, value, dir);
    if (problem !== undefined) throw new ScenarioError(file, `${key}: ${problem}`, position);
    if (position) positions.set(scenarioKey, position);
    scenario.values[scenarioKey] = value;
  }
  return { ...scenario, positions };
}

/** `x` for `x.scenario.yaml` (any other file: its name without the extension). */
export function scenarioName(file: string): string {
  const base = basename(file);
  if (base.endsWith(SCENARIO_SUFFIX)) return base.slice(0, -SCENARIO_SUFFIX.length);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

function valueProblem(key: ScenarioKey, value: unknown, dir: string): string | undefined {
  if (value === null) return "has no value; give one or leave the key out";
  const typeProblem = optionValueProblem(SCENARIO_KEYS[key], value);
  if (typeProblem !== undefined) return typeProblem;
  if ((FOLDER_KEYS as readonly string[]).includes(key)) return folderProblem(value as string, dir);
  if (key === "machine") {
    const machine = value as Record<string, unknown>;
    const extra = Object.keys(machine).find(
      (k) => !MACHINE_FIELDS.includes(k) || typeof machine[k] !== "string",
    );
    if (extra !== undefined) {
      return `"${extra}" is not a machine fact a scenario can give; give strings for ${MACHINE_FIELDS.join(", ")}`;
    }
  }
  return undefined;
}

/** A scenario is copied and rendered elsewhere, so its folders must lie in its own folder. */
function folderProblem(path: string, dir: string): string | undefined {
  if (isAbsolute(path) || path.startsWith("~")) {
    return `${JSON.stringify(path)} must be relative to the scenario's folder (an absolute or ~ path differs from machine to machine)`;
  }
  const rel = relative(dir, resolve(dir, path));
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return `${JSON.stringify(path)} leads outside the scenario's folder; keep fixtures beside the scenario (the folder is what gets copied)`;
  }
  return undefined;
}
