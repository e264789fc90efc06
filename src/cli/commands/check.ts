import type { CheckOptions, CheckReport } from "../../author/index.js";
import { checkProject } from "../../author/index.js";
import { paletteFor } from "../colors.js";
import { formatDiagnostics } from "../format.js";
import { type CliIo, EXIT_OK, EXIT_PROBLEMS } from "../io.js";
import { flagPaths } from "../options.js";

export interface CheckFlags {
  cwd?: string;
  agentDir?: string;
  untrusted?: boolean;
  strict?: boolean;
  json?: boolean;
}

/**
 * `sysprompt check`: every problem as `level path:line:col [code] message`,
 * then one summary line. Exit 1 on an error, or on a warning with --strict.
 */
export async function checkCommand(flags: CheckFlags, io: CliIo): Promise<number> {
  const paths = flagPaths(flags, io.cwd, io.home);
  const options: CheckOptions = { ...paths, env: io.env };
  if (io.home !== undefined) options.home = io.home;
  if (flags.untrusted) options.projectTrusted = false;
  const report = await checkProject(options);
  const strict = flags.strict === true;
  const ok = report.counts.error === 0 && !(strict && report.counts.warning > 0);
  if (flags.json) {
    io.stdout(`${JSON.stringify({ ok, strict, ...report }, null, 2)}\n`);
  } else {
    const paint = paletteFor(io);
    io.stdout(formatDiagnostics(report.diagnostics, paint.level));
    const summary = summarize(report, strict);
    const color = !ok ? paint.red : report.diagnostics.length > 0 ? paint.yellow : paint.green;
    io.stdout(`${color(summary)}\n`);
  }
  return ok ? EXIT_OK : EXIT_PROBLEMS;
}

function summarize(report: CheckReport, strict: boolean): string {
  const { error, warning, info } = report.counts;
  const checked = [
    count(report.templates.length, "template"),
    count(report.dataCases, "data case"),
    count(report.skills, "skill"),
    count(report.promptTemplates, "prompt template"),
  ].join(", ");
  const found =
    error + warning + info === 0
      ? "no problems"
      : [count(error, "error"), count(warning, "warning"), `${info} info`].join(", ");
  const strictNote = strict && error === 0 && warning > 0 ? " (--strict: warnings fail)" : "";
  return `sysprompt check: ${checked}: ${found}${strictNote}`;
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}
