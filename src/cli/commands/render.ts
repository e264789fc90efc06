import { homeFolder } from "../../_paths.js";
import { writeIfChanged } from "../../_safe-write.js";
import { escapeInline } from "../../_text.js";
import { runStep } from "../../gather/deadline.js";
import type { SystemPromptOptions } from "../../options.js";
import { anthropicSystem, openAiSystemMessage } from "../../provider/system-content.js";
import { type PreparedPrompt, preparePrompt, renderPrepared } from "../../render-system-prompt.js";
import type { RenderResult } from "../../types.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_PROBLEMS, exitCodeFor, UsageError } from "../io.js";
import { type RenderFlags, toRenderOptions } from "../options.js";
import {
  namedOutput,
  outputPath,
  refuseEmptyPrompt,
  refuseRenderInput,
  refuseSettingsBlock,
  writeError,
} from "./_output-file.js";
import { sectionDiagnostics, sectionStatus } from "./_section-status.js";

export interface RenderCommandFlags extends RenderFlags {
  json?: boolean;
  section?: string;
  /** `-o FILE`: what would go to stdout goes to FILE, written only when its bytes change; `-o -` is stdout. */
  output?: string;
  /** `text` (default), `anthropic` or `openai`: see {@link RENDER_FORMATS}. */
  format?: string;
  /** `--force`: write `-o` onto a file this render reads (your `APPEND_SYSTEM.md`) or a trusted project's prompt onto an agent's global instructions file. */
  force?: boolean;
}

/** What `--format` prints for the whole prompt. */
const RENDER_FORMATS: Readonly<Record<string, ((r: RenderResult) => string) | undefined>> = {
  text: undefined,
  anthropic: (r) => `${JSON.stringify(anthropicSystem(r), null, 2)}\n`,
  openai: (r) => `${JSON.stringify(openAiSystemMessage(r), null, 2)}\n`,
};

/** The printer of `--format`; a usage error for an unknown name or a flag it cannot go with. */
function formatPrinter(flags: RenderCommandFlags): ((r: RenderResult) => string) | undefined {
  const { format } = flags;
  if (format === undefined || format === "text") return undefined;
  if (!Object.hasOwn(RENDER_FORMATS, format)) {
    throw new UsageError(
      `--format: unknown format ${JSON.stringify(format)}; use text, anthropic or openai`,
    );
  }
  if (flags.json) throw new UsageError(`--format ${format} prints JSON already; leave out --json`);
  if (flags.section !== undefined) {
    throw new UsageError(
      `--format ${format} is for the whole prompt; leave out --section, or use --format text`,
    );
  }
  return RENDER_FORMATS[format];
}

/**
 * `sysprompt render`: the prompt on stdout, diagnostics on stderr. With
 * `--section NAME`, that section only, with only its diagnostics; when it is
 * not in the prompt, the reason (disabled, replaced, failed, rendered empty)
 * and exit 1, since stdout has nothing a script could use. An unknown name
 * is a usage error. With `-o FILE`, what would go to stdout is written to
 * FILE instead, only when its bytes change (so a watcher of it does not fire
 * for nothing), never through a link, and never over a file a prompt must not
 * replace (an agent's settings, a shell's start-up file: {@link namedOutput});
 * a refused path is exit 2, a failed write exit 1. `-o -` is stdout.
 */
export async function renderCommand(flags: RenderCommandFlags, io: CliIo): Promise<number> {
  const printer = formatPrinter(flags);
  if (flags.output === undefined || flags.output === "-") {
    // JSON goes through the escaping stdout (it keeps its meaning); the prompt itself goes out whole.
    const json = flags.json || printer !== undefined;
    return renderTo(flags, io, json ? io.stdout : (io.product ?? io.stdout), printer);
  }
  const home = io.home ?? homeFolder();
  const path = outputPath(flags.output, "--output", io, home);
  let text: string | undefined;
  const seen: Partial<Rendered> = {};
  const code = await renderTo(
    flags,
    io,
    (chunk) => {
      text = (text ?? "") + chunk;
    },
    printer,
    seen,
  );
  // Nothing to write (a section that is not in the prompt): the file is left as it is.
  if (text === undefined) return code;
  // JSON (`--json`, `--format`) may go to a `.json` file; the prompt itself only to a Markdown or text one.
  const json = flags.json === true || printer !== undefined;
  const out = await namedOutput(path, flags, io, home, "--output", true, json);
  refuseSettingsBlock(text, out.promptFolder, "--output", flags.output);
  if (!json && flags.section === undefined) refuseEmptyPrompt(text, "--output", flags.output);
  if (seen.options && seen.prepared) {
    await refuseRenderInput(
      seen.options,
      seen.prepared,
      out,
      flags.output,
      "--output",
      flags.force,
      io.stderr,
      io.passwd,
    );
  }
  try {
    // Into the project, no folder on the way from its root may be a link either.
    const outcome = await writeIfChanged(
      out.path,
      text,
      out.within === undefined ? {} : { within: out.within },
    );
    // One field: a path `y\nerror FAKE …` must not print a line of its own (rev60d F3).
    const shown = escapeInline(flags.output ?? "");
    io.stderr(`sysprompt: ${outcome === "written" ? "wrote" : "unchanged:"} ${shown}\n`);
  } catch (error) {
    throw writeError("--output", error);
  }
  return code;
}

/** A render's options and what it prepared: what `-o` is checked against ({@link refuseRenderInput}). */
interface Rendered {
  options: SystemPromptOptions;
  prepared: PreparedPrompt;
}

async function renderTo(
  flags: RenderCommandFlags,
  io: CliIo,
  stdout: (text: string) => void,
  printer?: (result: RenderResult) => string,
  seen: Partial<Rendered> = {},
): Promise<number> {
  const options = toRenderOptions(flags, io.cwd, io.env, io.home, io.machine);
  const prepared = await preparePrompt(options, runStep, "cli");
  seen.options = options;
  seen.prepared = prepared;
  const result = renderPrepared(prepared);
  if (flags.section === undefined) {
    if (printer) stdout(printer(result));
    else stdout(flags.json ? `${JSON.stringify(result, null, 2)}\n` : result.text);
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
  if (flags.json) stdout(`${JSON.stringify(section, null, 2)}\n`);
  else if (section) stdout(section.text);
  // Under --json a rendered section carries no diagnostics, as for the whole result.
  if (!flags.json || !section) io.stderr(formatDiagnostics(diagnostics));
  if (reason) io.stderr(`sysprompt: ${reason}\n`);
  if (!section) return EXIT_PROBLEMS;
  return exitCodeFor(diagnostics, flags.strict);
}
