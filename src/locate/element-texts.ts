import type { Rule } from "../gather/rules/index.js";
import type { NormalizedOptions, SystemPromptOptions } from "../options.js";
import type { ExtraSection } from "../sections/render.js";
import type { LoadedLayer } from "./load-layer.js";

/**
 * The texts besides the section templates whose elements a repository's text
 * may not open or close (`wrapperNames`, src/_prompt-text.ts): every layer's
 * partials (a section of yours may wrap each context file in a partial's
 * `{{#xml "file"}}`), and your own texts: your SYSTEM.md or
 * SYSTEM_TEMPLATE.md, APPEND_SYSTEM.md and the prompts you give as options
 * (`<team_policy>…</team_policy>`) and your general-rules.md's lines; your AGENTS.md is added after
 * (`withElementNames`). A repository's text is not among them. A render
 * reads them, and so does a touch that no render came before (a hook).
 */
export function elementTexts(
  layers: readonly LoadedLayer[],
  opts: Pick<NormalizedOptions, "systemPrompt" | "appendSystemPrompt">,
  given: CallerTexts = {},
): string[] {
  const texts = layers.flatMap((l) => Object.values(l.partials));
  for (const l of layers) {
    if (l.layer === "project") continue;
    if (l.system) texts.push(l.system.text);
    if (l.append !== null) texts.push(l.append);
    // Your general-rules.md's lines, printed in the rules section as written (review rev48b F7).
    if (l.generalRules) texts.push(l.generalRules.rules.join("\n"));
  }
  if (opts.systemPrompt && opts.systemPrompt.repository !== true)
    texts.push(opts.systemPrompt.text);
  for (const part of opts.appendSystemPrompt) if (part.repository !== true) texts.push(part.text);
  // Your guidelines, tools' guidelines, docs and environment lines are printed as you wrote them
  // (rev53c F3: `--guideline '<deploy_policy>…'` gave no name, and a repository wrote it raw).
  for (const line of given.promptGuidelines ?? []) texts.push(line);
  for (const lines of Object.values(given.toolGuidelines ?? {}))
    for (const line of lines) texts.push(line);
  if (given.docs !== undefined) texts.push(given.docs);
  for (const entry of given.environment ?? []) texts.push(entry.label, entry.value);
  return texts;
}

/**
 * The options whose text the prompt prints as the caller wrote it, each read
 * by {@link elementTexts}: their elements are yours, and no repository text
 * may open or close them. The other options' texts are the caller's too but
 * printed as data (escaped: `agentName`, `model`, `tools`, `toolSnippets`),
 * read elsewhere (`sections`: {@link codeSections}; `vars`:
 * {@link ownPrintedTexts}), the repository's (`resolvedSystemPrompt`,
 * `resolvedAppendPrompt`), or never printed as text (paths, settings);
 * test/locate/element-texts.test.ts fails on an option of text not classified.
 */
export const RAW_TEXT_OPTIONS = [
  "systemPrompt",
  "appendSystemPrompt",
  "promptGuidelines",
  "toolGuidelines",
  "docs",
  "environment",
] as const;

/** The caller's options printed raw besides the two prompts ({@link RAW_TEXT_OPTIONS}). */
export type CallerTexts = Pick<
  SystemPromptOptions,
  "promptGuidelines" | "toolGuidelines" | "docs" | "environment"
>;

/**
 * Your own texts the prompt prints besides your context files, whose
 * elements a repository's text may not open or close either: your always
 * rules (the agent dir's `rules`, `user:` sources), which the prompt inlines,
 * and your glob rules, given on touch (before, only the always ones counted:
 * a nested AGENTS.md closed your glob rule's element raw, review rev48b F3),
 * and the values of your own `vars` (your sysprompt.yaml's, the caller's),
 * which a section of yours prints as they are (`<team_policy>…</team_policy>`).
 * A project's variables (`repositoryVars`) and rules are the repository's
 * text: they give no name. Read as your AGENTS.md is (`withElementNames`),
 * once over each text: the rules are held to their caps, the variables to
 * your config file's.
 */
export function ownPrintedTexts(
  rules: readonly Pick<Rule, "layer" | "activation" | "content">[],
  vars: Readonly<Record<string, unknown>> | undefined,
  repositoryVars: readonly string[],
): string[] {
  const texts = rules
    .filter((r) => r.layer === "user" && (r.activation === "always" || r.activation === "glob"))
    .map((r) => r.content);
  for (const value of Object.values(varsByWhose(vars, repositoryVars).own))
    if (typeof value === "string") texts.push(value);
  return texts;
}

/**
 * `vars` split by whose they are: your own (your sysprompt.yaml's, the
 * caller's) and a project's (`repositoryVars`, its sysprompt.yaml's). A
 * project's value naming the element of your `{{#xml @root.vars.tag}}` is
 * the project's name, not yours (review rev48b F8).
 */
export function varsByWhose(
  vars: Readonly<Record<string, unknown>> | undefined,
  repositoryVars: readonly string[],
): { own: Record<string, unknown>; project: Record<string, unknown> } {
  const theirs = new Set(repositoryVars);
  const own: Record<string, unknown> = {};
  const project: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(vars ?? {}))
    (theirs.has(name) ? project : own)[name] = value;
  return { own, project };
}

/**
 * The sections given from code (the `sections` option: a host's named
 * sections, pi's prompt sections from other extensions) as the templates
 * {@link wrapperNames} reads: each is placed in the element of its name (or
 * of the section it replaces, whose tag is among the layers' names), and its
 * text's own elements are yours as a section's are. Before, neither was a
 * name: a repository's AGENTS.md closed your `</deploy_policy>` and opened a
 * forged one before it, in the prompt and on touch (review rev47c F4).
 */
export function codeSections(
  extraSections: readonly ExtraSection[],
): { name: string; meta: { tag?: string | false }; body: string }[] {
  return extraSections.map((e) => ({ name: e.name, meta: {}, body: e.text }));
}
