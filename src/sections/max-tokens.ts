import { boundedCounter, type CountDeadline, TOKEN_ENCODING } from "../tokens.js";
import type { Diagnostic, RenderedSection } from "../types.js";
import type { SectionTemplate } from "./types.js";
import { usedVersion } from "./used-version.js";

/**
 * A warning for each section longer than the `maxTokens` its frontmatter
 * declares (inherited like every key), counted over the section as it stands
 * in the prompt, tags included. The tokenizer is loaded only when some
 * rendered section declares a limit: a prompt without one costs nothing.
 * Past `deadline` a section's count is estimated from its length, and the
 * warning says so.
 */
export function maxTokensWarnings(
  templates: readonly SectionTemplate[],
  sections: readonly RenderedSection[],
  deadline?: CountDeadline,
): Diagnostic[] {
  // Keys are inherited upward, so a version with a limit has a top version with one.
  if (!templates.some((t) => t.meta.maxTokens !== undefined)) return [];
  const limited = sections.flatMap((section) => {
    const limit = usedVersion(templates, section)?.meta.maxTokens;
    return limit === undefined ? [] : [{ section, limit }];
  });
  if (limited.length === 0) return [];
  const count = boundedCounter(deadline ? { deadline } : {});
  return limited.flatMap(({ section, limit }) => {
    const { tokens, estimated } = count.tally(section.text);
    if (tokens <= limit) return [];
    return [
      {
        level: "warning",
        code: "section-max-tokens",
        message: `section "${section.name}" is about ${tokens} tokens (${TOKEN_ENCODING} estimate${estimated ? ", partly from its length: counting reached the render's deadline" : ""}), over its maxTokens of ${limit}`,
        ...(section.source.path ? { path: section.source.path } : {}),
      } satisfies Diagnostic,
    ];
  });
}
