/**
 * The hook's one line to say (stderr, the plugin's report): every warning of
 * a call, yours first (your rules, your AGENTS.md, the call's own cuts), then
 * the repository's, within {@link MAX_NOTE} characters, with a count of the
 * rest. Before, the first warning took the whole line: a repository's
 * `bogusKey: 1` hid every rewrite or cut of your text (review rev79h F1).
 */
import { resolve, sep } from "node:path";
import type { Diagnostic } from "../types.js";

/** Most characters of the note before the rest is counted. */
export const MAX_NOTE = 1000;

/**
 * The note for `diagnostics` (warnings and errors; infos are left out), or
 * none. `project`: the folders (cwd, the project's root) whose files are the
 * repository's: a warning of a path inside them comes after the others.
 */
export function noteOf(
  diagnostics: readonly Diagnostic[],
  project: readonly string[] = [],
): string | undefined {
  const inside = project.map((p) => resolve(p));
  const theirs = (d: Diagnostic) =>
    d.path !== undefined &&
    inside.some(
      (p) => d.path === p || (d.path as string).startsWith(p.endsWith(sep) ? p : p + sep),
    );
  const lines: string[] = [];
  const seen = new Set<string>();
  const problems = diagnostics.filter((d) => d.level !== "info");
  for (const d of [...problems.filter((x) => !theirs(x)), ...problems.filter(theirs)]) {
    const line = oneLine(d);
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  if (lines.length === 0) return undefined;
  let note = lines[0] as string;
  if (note.length > MAX_NOTE) note = `${note.slice(0, MAX_NOTE)}…`;
  let n = 1;
  for (; n < lines.length; n++) {
    const next = `${note} | ${lines[n]}`;
    if (next.length > MAX_NOTE) break;
    note = next;
  }
  const rest = lines.length - n;
  return rest > 0 ? `${note} | and ${rest} more warning${rest === 1 ? "" : "s"}` : note;
}

function oneLine(d: Diagnostic): string {
  const where =
    d.path === undefined ? "" : `${d.path}${d.line === undefined ? "" : `:${d.line}`}: `;
  return `${where}${d.message}`.replace(/[\r\n\u2028\u2029]+/g, " ");
}
