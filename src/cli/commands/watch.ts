import { lstatSync } from "node:fs";
import { basename, dirname } from "node:path";
import { pushAll } from "../../_arrays.js";
import { DIFF_BUDGET_TEXT, type DiffBudget, diffBudget } from "../../_diff-budget.js";
import { realpathSyncLinear } from "../../_realpath.js";
import { escapeInline } from "../../_text.js";
import { linePatch } from "../../_text-diff.js";
import type { WatchRender } from "../../author/index.js";
import { watchPrompt } from "../../author/index.js";
import { runStep } from "../../gather/deadline.js";
import { resolveRenderOptions } from "../../render-options.js";
import { preparePrompt } from "../../render-system-prompt.js";
import type { Diagnostic, RenderedSection } from "../../types.js";
import { type Palette, paletteFor } from "../colors.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, UsageError, untilStopped } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";
import { refuseRenderInput } from "./_output-file.js";
import { showPath } from "./_show-path.js";
import {
  type ExportFlags,
  type ExportTarget,
  keepNamesForHook,
  resolvedTarget,
  settingHint,
  writeTarget,
} from "./export.js";

/** Lines of context around each change in a section's diff. */
const DIFF_CONTEXT = 2;

/** Changed files named in a re-render's line before "and N more". */
const FILES_SHOWN = 3;

export interface WatchFlags extends RenderFlags, ExportFlags {
  /** `--export`: write the prompt to the agent's export file after every render that changes its bytes. */
  export?: boolean;
}

/**
 * `sysprompt watch`: renders, then re-renders whenever a file the render read
 * changes, printing which sections changed (a line diff of each), the render
 * time, new diagnostics and fixed ones. With `--export` (and `--agent`), every
 * render is also written to the agent's export file, as `sysprompt export`
 * does: only when its bytes changed, so a long session that reads the file
 * sees a change only when there is one. Stops on `io.signal`, Ctrl-C, SIGTERM
 * or SIGHUP (see {@link untilStopped}, the only place that handles them), its
 * last export written, exit 0 (143 on SIGTERM, 129 on SIGHUP), without a
 * stack trace.
 */
export async function watchCommand(flags: WatchFlags, io: CliIo): Promise<number> {
  const options = toRenderOptions(flags, io.cwd, io.env, io.home, io.machine);
  const cwd = options.cwd ?? io.cwd;
  const paint = paletteFor(io);
  if (flags.out !== undefined && !flags.export) {
    throw new UsageError("--out is where --export writes: pass --export too");
  }
  // Checked before anything is watched: no agent, or one with nothing to export, is exit 2;
  // a sysprompt.yaml agent: that names no preset is the file's problem, exit 1.
  const target = flags.export ? await watchTarget(options, flags, io) : undefined;
  if (target && "notExported" in target) {
    io.stderr(formatDiagnostics(target.diagnostics, paint.level));
    io.stderr(target.notExported);
    return EXIT_PROBLEMS;
  }
  if (target && flags.out !== undefined) {
    // As `export --out`: a file this render reads is refused, yours even in the project (rev101d F1).
    const prepared = await preparePrompt(options, runStep, "cli");
    await refuseRenderInput(
      options,
      prepared,
      { path: target.write ?? target.path, within: target.within },
      flags.out,
      "export",
      flags.force,
      io.stderr,
      io.passwd,
    );
  }
  if (target)
    io.stdout(
      `exporting to ${escapeInline(target.path)}; ${settingHint(target)}\n${target.setting}\n`,
    );
  // One write at a time, in render order: a slow disk never lets an older prompt land last.
  let writes = Promise.resolve();
  // The export as it was written last (its file's identity and times), so its own change
  // event is not a trigger when the render reads it (rev56d F2).
  let written: string | undefined;
  // Writes under way: the target's events meanwhile are the write's own (its rename lands
  // before `written` is known; a slow disk must not make that a change: rev92d F1).
  let writing = 0;
  const code = await untilStopped(io, async (signal) => {
    await watchPrompt(
      options,
      {
        signal,
        ...(target
          ? {
              output: {
                path: target.path,
                wroteAsIs: (p: string) =>
                  (writing > 0 && sameFile(p, target.write ?? target.path)) ||
                  (written !== undefined && fileState(p) === written),
              },
            }
          : {}),
        onRender: (render) => {
          io.stdout(formatRender(render, (p) => showPath(p, cwd), paint));
          if (!target || render.error) return;
          const text = render.result.text;
          writing++;
          writes = writes.then(async () => {
            try {
              const outcome = await writeTarget(target, text);
              if (outcome === "written") written = fileState(target.path);
              keepNamesForHook(target, render.prepared, io);
              io.stdout(
                outcome === "written"
                  ? `exported ${escapeInline(target.path)}\n`
                  : "export unchanged\n",
              );
            } catch (error) {
              // The file became a link or a folder mid-session: said, and watching goes on.
              io.stdout(paint.red(`not exported: ${(error as Error).message}\n`));
            } finally {
              writing--;
            }
          });
        },
      },
      "cli",
    );
  });
  await writes;
  io.stdout("stopped watching\n");
  return code;
}

