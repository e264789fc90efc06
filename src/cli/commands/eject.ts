import { dirname, join, relative } from "node:path";
import { leavesFolder } from "../../_paths.js";
import type { EjectOptions } from "../../author/index.js";
import { builtinSectionNames, ejectSections, GENERAL_RULES } from "../../author/index.js";
import { builtinPromptsDir } from "../../locate/layers.js";
import { paletteFor } from "../colors.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_OK, EXIT_PROBLEMS, UsageError } from "../io.js";
import { flagPaths } from "../options.js";
import type { EjectFlags } from "./eject-diff.js";

/**
 * `sysprompt eject NAME…|--all`: copies builtin sections for editing and says
 * what it wrote. All or nothing: exit 1, with nothing written, when a file
 * existed (no --force) or a target is refused (a link, or not a file).
 */
export async function ejectCommand(names: string[], flags: EjectFlags, io: CliIo): Promise<number> {
  if (flags.diff) {
    const { ejectDiffCommand } = await import("./eject-diff.js");
    return ejectDiffCommand(names, flags, io);
  }
  const named = names.length > 0;
  if (named === (flags.all === true)) {
    const known = await builtinSectionNames(join(builtinPromptsDir(), "sections"));
    throw new UsageError(
      `${named ? "give section names or --all, not both" : "name the sections to copy, or pass --all"}; the builtin sections are: ${known.join(", ")}`,
    );
  }
  const paths = flagPaths(flags, io.cwd, io.home);
  const cwd = paths.cwd;
  const options: EjectOptions = { ...paths, env: io.env, names };
  if (io.home !== undefined) options.home = io.home;
  if (flags.all) options.all = true;
  if (flags.user) options.user = true;
  if (flags.force) options.force = true;
  const result = await ejectSections(options);
  const refused = result.diagnostics.some((d) => d.level === "error");
  const code = result.skipped.length > 0 || refused ? EXIT_PROBLEMS : EXIT_OK;
  if (flags.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return code;
  }
  const paint = paletteFor(io);
  // Paths under the working directory are shown relative to it, as typed.
  const show = (path: string) => {
    const rel = relative(cwd, path);
    return leavesFolder(rel) ? path : rel;
  };
  for (const file of result.written) {
    io.stdout(`${paint.green("wrote")} ${show(file.path)}${variantNote(file.name)}\n`);
  }
  const [first] = result.written;
  if (first !== undefined) {
    const one = result.written.length === 1;
    io.stdout(
      `${paint.green("kept")} the builtin ${one ? "text" : "texts"} in ${show(dirname(first.base))}/ (commit ${one ? "it" : "them"} with the ${one ? "copy" : "copies"}; \`sysprompt check\` then says when a builtin changes, \`sysprompt eject --diff NAME\` shows how)\n`,
    );
  }
  if (result.written.some((f) => f.name === "tools")) io.stdout(`${TOOLS_NOTE}\n`);
  for (const file of result.skipped) {
    io.stdout(`${paint.yellow("exists")} ${show(file.path)} (left alone; --force replaces it)\n`);
  }
  io.stderr(formatDiagnostics(result.diagnostics, paint.level));
  if (result.written.length === 0 && refused) {
    io.stderr(
      "sysprompt: nothing was written: fix the files above first (a project's files are written only as regular files in real folders, never through a link)\n",
    );
  } else if (result.written.length === 0 && result.skipped.length > 0) {
    io.stderr(
      `sysprompt: nothing was written: a section and its variants are copied together or not at all; pass --force to replace the ${result.skipped.length === 1 ? "file" : "files"} above, or leave ${result.skipped.length === 1 ? "its section" : "their sections"} out\n`,
    );
  }
  return code;
}

/** Where the tool descriptions are, since the tools section only lists them. */
const TOOLS_NOTE =
  "note: the tools section lists each tool's one-line description, which is data: re-describe a tool with --tool name=text (toolSnippets), or in a layer folder with a tools: map in agents/pi.yaml (agents/<agent>.yaml under --agent), which also sets the default tool selection";

/** What a copied per-model variant (`rules@small`) or the general rules' list is, and why it came along. */
function variantNote(name: string): string {
  if (name === GENERAL_RULES) {
    return ' (the general rules the rules section lists, one "- " line each: edit, remove or add one; this file replaces the builtin list, and rules@small.md words them its own way for small models)';
  }
  const at = name.indexOf("@");
  if (at < 0) return "";
  const of = name.slice(0, at);
  return ` (a per-model variant of ${of}, copied with it: a copy of ${of} alone would serve every model)`;
}
