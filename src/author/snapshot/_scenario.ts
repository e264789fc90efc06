import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { undecodableName } from "../../_fs.js";
import { UnsafePathError } from "../../_safe-write.js";
import { didYouMean } from "../../_suggest.js";
import { parseYaml, YAML_TEXT_CAPS } from "../../_yaml.js";
import { optionValueProblem } from "../../options/given.js";
import { OPTION_SPECS, type ScenarioKeyOf } from "../../options/registry.js";
import { readFileNoFollow } from "../../repo-files/index.js";
import { SyspromptError } from "../../types.js";

/** A snapshot scenario's file name ends in this (or {@link SCENARIO_SUFFIXES}); the rest is its name. */
export const SCENARIO_SUFFIX = ".scenario.yaml";

/** Every ending of a scenario file's name. */
export const SCENARIO_SUFFIXES = [SCENARIO_SUFFIX, ".scenario.yml"] as const;

/** A scenario file larger than this is not read: it holds a few options ({@link YAML_TEXT_CAPS}). */
export const MAX_SCENARIO_FILE_BYTES = YAML_TEXT_CAPS.scenario;

/** Most aliases one key's value may expand (yaml's own default): more is an alias bomb, a located problem. */
const MAX_ALIAS_COUNT = 100;

/**
 * The keys a scenario may hold, each with the render option it sets: the
 * options of the registry that declare a `scenario` key (`mtime` for
 * `treeMtime`). What a scenario pins itself has none: `deadlineMs` (a
 * snapshot must not depend on the machine's speed) and `builtinDir` (the
 * package's own).
 */
export const SCENARIO_KEYS = Object.fromEntries(
  OPTION_SPECS.flatMap(([name, spec]) => (spec.scenario ? [[spec.scenario, name]] : [])),
) as ScenarioKeyOf;

export type ScenarioKey = keyof typeof SCENARIO_KEYS;

/** Keys naming folders, resolved against the scenario's folder and kept inside it. */
export const FOLDER_KEYS = ["cwd", "agentDir", "home"] as const;

/** Keys naming paths that the render resolves against cwd; each must stay in the scenario's folder. */
export const CWD_PATH_KEYS = ["roots", "skillPaths", "projectDir"] as const;

/** Keys whose one-line values the render may read as a file (against cwd): kept inside too. */
export const TEXT_OR_PATH_KEYS = ["systemPrompt", "appendSystemPrompt"] as const;

/**
 * Environment variables whose values are paths (`SYSPROMPT_AGENT_DIR`,
 * `XDG_CACHE_HOME`, `PATH`…): each entry is resolved against the scenario's
 * folder and kept inside it. Any other variable may not hold an absolute or
 * `~` path either.
 */
export const PATH_ENV_NAME = /(DIR|HOME|PATH|ROOT|FILE)$|^(PWD|TMP|TEMP)$/;

/** The fields of `machine` a file can state; the rest of `Machine` is code. */
const MACHINE_FIELDS = ["platform", "arch", "release", "hostname", "timeZone"];

/** Where in the scenario file something is: 1-based. */
export interface Position {
  line: number;
  column: number;
}

/** One problem of a scenario file, at its place when it has one. */
export interface ScenarioProblem {
  reason: string;
  position?: Position;
  /** The file the problem is in, when it is not the scenario file (a golden, a fixture). */
  path?: string;
}

/**
 * A scenario file that cannot be used: bad YAML, unknown keys, values of the
 * wrong type, paths outside the scenario's folder, a link in it. `problems`
 * lists every one found; `path`, `reason` and `position` are the first's.
 * `message` has one `path:line:column: reason` line per problem.
 */
export class ScenarioError extends SyspromptError {
  readonly problems: readonly ScenarioProblem[];
  readonly reason: string;
  readonly position?: Position;
  constructor(
    readonly path: string,
    problems: string | readonly ScenarioProblem[],
    position?: Position,
    options?: { cause?: unknown },
  ) {
    const list: readonly ScenarioProblem[] =
      typeof problems === "string"
        ? [{ reason: problems, ...(position ? { position } : {}) }]
        : problems;
    super(
      "bad-scenario",
      list.map((p) => `${where(p.path ?? path, p.position)}: ${p.reason}`).join("\n"),
      options,
    );
    const first = list[0];
    this.problems = list;
    this.reason = first?.reason ?? "";
    if (first?.position) this.position = first.position;
    if (first?.path) this.path = first.path;
  }
}

