import { CONFIG_FILE_NAME } from "../config/types.js";

/** The file of a user or project layer that replaces the builtin `rules.md`: the general rules. */
export const GENERAL_RULES_FILE = "general-rules.md";

/** The folders a user or project layer folder is read for, spelled as they are read. */
export const LAYER_FOLDERS = ["sections", "partials", "prompts", "skills"] as const;

/** The files a layer folder is read for, when it may replace or extend the base prompt. */
export const CUSTOM_FILES = [
  "SYSTEM.md",
  "SYSTEM_TEMPLATE.md",
  "APPEND_SYSTEM.md",
  GENERAL_RULES_FILE,
] as const;

/** Where {@link layerFileOf} found a path: its names from the layer folder on, and the folder holding that. */
export interface LayerFilePlace {
  /** The path from the layer folder on, with `/`, as written (`.pi/SYSTEM.md`). */
  rel: string;
  /** How many of the path's names make the folder the layer folder lies in. */
  folderNames: number;
}

/**
 * Whether a path, read from any of its folders, is a file a project layer folder (`layer`, `.pi`)
 * is read for: one of {@link CUSTOM_FILES} or its `sysprompt.yaml` at its top, or anything below
 * one of {@link LAYER_FOLDERS} (section files and their per-model variants, partials, prompt
 * templates, skills); names compared by `key` (without case). The layer's `rules/` is a rule
 * format's place (`ruleLocationOf`). Outermost folder first. Used by `-o`/`--out`'s refusal of
 * another project's layer file (decided, fixer fx99e's finding).
 */
export function layerFileOf(
  names: readonly string[],
  key: (name: string) => string,
  layer: string,
): LayerFilePlace | undefined {
  const files = new Set([...CUSTOM_FILES, CONFIG_FILE_NAME].map(key));
  const folders = new Set<string>(LAYER_FOLDERS.map(key));
  const top = key(layer);
  for (let at = 0; at + 1 < names.length; at++) {
    if (key(names[at] ?? "") !== top) continue;
    const first = key(names[at + 1] ?? "");
    const rest = names.length - at - 1;
    if ((rest === 1 && files.has(first)) || (rest > 1 && folders.has(first))) {
      return { rel: names.slice(at).join("/"), folderNames: at };
    }
  }
  return undefined;
}
