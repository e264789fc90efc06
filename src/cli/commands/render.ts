import { preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, exitCodeFor, UsageError } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";
import { sectionDiagnostics, sectionStatus } from "./_section-status.js";

export interface RenderCommandFlags extends RenderFlags {
  json?: boolean;
  section?: string;
}

/**
 * `sysprompt render`: the prompt on stdout, diagnostics on stderr. With
 * `--section NAME`, that section only, with only its diagnostics; when it is
 * not in the prompt, the reason (disabled, replaced, failed, rendered empty)
 * and exit 1, since stdout has nothing a script could use. An unknown name
 * is a usage error.
 */
export async function renderCommand(flags: RenderCommandFlags, io: CliIo): Promise<number> {
  const prepared = await preparePrompt(toRenderOptions(flags, io.cwd, io.env, io.home, io.machine));
  const result = renderPrepared(prepared);
  if (flags.section === undefined) {
    io.stdout(flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${result.text}\n`);
    if (!flags.json) io.stderr(formatDiagnostics(result.diagnostics));
    return exitCodeFor(result.diagnostics, flags.strict);
  }
  const name = flags.section;
  const { status, reason } = sectionStatus(name, prepared, result);
  if (status === "unknown") {
    throw new UsageError(
      `no section "${name}" in this prompt; it has: ${result.sections.map((s) => s.name).join(", ")}`,
    );
  }
  const section = result.sections.find((s) => s.name === name) ?? null;
  const diagnostics = sectionDiagnostics(name, prepared, result);
  if (flags.json) io.stdout(`${JSON.stringify(section, null, 2)}\n`);
  else if (section) io.stdout(`${section.text}\n`);
  // Under --json a rendered section carries no diagnostics, as for the whole result.
  if (!flags.json || !section) io.stderr(formatDiagnostics(diagnostics));
  if (reason) io.stderr(`sysprompt: ${reason}\n`);
  if (!section) return EXIT_PROBLEMS;
  return exitCodeFor(diagnostics, flags.strict);
}