function where(path: string, position: Position | undefined): string {
  return position ? `${path}:${position.line}:${position.column}` : path;
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

/**
 * Reads and checks a scenario file; `real`: `file` is its real path as judged
 * (a scenario of a folder `snapshot` listed), and the file opened must lie
 * there (rev92a F4). @throws ScenarioError
 */
export async function readScenario(file: string, real = false): Promise<Scenario> {
  const path = resolve(file);
  let bytes: Buffer | null;
  try {
    bytes = await readFileNoFollow(path, MAX_SCENARIO_FILE_BYTES, {
      at: real ? path : undefined,
    });
  } catch (error) {
    const reason = error instanceof UnsafePathError ? error.reason : (error as Error).message;
    throw new ScenarioError(path, `cannot read it: ${reason}`, undefined, { cause: error });
  }
  if (bytes === null) {
    // Listed under a name that is not UTF-8: it is there, but no name of Node's opens it.
    const notUtf8 = await undecodableName(path, "file");
    throw new ScenarioError(
      path,
      notUtf8 ? `cannot read it: ${notUtf8.message}` : "cannot read it: there is no such file",
    );
  }
  return parseScenario(bytes.toString("utf8"), path);
}

/**
 * Parses the YAML of a scenario and checks every key: known, of the option's
 * type, folders relative and inside the scenario's folder, `machine` only
 * with string facts. An empty file is a scenario with every default.
 *
 * @throws ScenarioError located at the key or the YAML problem.
 */
export async function parseScenario(source: string, file: string): Promise<Scenario> {
  const parsed = parseYaml(source, { maxChars: MAX_SCENARIO_FILE_BYTES });
  if (!parsed.ok) {
    const { message, line, column } = parsed.problem;
    throw new ScenarioError(file, `${message}; not parsed`, { line, column });
  }
  const { yaml, doc, lines } = parsed;
  const at = (offset: number | undefined): Position | undefined => {
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    throw new ScenarioError(
      file,
      doc.errors.map((e) => ({
        reason: `not valid YAML: ${yamlReason(e.message)}`,
        ...located(at(e.pos[0])),
      })),
    );
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
  const problems: ScenarioProblem[] = [];
  for (const pair of contents.items) {
    const keyNode = pair.key;
    const position = at(yaml.isNode(keyNode) ? keyNode.range?.[0] : undefined);
    const key = yaml.isScalar(keyNode) ? keyNode.value : keyNode;
    if (typeof key !== "string" || !Object.hasOwn(SCENARIO_KEYS, key)) {
      problems.push({
        reason: `unknown key ${JSON.stringify(String(key))}; ${didYouMean(String(key), Object.keys(SCENARIO_KEYS)) ?? `the keys are: ${Object.keys(SCENARIO_KEYS).join(", ")}`}`,
        ...located(position),
      });
      continue;
    }
    const scenarioKey = key as ScenarioKey;
    let value: unknown = pair.value;
    try {
      if (yaml.isNode(pair.value)) value = pair.value.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      // yaml throws for an alias bomb (and an alias to a missing anchor): the file's problem.
      if (!(error instanceof Error)) throw error;
      problems.push({
        reason: `${key}: uses more than ${MAX_ALIAS_COUNT} aliases or an unknown one`,
        ...located(position),
      });
      continue;
    }
    if (position) positions.set(scenarioKey, position);
    scenario.values[scenarioKey] = value;
  }
  for (const [key, value] of Object.entries(scenario.values) as [ScenarioKey, unknown][]) {
    const problem = valueProblem(key, value, dir, scenario.values);
    if (problem !== undefined)
      problems.push({ reason: `${key}: ${problem}`, ...located(positions.get(key)) });
  }
  if (problems.length > 0) throw new ScenarioError(file, problems);
  return { ...scenario, positions };
}

function located(position: Position | undefined): { position?: Position } {
  return position ? { position } : {};
}

/** The first line of a YAML error, without the `at line 3, column 1:` the location already says. */
function yamlReason(message: string): string {
  const first = message.split("\n")[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?$/, "").replace(/:$/, "");
}

/**
 * `x` for `x.scenario.yaml` or `x.scenario.yml` (any other file, which only `renderScenario` takes
 * and which writes nothing: its name without the extension; `runSnapshots` refuses such a file).
 */
export function scenarioName(file: string): string {
  const base = basename(file);
  for (const suffix of SCENARIO_SUFFIXES) {
    if (base.endsWith(suffix)) return base.slice(0, -suffix.length);
  }
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Whether a file name is a scenario's (`x.scenario.yaml`, `x.scenario.yml`; not the bare suffix). */
export function isScenarioName(name: string): boolean {
  return SCENARIO_SUFFIXES.some((suffix) => name.endsWith(suffix) && name !== suffix);
}

function valueProblem(
  key: ScenarioKey,
  value: unknown,
  dir: string,
  values: Scenario["values"],
): string | undefined {
  if (value === null) return "has no value; give one or leave the key out";
  const typeProblem = optionValueProblem(SCENARIO_KEYS[key], value);
  if (typeProblem !== undefined) return typeProblem;
  if ((FOLDER_KEYS as readonly string[]).includes(key))
    return pathProblem(value as string, dir, dir);
  // The render resolves these against cwd, which is checked to be inside.
  const cwd =
    typeof values.cwd === "string" && pathProblem(values.cwd, dir, dir) === undefined
      ? resolve(dir, values.cwd)
      : dir;
  if ((CWD_PATH_KEYS as readonly string[]).includes(key)) {
    const paths = typeof value === "string" ? [value] : (value as string[]);
    return firstOf(paths.map((p) => pathProblem(p, cwd, dir)));
  }
  if ((TEXT_OR_PATH_KEYS as readonly string[]).includes(key)) {
    const texts = typeof value === "string" ? [value] : (value as string[]);
    // Text with a line break is never read as a file.
    return firstOf(
      texts.filter((t) => !t.includes("\n")).map((t) => pathProblem(t.trim(), cwd, dir, "text")),
    );
  }
  if (key === "env") return envProblem(value as Record<string, unknown>, dir);
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

function firstOf(problems: (string | undefined)[]): string | undefined {
  return problems.find((p) => p !== undefined);
}

/** Each path-valued variable's entries inside the folder; no other variable an absolute or ~ path. */
function envProblem(env: Record<string, unknown>, dir: string): string | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string") continue;
    const entries = PATH_ENV_NAME.test(name) ? value.split(":").filter((e) => e !== "") : [value];
    for (const entry of entries) {
      const problem = PATH_ENV_NAME.test(name)
        ? pathProblem(entry, dir, dir)
        : isAbsolute(entry) || isHomePath(entry)
          ? pathProblem(entry, dir, dir)
          : undefined;
      if (problem !== undefined) return `${name}: ${problem}`;
    }
  }
  return undefined;
}

function isHomePath(path: string): boolean {
  return path === "~" || path.startsWith("~/") || path.startsWith("~\\");
}

/**
 * A scenario is copied and rendered elsewhere, and renders as an untrusted
 * project: its paths must lie in its own folder. `base` is what a relative
 * path is resolved against (the scenario's folder, or cwd). For a value that
 * may be prompt text (`what: "text"`), only one that would name a path
 * outside is refused.
 */
function pathProblem(
  path: string,
  base: string,
  dir: string,
  what: "path" | "text" = "path",
): string | undefined {
  const subject =
    what === "text" ? `${JSON.stringify(path)} would be read as a file, and` : JSON.stringify(path);
  if (isAbsolute(path) || isHomePath(path)) {
    return `${subject} must be relative to the scenario's folder (an absolute or ~ path differs from machine to machine, and a scenario reads nothing outside its folder)`;
  }
  const rel = relative(dir, resolve(base, path));
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return `${subject} leads outside the scenario's folder; keep fixtures beside the scenario (the folder is what gets copied)`;
  }
  return undefined;
}
