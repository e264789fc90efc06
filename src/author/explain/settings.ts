// The settings account of explain: each option a user sets (by a flag or a
// sysprompt.yaml key) that is not at its default, with its value and origin.
import { cleanLine } from "../../_text.js";
import type { OptionProvenance } from "../../config/index.js";
import { OPTION_SPECS, type OptionName } from "../../options/registry.js";
import type { SystemPromptOptions } from "../../options.js";
import type { OptionOrigin } from "../../resolve-options.js";
import type { ExplainedSetting } from "../types.js";

/** A value longer than this (a prompt's text given as `systemPrompt`) is cut with "…". */
const MAX_VALUE_LENGTH = 80;

/**
 * The settings not at their default, in the registry's order, each variable
 * of `vars` on its own (`vars.team`, by name). Only options with a flag or a
 * config key: the others (`env`, `home`, `machine`…) are the caller's wiring,
 * not settings, and may hold what should not be printed.
 */
export function explainSettings(
  options: SystemPromptOptions,
  origins: Record<OptionName, OptionOrigin>,
  provenance: OptionProvenance,
): ExplainedSetting[] {
  const out: ExplainedSetting[] = [];
  for (const [name, spec] of OPTION_SPECS) {
    const origin = origins[name];
    const value = options[name];
    if (origin.source === "default" || value === undefined) continue;
    if (spec.flag === undefined && spec.config === undefined) continue;
    const key = spec.config?.key ?? name;
    if (name === "vars") {
      for (const [variable, text] of Object.entries(value as Record<string, string>)) {
        const from = provenance[`vars.${variable}`] ?? "option";
        out.push(setting(name, `vars.${variable}`, text, originOf(from, origin)));
      }
      continue;
    }
    out.push(setting(name, key, value, origin));
  }
  return out;
}

function setting(
  option: OptionName,
  key: string,
  value: unknown,
  origin: OptionOrigin,
): ExplainedSetting {
  return { option, key, value: valueText(value), ...origin };
}

/** A variable's origin: the file that set it, else whoever gave the options. */
function originOf(from: string, given: OptionOrigin): OptionOrigin {
  return from === "option" ? { source: given.source } : { source: "config", at: from };
}

/** One line: a list joined with commas, a record by its names, a time in ISO form. */
function valueText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(valueText).join(",");
  if (typeof value === "object" && value !== null) return Object.keys(value).sort().join(",");
  return cleanLine(String(value), MAX_VALUE_LENGTH);
}
