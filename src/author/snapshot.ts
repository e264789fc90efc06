import { realpathSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, rm, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { toPosix } from "../_paths.js";
import { builtinPromptsDir } from "../locate/layers.js";
import type { SystemPromptOptions } from "../options.js";
import { renderSystemPrompt } from "../render-system-prompt.js";
import { type Diagnostic, SyspromptError } from "../types.js";
import { compare, goldenPaths } from "./_golden.js";
import {
  readScenario,
  SCENARIO_KEYS,
  SCENARIO_SUFFIX,
  type Scenario,
  ScenarioError,
  type ScenarioKey,
  scenarioName,
} from "./_scenario.js";
import type {
  RenderedScenario,
  ScenarioOutcome,
  SnapshotOptions,
  SnapshotReport,
} from "./types.js";

/** The clock of a scenario that sets no `now`: fixed, so the date section never drifts. */
export const DEFAULT_SCENARIO_NOW = "2026-01-01T00:00:00Z";

/** The machine of a scenario that sets no `machine`: nothing is probed or read. */
export const DEFAULT_SCENARIO_MACHINE = { platform: "linux", arch: "x64" } as const;

/** What machine-specific paths are written as in a golden file. */
export const PLACEHOLDERS = {
  scenario: "<scenario>",
  home: "<home>",
  builtin: "<builtin>",
} as const;

/** Folders not copied with a scenario's folder: never fixtures, possibly huge. */
const NOT_COPIED = new Set([".git", "node_modules"]);

/**
 * A scenario's folder copied into a fresh temp folder, and an empty home
 * beside it. Scenarios render from the copy, never in place: context files are
 * searched in every folder above cwd and skills up to the git root, so in place
 * a repository's own AGENTS.md (and its location) would end up in the golden.
 */
interface Sandbox {
  root: string;
  /** The copy of the scenario's folder; keeps the folder's name. */
  copy: string;
  /** The empty home of scenarios that set none. */
  home: string;
}

async function makeSandbox(dir: string): Promise<Sandbox> {
  // The real path: on macOS the temp folder is reached through a link.
  const root = realpathSync(await mkdtemp(join(tmpdir(), "sysprompt-snapshot-")));
  const copy = join(root, "scenario", basename(dir));
  const home = join(root, "home");
  try {
    await cp(dir, copy, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !NOT_COPIED.has(basename(source)),
    });
    await mkdir(home);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return { root, copy, home };
}

/**
 * Renders the scenario file `file` (`*.scenario.yaml`: render options, see the
 * README) and returns the prompt text as its golden `<name>.md` holds it, with
 * the scenario's folder, the home folder and the package's prompts folder
 * written as `<scenario>`, `<home>` and `<builtin>`. The same on every machine
 * and from every checkout, so a vitest suite can do
 * `expect(await renderScenario(f)).toMatchFileSnapshot(golden)`.
 *
 * @throws SyspromptError (a `ScenarioError`, `code` "bad-scenario") when the
 * file cannot be read, is not valid YAML, has an unknown key or a value a
 * render refuses; the message starts with `file:line:column`.
 */
export async function renderScenario(file: string): Promise<string> {
  return (await renderScenarioFiles(file)).text;
}

/** {@link renderScenario}, with the diagnostics golden too. */
export async function renderScenarioFiles(file: string): Promise<RenderedScenario> {
  const scenario = await readScenario(file);
  const sandbox = await makeSandbox(scenario.dir);
  try {
    return await renderInSandbox(scenario, sandbox);
  } finally {
    await rm(sandbox.root, { recursive: true, force: true });
  }
}

async function renderInSandbox(scenario: Scenario, sandbox: Sandbox): Promise<RenderedScenario> {
  const { values } = scenario;
  // Folder keys are checked to lie inside the scenario's folder, so the copy has them.
  const inCopy = (path: unknown) =>
    join(sandbox.copy, relative(scenario.dir, resolve(scenario.dir, path as string)));
  const options: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    options[SCENARIO_KEYS[key as ScenarioKey]] = value;
  }
  const now = values.now ?? DEFAULT_SCENARIO_NOW;
  const home = values.home === undefined ? sandbox.home : inCopy(values.home);
  Object.assign(options, {
    cwd: inCopy(values.cwd ?? "."),
    home,
    now,
    treeMtime: values.mtime ?? now,
    env: values.env ?? {},
    machine: values.machine ?? { ...DEFAULT_SCENARIO_MACHINE },
    // No deadline: a late step would change the prompt on a slow machine.
    deadlineMs: Number.POSITIVE_INFINITY,
  });
  if (values.agentDir !== undefined) options.agentDir = inCopy(values.agentDir);

  const stable = placeholders([
    [sandbox.copy, PLACEHOLDERS.scenario],
    [home, PLACEHOLDERS.home],
    [builtinPromptsDir(), PLACEHOLDERS.builtin],
  ]);
  let result: Awaited<ReturnType<typeof renderSystemPrompt>>;
  try {
    result = await renderSystemPrompt(options as SystemPromptOptions);
  } catch (error) {
    if (error instanceof SyspromptError) throw locate(scenario, stable(error.message), error);
    throw error;
  }
  return {
    file: scenario.file,
    name: scenario.name,
    text: stable(result.text),
    diagnostics: stable(formatDiagnostics(result.diagnostics)),
  };
}

/**
 * A render option the library refused, as a problem of the scenario file: at
 * the key that set it when the message names one (`cwd: there is no folder…`).
 */
