import type { ToolSnippet } from "../../data.js";
import type { SkillsTool } from "../../skills/index.js";
import type { Diagnostic } from "../../types.js";

/** Tools selected when the caller names none. */
export const DEFAULT_TOOLS: readonly string[] = ["read", "bash", "edit", "write"];

const LIST_ITEM = /^- ([A-Za-z0-9_.:-]+): (.+)$/;

/**
 * Parses a `- name: description` list (the format of `prompts/tools.md`).
 * Lines that are blank or start with `#` are comments.
 */
export function parseToolDescriptions(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = LIST_ITEM.exec(line.trim());
    if (m?.[1] && m[2]) out[m[1]] = m[2].trim();
  }
  return out;
}

/**
 * The entry of `record` for tool `name`: its own key spelled as given, else
 * the first own key that differs only in case. Other agents name the same
 * tools differently (Claude Code's `Read`, `Bash`, `Edit` are `read`, `bash`,
 * `edit` here), so a tool is found whatever its case; own keys only, so a tool
 * named "constructor" never finds Object.prototype's.
 */
export function toolEntry<T>(record: Readonly<Record<string, T>>, name: string): T | undefined {
  if (Object.hasOwn(record, name)) return record[name];
  const lower = name.toLowerCase();
  for (const key of Object.keys(record)) if (key.toLowerCase() === lower) return record[key];
  return undefined;
}

/** True when `name` is the tool `builtin` (lower case) in any case: `Bash` is `bash`. */
export function isTool(name: string, builtin: string): boolean {
  return name.toLowerCase() === builtin;
}

/**
 * Picks the tool the model should use to load skills from the selected tool
 * names (in any case): `read` if present, else `bash`, else `null` (the skills section is
 * then left out, since the model could not open the files).
 */
export function selectSkillsTool(tools: readonly string[]): SkillsTool | null {
  const has = (tool: string) => tools.some((t) => isTool(t, tool));
  if (has("read")) return "read";
  if (has("bash")) return "bash";
  return null;
}

/**
 * The selected tools that have a one-line description, in selection order,
 * each under the caller's spelling. Caller snippets replace builtin ones; a
 * blank caller snippet hides the tool. A tool named twice (in any case) is
 * listed once, as first spelled.
 */
export function buildToolSnippets(
  tools: readonly string[],
  builtin: Readonly<Record<string, string>>,
  caller: Readonly<Record<string, string>> = {},
): ToolSnippet[] {
  const seen = new Set<string>();
  const out: ToolSnippet[] = [];
  for (const name of tools) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    const raw = toolEntry(caller, name) ?? toolEntry(builtin, name);
    const description = raw?.trim();
    if (description) out.push({ name, description });
  }
  return out;
}

/**
 * Selected tools that nothing describes (not the builtin tools.md, not
 * `toolSnippets`): most likely a typo, and the tools section cannot say what
 * they do, so the caller hears about it.
 */
export function unknownToolDiagnostics(
  tools: readonly string[],
  builtin: Readonly<Record<string, string>>,
  snippets: Readonly<Record<string, string>> = {},
): Diagnostic[] {
  return [...new Set(tools)]
    .filter(
      (name) => toolEntry(builtin, name) === undefined && toolEntry(snippets, name) === undefined,
    )
    .map((name) => ({
      level: "info",
      code: "tool-unknown",
      message: `tool "${name}" has no description (none in tools.md or toolSnippets), so the tools section cannot say what it does; check the spelling, or describe it (--tool ${name}=text, toolSnippets)`,
    }));
}
