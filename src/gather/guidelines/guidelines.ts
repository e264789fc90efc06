import { pushAll } from "../../_arrays.js";
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
    if (guidelines) pushAll(candidates, guidelines);
  }
  pushAll(candidates, input.promptGuidelines ?? [], input.generalRules ?? []);
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
