import type { Diagnostic } from "../types.js";

// The format of a layer's `general-rules.md`, which replaces the builtin
// general rules (`prompts/rules.md`): read where the layer is loaded, and
// written by `eject rules`.

/**
 * A layer's `general-rules.md` (the format of `prompts/rules.md`): its rules,
 * and one warning at the first line that is neither a `- rule`, a `#`
 * comment nor blank (such lines are left out; the warning counts them).
 */
export function parseRuleListFile(
  text: string,
  path: string,
): { rules: string[]; diagnostics: Diagnostic[]; ejectedFrom?: { hash: string; line: number } } {
  const rules: string[] = [];
  let first: number | undefined;
  let stray = 0;
  let ejectedFrom: { hash: string; line: number } | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    const record = EJECTED_FROM_COMMENT.exec(line)?.[1];
    if (record !== undefined) ejectedFrom ??= { hash: record, line: i + 1 };
    if (line === "" || line.startsWith("#")) return;
    const rule = line.startsWith("- ") ? line.slice(2).trim() : "";
    if (rule !== "") {
      rules.push(rule);
      return;
    }
    stray++;
    first ??= i + 1;
  });
  const from = ejectedFrom ? { ejectedFrom } : {};
  if (first === undefined) return { rules, diagnostics: [], ...from };
  const more = stray > 1 ? ` (and ${stray - 1} more such ${stray === 2 ? "line" : "lines"})` : "";
  const diagnostics: Diagnostic[] = [
    {
      level: "warning",
      code: "general-rules-line",
      message: `not a rule: each rule is one line starting with "- ", and # starts a comment; this line${more} is left out`,
      path,
      line: first,
    },
  ];
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
