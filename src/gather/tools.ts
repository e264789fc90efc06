import type { ToolSnippet } from "../data.js";

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
 * The selected tools that have a one-line description, in selection order.
 * Caller snippets replace builtin ones; a blank caller snippet hides the tool.
 */
export function buildToolSnippets(
  tools: readonly string[],
  builtin: Readonly<Record<string, string>>,
  caller: Readonly<Record<string, string>> = {},
): ToolSnippet[] {
  const seen = new Set<string>();
  const out: ToolSnippet[] = [];
  for (const name of tools) {
    if (seen.has(name)) continue;
    seen.add(name);
    // Own keys only: a tool named "constructor" must not find Object.prototype's.
    const raw = Object.hasOwn(caller, name)
      ? caller[name]
      : Object.hasOwn(builtin, name)
        ? builtin[name]
        : undefined;
    const description = raw?.trim();
    if (description) out.push({ name, description });
  }
  return out;
}
