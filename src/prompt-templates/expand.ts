import { ARGUMENT_WHITESPACE, parseCommandArgs } from "./args.js";
import { substituteArgs } from "./substitute.js";
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
 * unchanged.
 */
export function expandPromptTemplate(
  text: string,
  templates: readonly Pick<PromptTemplate, "name" | "content">[],
): string {
  const command = splitSlashCommand(text);
  if (!command) return text;
  const template = templates.find((candidate) => candidate.name === command.name);
  if (!template) return text;
  return substituteArgs(template.content, parseCommandArgs(command.argsText));
}