function locate(scenario: Scenario, message: string, cause: SyspromptError): ScenarioError {
  const named = /^(\w+): /.exec(message)?.[1];
  const key = (Object.keys(SCENARIO_KEYS) as ScenarioKey[]).find(
    (k) => SCENARIO_KEYS[k] === named && scenario.positions.has(k),
  );
  if (key === undefined) return new ScenarioError(scenario.file, message, undefined, { cause });
  const reason = `${key}${message.slice(named?.length ?? 0)}`;
  return new ScenarioError(scenario.file, reason, scenario.positions.get(key), { cause });
}

/**
 * Replaces each path (as given, as its real path, with forward slashes) by its
 * placeholder, longest first, so a home inside the scenario's folder is
 * `<home>`, not `<scenario>/…`.
 */
function placeholders(pairs: [string, string][]): (text: string) => string {
  const variants = new Map<string, string>();
  for (const [path, name] of pairs) {
    for (const p of [path, realpathOrSelf(path)]) {
      variants.set(p, name);
      variants.set(toPosix(p), name);
    }
  }
  const ordered = [...variants].sort((a, b) => b[0].length - a[0].length);
  return (text) => ordered.reduce((out, [path, name]) => out.replaceAll(path, name), text);
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there (a home that does not exist): only the path as given can appear.
    return path;
  }
}

/** One `level path:line:column [code] message` line per diagnostic, as the CLI prints them. */
function formatDiagnostics(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const where = d.path
        ? ` ${d.path}${d.line !== undefined ? `:${d.line}${d.column !== undefined ? `:${d.column}` : ""}` : ""}`
        : "";
      return `${d.level}${where} [${d.code}] ${d.message}\n`;
    })
    .join("");
}

/**
 * Renders every `*.scenario.yaml` directly inside `target` (or the one
 * scenario file `target` names) and compares each with its golden files:
 * `<name>.md` (the prompt) and `<name>.diagnostics.txt` (its diagnostics; no
 * file means none). Without `update` nothing is written; with it, a golden
 * whose content differs is written, one that is missing is created and a
 * diagnostics file the render no longer needs is removed — nothing else is
 * touched. A scenario file that cannot be used is reported, not thrown.
 *
 * @throws SyspromptError when `target` is neither a folder nor a file.
 */
export async function runSnapshots(
  target: string,
  options: SnapshotOptions = {},
): Promise<SnapshotReport> {
  const update = options.update === true;
  const { dir, files } = await scenarioFiles(resolve(target));
  const scenarios: ScenarioOutcome[] = [];
  if (files.length > 0) {
    const sandbox = await makeSandbox(dir);
    try {
      for (const file of files) scenarios.push(await runOne(file, sandbox, update));
    } finally {
      await rm(sandbox.root, { recursive: true, force: true });
    }
  }
  const counts = { pass: 0, drift: 0, missing: 0, updated: 0, error: 0 };
  for (const s of scenarios) counts[s.status]++;
  const ok =
    scenarios.length > 0 && counts.drift === 0 && counts.missing === 0 && counts.error === 0;
  return { dir, update, ok, counts, scenarios };
}

async function scenarioFiles(target: string): Promise<{ dir: string; files: string[] }> {
  const usage = `pass the folder that holds the *${SCENARIO_SUFFIX} files (default: snapshots/), or one of them`;
  let kind: "dir" | "file" | "other";
  try {
    const s = await stat(target);
    kind = s.isDirectory() ? "dir" : s.isFile() ? "file" : "other";
  } catch (error) {
    throw new SyspromptError("bad-argument", `there is no folder or file at ${target}; ${usage}`, {
      cause: error,
    });
  }
  // A FIFO or device would block the read, or never end.
  if (kind === "other") {
    throw new SyspromptError("bad-argument", `${target} is not a folder or a file; ${usage}`);
  }
  if (kind === "file") return { dir: dirname(target), files: [target] };
  const names = (await readdir(target, { withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.endsWith(SCENARIO_SUFFIX) && e.name !== SCENARIO_SUFFIX)
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { dir: target, files: names.map((n) => join(target, n)) };
}

async function runOne(file: string, sandbox: Sandbox, update: boolean): Promise<ScenarioOutcome> {
  let rendered: RenderedScenario;
  try {
    rendered = await renderInSandbox(await readScenario(file), sandbox);
  } catch (error) {
    if (!(error instanceof ScenarioError)) throw error;
    const { path, reason, position } = error;
    return {
      scenario: file,
      name: scenarioName(file),
      status: "error",
      files: [],
      error: { path, message: reason, ...position },
    };
  }
  const paths = goldenPaths(file, rendered.name);
  const files = [
    await compare(paths.prompt, "prompt", rendered.text),
    await compare(paths.diagnostics, "diagnostics", rendered.diagnostics || null),
  ].filter((f) => f.status !== "same" || f.kind === "prompt");
  const drifted = files.filter((f) => f.status !== "same");
  if (update) {
    for (const golden of drifted) {
      if (golden.status === "stale") await unlink(golden.path);
      else
        await writeFile(
          golden.path,
          golden.kind === "prompt" ? rendered.text : rendered.diagnostics,
        );
      golden.updated = true;
    }
  }
  const status =
    drifted.length === 0
      ? "pass"
      : update
        ? "updated"
        : files[0]?.status === "missing"
          ? "missing"
          : "drift";
  return { scenario: file, name: rendered.name, status, files };
}
