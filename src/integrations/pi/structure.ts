/**
 * sysprompt's rendered prompt as pi's structured prompt (pi 1.6.0,
 * `dist/core/system-prompt.js`), so that pi records the sections in its
 * session and, from one run to the next, sends a patch of only the sections
 * that changed instead of a new whole prompt.
 *
 * pi builds its prompt from `systemPromptOptions` as named sections, in a
 * fixed order, and joins them with a blank line: `preamble` (the custom
 * prompt, untagged; with one, pi adds no `tools`, `rules` or `docs` of its
 * own), then `addendum` (the appended prompt), `project_context` (when there
 * are context files), `skills` (when a skill is visible and `read` or `bash`
 * is selected), `cwd` (always), then the extensions' `sections` in the order
 * given; every one but the preamble is wrapped as `<name>\n…\n</name>`. An
 * extension section with the name of one of pi's replaces that one's text in
 * its place.
 *
 * So sysprompt's sections map onto that order: everything before `cwd` is the
 * custom prompt, less a tail of `addendum`, `project_context`, `skills` (in
 * that order) that pi's own places can hold; `cwd` is pi's; every section
 * after it is an extension section. The mapping is used only when pi's
 * rendering of it is byte for byte sysprompt's text (checked here with the same
 * rule); otherwise there is none and the caller returns the whole text.
 */
import type { RenderedSection, RenderResult } from "../../types.js";
import type { PiSystemPromptOptions } from "./types.js";

/** pi's section names (`SYSTEM_PROMPT_SECTION_NAME`), `preamble` being reserved. */
const PI_SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

/** pi's places before `cwd` that sysprompt's sections can fill, in pi's order. */
const PI_SLOTS = ["addendum", "project_context", "skills"] as const;

/** The fields of `systemPromptOptions` the structure sets; the rest (tools, cwd) stay pi's. */
export interface PiStructuredPrompt {
  customPrompt: string;
  appendSystemPrompt: string;
  contextFiles: { path: string; content: string }[];
  skills: NonNullable<PiSystemPromptOptions["skills"]>;
  sections: Record<string, string>;
}

/** Holds pi's `project_context` place; its text is replaced by sysprompt's section. */
const CONTEXT_PLACEHOLDER = { path: "sysprompt", content: "sysprompt" };
/** Holds pi's `skills` place; its text is replaced by sysprompt's section. */
const SKILL_PLACEHOLDER = {
  name: "sysprompt",
  description: "sysprompt",
  filePath: "sysprompt",
  disableModelInvocation: false,
};

/**
 * The structure whose rendering by pi is `result.text`, for pi's options
 * `prompt` (its cwd and tools); undefined when there is none.
 */
export function piStructure(
  result: Pick<RenderResult, "text" | "sections">,
  prompt: Pick<PiSystemPromptOptions, "cwd" | "selectedTools" | "hiddenTools">,
): PiStructuredPrompt | undefined {
  const all = result.sections.filter((s) => s.text !== "");
  const at = all.findIndex((s) => s.name === "cwd");
  if (at < 1) return undefined;
  const head = all.slice(0, at);
  const slots: [string, string][] = [];
  for (const slot of [...PI_SLOTS].reverse()) {
    const last = head[head.length - 1];
    if (head.length < 2 || last?.name !== slot || (slot === "skills" && !readsSkills(prompt))) {
      continue;
    }
    const text = inner(last);
    if (text === undefined) continue;
    slots.unshift([slot, text]);
    head.pop();
  }
  const sections: Record<string, string> = Object.fromEntries(slots);
  for (const section of all.slice(at)) {
    const text = inner(section);
    if (text === undefined || section.name === "preamble") return undefined;
    sections[section.name] = text;
  }
  const structure: PiStructuredPrompt = {
    customPrompt: head.map((s) => s.text).join("\n\n"),
    appendSystemPrompt: sections.addendum ?? "",
    contextFiles: sections.project_context !== undefined ? [CONTEXT_PLACEHOLDER] : [],
    skills: slots.some(([name]) => name === "skills") ? [SKILL_PLACEHOLDER] : [],
    sections,
  };
  return piPromptText(structure, prompt) === result.text ? structure : undefined;
}

/** Sets the structure on pi's options in place (pi reads them back after the handlers). */
export function applyPiStructure(target: PiSystemPromptOptions, structure: PiStructuredPrompt) {
  target.customPrompt = structure.customPrompt;
  target.appendSystemPrompt = structure.appendSystemPrompt;
  target.contextFiles = structure.contextFiles;
  target.skills = structure.skills;
  const sections = target.sections ?? {};
  for (const name of Object.keys(sections)) delete sections[name];
  Object.assign(sections, structure.sections);
  target.sections = sections;
}

/**
 * The text pi 1.6.0 sends for a structure (`buildSystemPromptSections`, then
 * `getSystemMessageText`), as far as a structure from {@link piStructure}
 * reaches: a custom prompt is set, so pi's own tools, rules and docs are not.
 */
export function piPromptText(
  structure: PiStructuredPrompt,
  prompt: Pick<PiSystemPromptOptions, "cwd" | "selectedTools" | "hiddenTools">,
): string {
  const own: [string, string][] = [];
  if (structure.appendSystemPrompt) own.push(["addendum", structure.appendSystemPrompt]);
  if (structure.contextFiles.length > 0) own.push(["project_context", "(pi's context files)"]);
  if (structure.skills.length > 0 && readsSkills(prompt)) own.push(["skills", "(pi's skills)"]);
  own.push(["cwd", prompt.cwd.replace(/\\/g, "/")]);
  const placed = new Map(own);
  for (const [name, text] of Object.entries(structure.sections)) {
    if (!PI_SECTION_NAME.test(name) || name === "preamble") return "";
    if (text) placed.set(name, text);
  }
  const parts = [structure.customPrompt];
  for (const [name, text] of placed) parts.push(`<${name}>\n${text}\n</${name}>`);
  return parts.filter((p) => p.length > 0).join("\n\n");
}

/** Whether pi gives skills a place: `read` or `bash` selected (pi 1.6.0's readers). */
function readsSkills(prompt: Pick<PiSystemPromptOptions, "selectedTools">): boolean {
  const selected = prompt.selectedTools ?? ["read", "bash", "edit", "write"];
  return selected.includes("read") || selected.includes("bash");
}

/** A section's text inside its own element (`<name>\n…\n</name>`), when it is one and not empty. */
function inner(section: RenderedSection): string | undefined {
  const open = `<${section.name}>\n`;
  const close = `\n</${section.name}>`;
  const { text } = section;
  if (!text.startsWith(open) || !text.endsWith(close) || text.length <= open.length + close.length)
    return undefined;
  return text.slice(open.length, text.length - close.length);
}
