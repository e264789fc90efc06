import { toPosix } from "../../gather/context-files.js";
import { preparePrompt } from "../../render-system-prompt.js";
import { formatDiagnostics, formatTable } from "../format.js";
import { type CliIo, EXIT_OK } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";

/** `sysprompt sections`: every section template with order, layer, file and flags. */
export async function sectionsCommand(flags: RenderFlags, io: CliIo): Promise<number> {
  const prepared = await preparePrompt(toRenderOptions(flags, io.cwd, io.env, io.home, io.machine));
  const rows = [["ORDER", "NAME", "LAYER", "FLAGS", "FILE"]];
  for (const t of prepared.templates) {
    const marks = [
      t.meta.enabled ? "" : "disabled",
      t.meta.base ? (prepared.customPrompt ? "base(replaced)" : "base") : "",
      t.meta.volatile ? "volatile" : "",
      t.lower ? `overrides:${t.lower.source.layer}` : "",
    ].filter((m) => m !== "");
    rows.push([
      String(t.meta.order),
      t.name,
      t.source.layer,
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
  io.stderr(formatDiagnostics(prepared.diagnostics));
  return EXIT_OK;
}
