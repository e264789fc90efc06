import { isAbsolute, join, relative } from "node:path";
import { builtinSectionNames, ejectSections } from "../../author/eject.js";
import type { EjectOptions } from "../../author/types.js";
import { builtinPromptsDir } from "../../locate/layers.js";
import { paletteFor } from "../colors.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_OK, EXIT_PROBLEMS, UsageError } from "../io.js";
import { flagPaths } from "../options.js";

export interface EjectFlags {
  all?: boolean;
  cwd?: string;
  user?: boolean;
  agentDir?: string;
  force?: boolean;
  json?: boolean;
}

/**
 * `sysprompt eject NAME…|--all`: copies builtin sections for editing and says
 * what it wrote. Exit 1 when a file existed and was left alone (no --force).
 */
export async function ejectCommand(names: string[], flags: EjectFlags, io: CliIo): Promise<number> {
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
  const code = result.skipped.length > 0 ? EXIT_PROBLEMS : EXIT_OK;
  if (flags.json) {
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return code;
  }
  const paint = paletteFor(io);
  // Paths under the working directory are shown relative to it, as typed.
  const show = (path: string) => {
    const rel = relative(cwd, path);
    return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
  };
  for (const file of result.written) io.stdout(`${paint.green("wrote")} ${show(file.path)}\n`);
  for (const file of result.skipped) {
    io.stdout(`${paint.yellow("exists")} ${show(file.path)} (left alone; --force replaces it)\n`);
  }
  io.stderr(formatDiagnostics(result.diagnostics, paint.level));
  return code;
}
