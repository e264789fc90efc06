import { hasVisible } from "../_text.js";
import type { Diagnostic, RenderedSection } from "../types.js";

/** The code of the diagnostic for a prompt with no section in it. */
export const EMPTY_PROMPT = "prompt-empty";

/**
 * An error when no section made it into the prompt (every one disabled,
 * replaced or rendered empty, or to no character that shows: {@link hasVisible}): the model would get an empty system prompt,
 * which no file or option meant, so `--strict` and `check` fail on it.
 */
export function emptyPromptDiagnostics(sections: readonly RenderedSection[]): Diagnostic[] {
  if (sections.some((s) => hasVisible(s.text))) return [];
  return [
    {
      level: "error",
      code: EMPTY_PROMPT,
      message:
        "the prompt is empty: every section is disabled, replaced or rendered empty; `sysprompt sections` shows the status of each",
    },
  ];
}
