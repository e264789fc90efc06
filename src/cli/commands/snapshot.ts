import { namedPlace } from "../../_output-target.js";
import { homeFolder, resolveUserPath } from "../../_paths.js";
import { escapeInline } from "../../_text.js";
import type { GoldenFile, ScenarioOutcome, SnapshotReport } from "../../author/index.js";
import { defaultSandboxParent, MAX_SNAPSHOT_DIFF_CHARS, runSnapshots } from "../../author/index.js";
import { type Palette, paletteFor } from "../colors.js";
import { type CliIo, EXIT_OK, EXIT_PROBLEMS } from "../io.js";
import { showPath } from "./_show-path.js";

export interface SnapshotFlags {
  update?: boolean;
  json?: boolean;
}

/** Where `sysprompt snapshot` looks when no folder is given. */
export const DEFAULT_SNAPSHOT_DIR = "snapshots";

/**
 * `sysprompt snapshot [DIR] [--update]`: one line per scenario, a unified diff
 * under each that drifted, then a summary. Exit 1 on drift, a missing golden,
 * a broken scenario file or no scenario at all; with --update only on the
 * last two.
 */
export async function snapshotCommand(
  dir: string | undefined,
  flags: SnapshotFlags,
  io: CliIo,
): Promise<number> {
  const target = resolveUserPath(dir ?? DEFAULT_SNAPSHOT_DIR, io.cwd, io.home ?? io.cwd);
  // Its goldens are written in the folder: one into the project is held to the project's root
  // (`../build/snapshots` from a subfolder, `build` a link out, is refused), as `render -o` is.
  // A folder named into a tree around the working folder is held to that tree (the folder
  // itself may be the one its checks start from, as a file's own folder is).
  const out = await namedPlace(target, { cwd: io.cwd, home: io.home ?? homeFolder() });
  const report = await runSnapshots(out.path, {
    update: flags.update === true,
    within: out.within ?? out.tree?.root ?? io.cwd,
    // The default names a folder: a repository's regular file `snapshots` is no scenario of yours.
    folder: dir === undefined,
    sandboxDir: defaultSandboxParent(io.env, io.home ?? homeFolder()),
  });
  const code = report.ok ? EXIT_OK : EXIT_PROBLEMS;
  if (flags.json) {
    io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    return code;
  }
  const paint = paletteFor(io);
  // Paths under the working directory are shown relative to it, as typed, on one line.
  const show = (path: string) => showPath(path, io.cwd);
  for (const scenario of report.scenarios) io.stdout(formatOutcome(scenario, paint, show));
  if (report.scenarios.length === 0) {
    io.stdout(`${paint.red(`no *.scenario.yaml files in ${show(report.dir)}`)}\n`);
  }
  const color = report.ok ? paint.green : paint.red;
  io.stdout(`${color(summarize(report))}\n`);
  return code;
}

const LABEL: Record<ScenarioOutcome["status"], string> = {
  pass: "pass   ",
  drift: "drift  ",
  missing: "missing",
  updated: "updated",
  error: "error  ",
};

function formatOutcome(s: ScenarioOutcome, paint: Palette, show: (p: string) => string): string {
  const colorOf = { pass: paint.green, updated: paint.cyan, drift: paint.red }[s.status as string];
  const label = (colorOf ?? paint.red)(LABEL[s.status]);
  // The name is the scenario file's: `n\nFAKE.scenario.yaml` must not print a line of its own.
  const name = escapeInline(s.name);
  if (s.errors) {
    const lines = s.errors.map(({ path, line, column, message }) => {
      const where = line === undefined ? show(path) : `${show(path)}:${line}:${column}`;
      return `${where}: ${message}`;
    });
    // One problem on the scenario's line; several each on its own line below it.
    if (lines.length === 1) return `${label} ${name}  ${lines[0]}\n`;
    return `${label} ${name}\n${lines.map((l) => `  ${l}\n`).join("")}`;
  }
  let out = `${label} ${name}\n`;
  for (const file of s.files.filter((f) => f.status !== "same")) {
    out += `  ${describeFile(file, show)}\n`;
    if (file.diff && !file.updated) out += paintDiff(file.diff, paint);
    else if (file.summary && !file.updated) out += `    ${describeSummary(file.summary)}\n`;
  }
  return out;
}

function describeFile(file: GoldenFile, show: (p: string) => string): string {
  const path = show(file.path);
  if (file.updated) return file.status === "stale" ? `removed ${path}` : `wrote ${path}`;
  switch (file.status) {
    case "missing":
      return file.kind === "prompt"
        ? `no golden ${path}; --update writes it`
        : `new diagnostics, not in ${path}; --update writes it`;
    case "stale":
      return `${path} lists diagnostics the render no longer has; --update removes it`;
    default:
      return `${path} differs from the render:`;
  }
}

/** A drift the report had no room to diff: its sizes and where it starts. */
function describeSummary(summary: NonNullable<GoldenFile["summary"]>): string {
  const { goldenBytes, renderedBytes, firstDifferingLine } = summary;
  return `(no diff: the report holds ${MAX_SNAPSHOT_DIFF_CHARS / (1024 * 1024)} MiB of diffs in all; golden ${goldenBytes} bytes, render ${renderedBytes} bytes, first differing at line ${firstDifferingLine})`;
}

function paintDiff(diff: string, paint: Palette): string {
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return paint.bold(line);
      if (line.startsWith("@@")) return paint.cyan(line);
      if (line.startsWith("+")) return paint.green(line);
      if (line.startsWith("-")) return paint.red(line);
      return line;
    })
    .map((line) => (line === "" ? "" : `    ${line}`))
    .join("\n");
}

function summarize(report: SnapshotReport): string {
  const { pass, drift, missing, updated, error } = report.counts;
  const n = report.scenarios.length;
  const parts = [`${pass} passed`];
  if (report.update) parts.push(`${updated} updated`);
  else parts.push(`${drift} drifted`, `${missing} missing`);
  parts.push(`${error} ${error === 1 ? "error" : "errors"}`);
  return `sysprompt snapshot: ${n} scenario${n === 1 ? "" : "s"}: ${parts.join(", ")}`;
}
