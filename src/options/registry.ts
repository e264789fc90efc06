// Every render option, declared once: its type and check, default, CLI flag,
// sysprompt.yaml key, scenario key, whether a prompt session fixes it, and its
// one-line doc. The API's checks, the flags, the config keys, the scenario keys
// and docs/options.md are all derived from this table.

import { AGENT_OPTIONS } from "./registry/agent.js";
import { CONFIG_OPTIONS } from "./registry/config.js";
import { CONTEXT_OPTIONS } from "./registry/context.js";
import { GIVEN_TEXT_OPTIONS } from "./registry/given-text.js";
import { MACHINE_OPTIONS } from "./registry/machine.js";
import { PROJECT_OPTIONS } from "./registry/project.js";
import { RENDER_OPTIONS } from "./registry/render.js";
import { RULES_SKILLS_OPTIONS } from "./registry/rules-skills.js";
import { TOOL_OPTIONS } from "./registry/tools.js";
import { WORKSPACE_OPTIONS } from "./registry/workspace.js";
import type { OptionSpec } from "./spec.js";

export type { PreloadedSkill } from "./registry/rules-skills.js";

/**
 * The options, in the order the docs and "the options are" list them. A key
 * here is an option of `renderSystemPrompt`; the doc comment on its entry (in
 * `registry/`, one file per subject) is its API doc.
 */
export const OPTIONS: Options = {
  ...PROJECT_OPTIONS,
  ...AGENT_OPTIONS,
  ...CONFIG_OPTIONS,
  ...TOOL_OPTIONS,
  ...GIVEN_TEXT_OPTIONS,
  ...CONTEXT_OPTIONS,
  ...WORKSPACE_OPTIONS,
  ...RULES_SKILLS_OPTIONS,
  ...MACHINE_OPTIONS,
  ...RENDER_OPTIONS,
};

// Named, not inferred: the declaration file then points each option at its
// entry in registry/, whose doc comment is the API doc of its field.
type Options = typeof PROJECT_OPTIONS &
  typeof AGENT_OPTIONS &
  typeof CONFIG_OPTIONS &
  typeof TOOL_OPTIONS &
  typeof GIVEN_TEXT_OPTIONS &
  typeof CONTEXT_OPTIONS &
  typeof WORKSPACE_OPTIONS &
  typeof RULES_SKILLS_OPTIONS &
  typeof MACHINE_OPTIONS &
  typeof RENDER_OPTIONS;
type TypeOf<S> = S extends OptionSpec<infer T> ? T : never;

/** Options of `renderSystemPrompt`. Every field is optional; defaults are documented per field. */
export type SystemPromptOptions = { -readonly [K in keyof Options]?: TypeOf<Options[K]> };

/** The name of an option. */
export type OptionName = keyof Options;

/** The options a prompt session fixes when it is created. */
export type SessionFixedOption = {
  [K in OptionName]: Options[K] extends { session: "fixed" } ? K : never;
}[OptionName];

/** A scenario's key for each option a scenario may set (`mtime` for `treeMtime`). */
export type ScenarioKeyOf = {
  [K in OptionName as Options[K] extends { scenario: string } ? Options[K]["scenario"] : never]: K;
};

/** Every option's spec, in order, typed loosely for the code that walks them. */
export const OPTION_SPECS = Object.entries(OPTIONS) as [OptionName, OptionSpec<unknown>][];
