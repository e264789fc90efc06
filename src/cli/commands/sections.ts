import { toPosix } from "../../_paths.js";
import { runStep } from "../../gather/deadline.js";
import { preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import { formatDiagnostics, formatTable } from "../format.js";
import { type CliIo, exitCodeFor } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";
import { presetLines } from "./_preset-lines.js";
import { sectionStatus } from "./_section-status.js";

/**
 * `sysprompt sections`: every section template with order, layer, status in
 * this render (rendered, empty, disabled, replaced, failed), file and flags (the per-model variant that serves it, `variant:small`, and its
 * shrink priority, `shrink:10`); `--json` adds each one's tag, description,
 * variant, models, shrink steps and status in this render (rendered,
 * disabled, replaced, failed, empty).
 */
export async function sectionsCommand(
  flags: RenderFlags & { json?: boolean },
  io: CliIo,
): Promise<number> {
  const prepared = await preparePrompt(
    toRenderOptions(flags, io.cwd, io.env, io.home, io.machine),
    runStep,
    "cli",
  );
  // Rendered too, so a template that fails is reported here, not only by render.
  const result = renderPrepared(prepared);
  const { diagnostics } = result;
  if (flags.json) {
    const sections = prepared.templates.map((t) => ({
      name: t.name,
      order: t.meta.order,
      layer: t.source.layer,
      path: t.source.path ?? null,
      tag: t.meta.tag,
      base: t.meta.base,
      cache: t.meta.cache,
      volatile: t.meta.cache === "volatile",
      enabled: t.meta.enabled,
      overrides: t.lower?.source.layer ?? null,
      description: t.meta.description,
      variant: t.source.variant ?? null,
      models: t.models ?? null,
      shrink: t.meta.shrink,
      status: sectionStatus(t.name, prepared, result).status,
    }));
    const customPrompt = prepared.customPrompt?.source ?? null;
    const rules = prepared.rules.map((r) => ({
      path: r.path,
      source: r.source,
      activation: r.activation ?? null,
      status: r.fate.status,
    }));
    // Only when a preset file was read: the default pi changes nothing.
    const preset = prepared.preset?.sources.length ? { preset: prepared.preset } : {};
    io.stdout(
      `${JSON.stringify({ sections, customPrompt, rules, ...preset, diagnostics }, null, 2)}\n`,
    );
    return exitCodeFor(diagnostics, flags.strict);
  }
  const rows = [["ORDER", "NAME", "LAYER", "STATUS", "FLAGS", "FILE"]];
  for (const t of prepared.templates) {
    const marks = [
      t.meta.enabled ? "" : "disabled",
      t.meta.base ? (prepared.customPrompt ? "base(replaced)" : "base") : "",
      t.meta.cache === "stable" ? "" : t.meta.cache,
      t.lower ? `overrides:${t.lower.source.layer}` : "",
      t.source.variant ? `variant:${t.source.variant}` : "",
      t.meta.shrink ? `shrink:${t.meta.shrink.priority}` : "",
    ].filter((m) => m !== "");
    rows.push([
      String(t.meta.order),
      t.name,
      t.source.layer,
      // What this render did with it: a section that renders empty looks live otherwise.
      sectionStatus(t.name, prepared, result).status,
      marks.join(",") || "-",
      t.source.path ? toPosix(t.source.path) : "-",
    ]);
  }
  io.stdout(formatTable(rows));
  if (prepared.customPrompt) {
    const source = prepared.customPrompt.source;
    io.stdout(
      `\ncustom base prompt: ${source.layer}${source.path ? ` ${toPosix(source.path)}` : ""}\n`,
    );
  }
  const agent = presetLines(prepared.preset, (p) => toPosix(p));
  if (agent.length > 0) io.stdout(`\n${agent.map((l) => `${l}\n`).join("")}`);
  const manual = prepared.rules.filter((r) => r.fate.status === "manual");
  if (manual.length > 0) {
    // Not in any section: the model never sees them, so say they exist.
    io.stdout(
      `\nmanual rules (not in the prompt):\n${manual.map((r) => `  ${r.source}  ${r.path}\n`).join("")}`,
    );
  }
  io.stderr(formatDiagnostics(diagnostics));
  return exitCodeFor(diagnostics, flags.strict);
}
