import type { Diagnostic } from "../types.js";
import { ARGUMENT_WHITESPACE, parseCommandArgs } from "./args.js";
import { MAX_EXPANDED_CHARS, substituteArgs } from "./substitute.js";
import type { PromptTemplate } from "./types.js";

/** A slash command split into its name and the raw text of its arguments. */
export interface SlashCommand {
  name: string;
  /** Everything after the whitespace that ends the name (newlines included). */
  argsText: string;
}

/**
 * Splits `/name args…` into name and argument text; `undefined` unless `text`
 * starts with `/` directly followed by a name.
 */
export function splitSlashCommand(text: string): SlashCommand | undefined {
  if (!text.startsWith("/")) return undefined;
  let end = 1;
  while (end < text.length && !ARGUMENT_WHITESPACE.test(text.charAt(end))) end++;
  if (end === 1) return undefined;
  return { name: text.slice(1, end), argsText: text.slice(end + 1) };
}

/**
 * Expands `/name args…` with the template called `name`: the arguments are
 * parsed with {@link parseCommandArgs} and substituted into its content with
 * {@link substituteArgs}. Any other text, and an unknown name, comes back
 * unchanged; so does a command whose expansion would pass
 * {@link MAX_EXPANDED_CHARS} ({@link expandPromptTemplateResult} says so).
 */
export function expandPromptTemplate(
  text: string,
  templates: readonly Pick<PromptTemplate, "name" | "content">[],
): string {
  return expandPromptTemplateResult(text, templates).text;
}

/**
 * {@link expandPromptTemplate} with what went wrong: an expansion longer
 * than `maxChars` (default {@link MAX_EXPANDED_CHARS}) is not made; the text
 * comes back as typed, with an `expansion-too-large` error naming the
 * template's file.
 */
export function expandPromptTemplateResult(
  text: string,
  templates: readonly (Pick<PromptTemplate, "name" | "content"> & { filePath?: string })[],
  maxChars: number = MAX_EXPANDED_CHARS,
): { text: string; diagnostics: Diagnostic[] } {
  const command = splitSlashCommand(text);
  if (!command) return { text, diagnostics: [] };
  const template = templates.find((candidate) => candidate.name === command.name);
  if (!template) return { text, diagnostics: [] };
  const expanded = substituteArgs(template.content, parseCommandArgs(command.argsText), maxChars);
  if (expanded !== undefined) return { text: expanded, diagnostics: [] };
  return {
    text,
    diagnostics: [
      {
        level: "error",
        code: "expansion-too-large",
        message: `/${command.name} expands to more than ${maxChars} characters (its placeholders times the arguments); left unexpanded, shorten the arguments or the template`,
        ...(template.filePath !== undefined ? { path: template.filePath } : {}),
      },
    ],
  };
}