/** Whether `a` and `b` name the same place: the same real folder and name (the file itself may be mid-swap). */
function sameFile(a: string, b: string): boolean {
  if (basename(a) !== basename(b)) return false;
  const real = (p: string) => {
    try {
      return realpathSyncLinear(dirname(p));
    } catch {
      return dirname(p);
    }
  };
  return real(a) === real(b);
}

/** A file's identity and times as lstat gives them (none when it is not there): the same only while nothing rewrote it. */
function fileState(path: string): string | undefined {
  const s = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return s && `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/**
 * The export target of the agent's preset (`--agent`, else sysprompt.yaml's
 * `agent:`), as the first render will see it, or why there is none.
 */
async function watchTarget(
  options: ReturnType<typeof toRenderOptions>,
  flags: WatchFlags,
  io: CliIo,
): Promise<ExportTarget | { notExported: string; diagnostics: Diagnostic[] }> {
  const resolved = await resolveRenderOptions(options);
  const target = await resolvedTarget(
    {
      preset: resolved.preset.report,
      provenance: resolved.provenance,
      diagnostics: resolved.diagnostics,
    },
    flags,
    io,
  );
  return "notExported" in target ? { ...target, diagnostics: resolved.diagnostics } : target;
}

/** One render as text: a summary line, each changed section's diff, new and fixed problems. */
export function formatRender(
  render: WatchRender,
  show: (path: string) => string,
  paint: Palette,
): string {
  const out: string[] = [];
  const { result } = render;
  if (render.count === 0) {
    out.push(
      paint.bold(
        `rendered ${plural(result.sections.length, "section")}, ${Buffer.byteLength(result.text)} bytes in ${render.ms.toFixed(1)} ms; watching ${plural(render.watching.length, "folder")} (Ctrl-C to stop)`,
      ),
    );
    return `${out.join("\n")}\n${formatDiagnostics(render.diagnostics, paint.level)}`;
  }
  const files = render.changed.map(show);
  const what =
    files.length > FILES_SHOWN
      ? `${files.slice(0, FILES_SHOWN).join(", ")} and ${files.length - FILES_SHOWN} more`
      : files.join(", ") || "a watched folder";
  const head = `[${render.count}] ${what} changed: `;
  if (render.error) {
    out.push(paint.red(`${head}not rendered: ${render.error.message}; still watching`));
    return `${out.join("\n")}\n`;
  }
  const names = Object.keys(render.changes ?? {});
  out.push(
    paint.bold(
      `${head}rendered in ${render.ms.toFixed(1)} ms, ${
        names.length === 0
          ? "no section changed"
          : `${plural(names.length, "section")} changed: ${names.join(", ")}`
      }`,
    ),
  );
  const before = new Map((render.previous?.sections ?? []).map((s) => [s.name, s]));
  const after = new Map(result.sections.map((s) => [s.name, s]));
  // One budget for the report's diffs: past it a changed section is shown whole.
  const budget = diffBudget();
  for (const name of names) {
    pushAll(out, sectionDiff(name, before.get(name), after.get(name), show, paint, budget));
  }
  if (budget.cut > 0) {
    out.push(
      `(${budget.cut === 1 ? "1 changed section is" : `${budget.cut} changed sections are`} shown removed and added whole: one report's diffs stop after ${DIFF_BUDGET_TEXT} together)`,
    );
  }
  const problems = newAndFixed(render.previousDiagnostics ?? [], render.diagnostics);
  let text = `${out.join("\n")}\n${formatDiagnostics(problems.added, paint.level)}`;
  for (const fixed of problems.fixed) {
    text += `${paint.green("fixed")} ${formatDiagnostics([fixed])}`;
  }
  return text;
}

function sectionDiff(
  name: string,
  before: RenderedSection | undefined,
  after: RenderedSection | undefined,
  show: (path: string) => string,
  paint: Palette,
  budget: DiffBudget,
): string[] {
  if (!after) return [paint.red(`- ${name} (removed)`)];
  const source = after.source.path ? show(after.source.path) : after.source.layer;
  const out = [paint.bold(`${before ? "~" : "+"} ${name}  ${source}`)];
  const patch = linePatch(name, name, before ? `${before.text}\n` : "", `${after.text}\n`, "", "", {
    context: DIFF_CONTEXT,
    budget,
  });
  for (const hunk of patch.hunks) {
    out.push(
      paint.cyan(`  @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`),
    );
    for (const line of hunk.lines) {
      const colour = line.startsWith("+") ? paint.green : line.startsWith("-") ? paint.red : id;
      out.push(colour(`  ${line}`));
    }
  }
  return out;
}

/** Diagnostics this render has that the previous did not, and the reverse. */
function newAndFixed(previous: readonly Diagnostic[], current: readonly Diagnostic[]) {
  const key = (d: Diagnostic) =>
    JSON.stringify([d.level, d.code, d.path, d.line, d.column, d.message]);
  const before = new Set(previous.map(key));
  const now = new Set(current.map(key));
  return {
    added: current.filter((d) => !before.has(key(d))),
    fixed: previous.filter((d) => !now.has(key(d))),
  };
}

function id(text: string): string {
  return text;
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
