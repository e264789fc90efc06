import { relative } from "node:path";
import { leavesFolder, notHomeLike, toPosix } from "../../_paths.js";
import { terminalName } from "../../_text.js";

/**
 * A path under the working directory relative to it, as typed; any other
 * absolute; on one line, its leading, trailing and runs of spaces written
 * `\u0020` ({@link escapeSpacing}): the reports list paths in indented
 * two-space columns.
 */
export function showPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  // One line: a repository's file named `x\nerror FAKE …` must not print a line of its own.
  // `~/AGENTS.md` of a folder named `~` would read as the home's: `./~/AGENTS.md`.
  const shown = rel === "" || leavesFolder(rel) ? path : notHomeLike(rel);
  // Raw: its literal `\u` marked once, here (terminalName, rev101e F4).
  return terminalName(toPosix(shown));
}
