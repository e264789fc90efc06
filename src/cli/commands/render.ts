import { renderSystemPrompt } from "../../render-system-prompt.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_OK, UsageError } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";

export interface RenderCommandFlags extends RenderFlags {
  json?: boolean;
  section?: string;
}

/** `sysprompt render`: the prompt on stdout, diagnostics on stderr. */
export async function renderCommand(flags: RenderCommandFlags, io: CliIo): Promise<number> {
  const result = await renderSystemPrompt(
    toRenderOptions(flags, io.cwd, io.env, io.home, io.machine),
  );
  if (flags.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_OK;
  }
  if (flags.section !== undefined) {
    const section = result.sections.find((s) => s.name === flags.section);
    if (!section) {
      throw new UsageError(
        `no section "${flags.section}" in this prompt; it has: ${result.sections.map((s) => s.name).join(", ")}`,
      );
    }
    io.stdout(`${section.text}\n`);
  } else {
    io.stdout(`${result.text}\n`);
  }
  io.stderr(formatDiagnostics(result.diagnostics));
  return EXIT_OK;
}
