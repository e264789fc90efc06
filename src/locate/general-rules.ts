import type { Diagnostic } from "../types.js";

// The format of a layer's `general-rules.md`, which replaces the builtin
// general rules (`prompts/rules.md`): read where the layer is loaded, and
// written by `eject rules`.

/**
 * The most rules a layer's `general-rules.md` gives: a real list has dozens, and the
 * project's file (1 MiB) could hold 260,000 lines, each a rule the prompt would print.
 */
export const MAX_GENERAL_RULES = 1000;

/**
 * A layer's `general-rules.md` (the format of `prompts/rules.md`): its rules,
 * and one warning at the first line that is neither a `- rule`, a `#`
 * comment nor blank (such lines are left out; the warning counts them).
 * Past {@link MAX_GENERAL_RULES} rules the file is not read further: a
 * `general-rules-cut` warning at the line where it stopped.
 */
export function parseRuleListFile(
  text: string,
  path: string,
): { rules: string[]; diagnostics: Diagnostic[]; ejectedFrom?: { hash: string; line: number } } {
  const rules: string[] = [];
  let first: number | undefined;
  let stray = 0;
  let cutAt: number | undefined;
  let ejectedFrom: { hash: string; line: number } | undefined;
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const record = EJECTED_FROM_COMMENT.exec(line)?.[1];
    if (record !== undefined) ejectedFrom ??= { hash: record, line: i + 1 };
    if (line === "" || line.startsWith("#")) continue;
    const rule = line.startsWith("- ") ? line.slice(2).trim() : "";
    if (rule !== "" && rules.length >= MAX_GENERAL_RULES) {
      cutAt = i + 1;
      break;
    }
    if (rule !== "") {
      rules.push(rule);
      continue;
    }
    stray++;
    first ??= i + 1;
  }
  const from = ejectedFrom ? { ejectedFrom } : {};
  const diagnostics: Diagnostic[] = [];
  if (first !== undefined) {
    const more = stray > 1 ? ` (and ${stray - 1} more such ${stray === 2 ? "line" : "lines"})` : "";
    diagnostics.push({
      level: "warning",
      code: "general-rules-line",
      message: `not a rule: each rule is one line starting with "- ", and # starts a comment; this line${more} is left out`,
      path,
      line: first,
    });
  }
  if (cutAt !== undefined) {
    diagnostics.push({
      level: "warning",
      code: "general-rules-cut",
      message: `more than ${MAX_GENERAL_RULES} general rules: the list is read up to here, this line and the rest of the file are left out`,
      path,
      line: cutAt,
    });
  }
  return { rules, diagnostics, ...from };
}

/**
 * The comment `eject` writes atop its copy of the general rules: the builtin
 * list it started from, so `check` can tell when that list has moved since.
 */
const EJECTED_FROM_COMMENT = /^#\s*ejected-from:\s*(sha256:[0-9a-f]{12})\b/;

/** That comment, for a copy of the builtin list whose {@link builtinHash} is `hash`. */
export function ejectedFromComment(hash: string): string {
  return `# ejected-from: ${hash} (the builtin list this copy started from; sysprompt check says when it changes)\n`;
}
