import type { Diagnostic } from "../../types.js";
import { listItems, splitParagraphs } from "../_markdown.js";
import { LineBudget } from "../_paragraphs.js";
import { isTool, toolEntry } from "./tools.js";

/**
 * Added when a shell is the only way to search: without it models tend to
 * guess paths instead of looking.
 */
export const SHELL_SEARCH_RULE =
  "Use the shell to explore the project (rg or grep to search, find and ls to list), since no dedicated search tools are selected.";

// Other agents' names for the same tools (the presets in prompts/agents/): Codex's
// `shell` and `exec_command`, Gemini CLI's `run_shell_command`; Claude Code's Glob, Gemini CLI's
// grep_search and list_directory, opencode's glob and list.
const SHELLS = ["bash", "powershell", "shell", "run_shell_command", "exec_command"];
const SEARCH_TOOLS = ["grep", "find", "ls", "glob", "grep_search", "list_directory", "list"];

export interface RuleInputs {
  tools: readonly string[];
  /** Guidelines declared per tool; only selected tools' guidelines apply. */
  toolGuidelines?: Readonly<Record<string, readonly string[]>>;
  /** The caller's own guidelines. */
  promptGuidelines?: readonly string[];
  /** Our general rules (`prompts/rules.md`). */
  generalRules?: readonly string[];
}

/**
 * Builds the rules list: the shell rule when it applies, each selected tool's
 * guidelines (in selection order), the caller's guidelines, then the general
 * rules. Each is trimmed, blanks dropped, duplicates dropped keeping the first.
 */
export function buildRules(input: RuleInputs): string[] {
  const candidates: string[] = [];
  const hasShell = input.tools.some((t) => SHELLS.some((shell) => isTool(t, shell)));
  const hasSearch = input.tools.some((t) => SEARCH_TOOLS.some((search) => isTool(t, search)));
  if (hasShell && !hasSearch) candidates.push(SHELL_SEARCH_RULE);
  for (const tool of input.tools) {
    const guidelines = toolEntry(input.toolGuidelines ?? {}, tool);
    if (guidelines) candidates.push(...guidelines);
  }
  candidates.push(...(input.promptGuidelines ?? []), ...(input.generalRules ?? []));
  const seen = new Set<string>();
  const rules: string[] = [];
  for (const raw of candidates) {
    const rule = typeof raw === "string" ? raw.trim() : "";
    if (rule === "" || seen.has(rule)) continue;
    seen.add(rule);
    rules.push(rule);
  }
  return rules;
}

/** Parses a `- rule` list (the format of `prompts/rules.md`); `#` lines are comments. */
export function parseRuleList(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2).trim());
}

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

/** Whitespace runs as one space, ends trimmed: how a rule and a stated line are compared. */
function normalizeRule(text: string): string {
  return text
    .split(/\s+/)
    .filter((w) => w !== "")
    .join(" ");
}

/** The paragraphs and list items of some texts, normalised: what {@link dropStatedRules} compares with. */
export type StatedText = ReadonlySet<string>;

/**
 * The paragraphs and list items of `texts` (the custom base prompt, the
 * appended text, each context file), each normalised once. Build it once per
 * render and give it to every {@link dropStatedRules} call: the texts may be
 * megabytes, the rules are a few lines.
 */
export function statedText(texts: readonly (string | null | undefined)[]): StatedText {
  const stated = new Set<string>();
  // As dedupe: past the budget, a builtin rule the texts also state is kept (a repeat, no loss).
  const budget = new LineBudget();
  for (const text of texts) {
    if (!text || !budget.take(text)) continue;
    for (const item of splitParagraphs(text)) stated.add(normalizeRule(item));
    for (const item of listItems(text)) stated.add(normalizeRule(item));
  }
  return stated;
}

/**
 * Leaves out the rules that the prompt already states elsewhere: a rule equal
 * (whitespace aside) to a whole paragraph or a list item of one of `texts`
 * (the custom base prompt, the appended text, each context file) is not
 * repeated in `rules`. Order is kept. `texts` may be a {@link statedText}
 * made once for several calls.
 */
export function dropStatedRules(
  rules: readonly string[],
  texts: readonly (string | null | undefined)[] | StatedText,
): string[] {
  const stated =
    texts instanceof Set
      ? (texts as StatedText)
      : statedText(texts as readonly (string | null | undefined)[]);
  return rules.filter((rule) => !stated.has(normalizeRule(rule)));
}
