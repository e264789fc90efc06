import { escapeSpacing } from "../../_text.js";
import { formatDiagnostics, formatTable } from "../../cli/format.js";
import type { Diagnostic, RenderResult } from "../../types.js";
import type { PiContext } from "./types.js";

/** Says a problem to the user: through pi's UI when it has one, else as a line on stderr. */
export type ProblemReporter = (ctx: PiContext, problems: readonly Diagnostic[]) => void;

/**
 * A reporter that says each distinct problem once per pi process: a prompt is
 * rendered on every turn, and a broken override would otherwise be announced
 * on every one of them. Problems are the same when their level, code, place
 * and message are.
 */
export function createReporter(writeStderr: (text: string) => void): ProblemReporter {
  const said = new Set<string>();
  return (ctx, problems) => {
    for (const d of problems) {
      const key = JSON.stringify([d.level, d.code, d.path, d.line, d.column, d.message]);
      if (said.has(key)) continue;
      said.add(key);
      const line = `sysprompt: ${formatDiagnostics([d]).trimEnd()}`;
      if (ctx.hasUI) ctx.ui.notify(line, d.level);
      else writeStderr(`${line}\n`);
    }
  };
}

/**
 * What `/sysprompt` shows: every section of the prompt with its layer, size
 * and file, then the diagnostics of that render.
 */
export function formatPromptReport(result: RenderResult): string {
  const bytes = (text: string) => String(Buffer.byteLength(text, "utf8"));
  const rows = result.sections.map((s) => [
    s.name,
    s.source.layer,
    bytes(s.text),
    s.source.path === undefined ? "-" : escapeSpacing(s.source.path),
  ]);
  const head = `sysprompt: ${result.sections.length} sections, ${bytes(result.text)} bytes\n`;
  const table = formatTable([["section", "layer", "bytes", "file"], ...rows]);
  const diagnostics =
    result.diagnostics.length === 0
      ? "no diagnostics\n"
      : `diagnostics:\n${formatDiagnostics(result.diagnostics)}`;
  return `${head}${table}${diagnostics}`;
}
