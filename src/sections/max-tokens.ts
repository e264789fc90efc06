import { TOKEN_ENCODING, tokenCounter } from "../tokens.js";
import type { Diagnostic, RenderedSection } from "../types.js";
import type { SectionTemplate } from "./types.js";
import { usedVersion } from "./used-version.js";

/**
 * A warning for each section longer than the `maxTokens` its frontmatter
 * declares (inherited like every key), counted over the section as it stands
 * in the prompt, tags included. The tokenizer is loaded only when some
 * rendered section declares a limit: a prompt without one costs nothing.
 */
export function maxTokensWarnings(
  templates: readonly SectionTemplate[],
  sections: readonly RenderedSection[],
): Diagnostic[] {
  // Keys are inherited upward, so a version with a limit has a top version with one.
  if (!templates.some((t) => t.meta.maxTokens !== undefined)) return [];
  const limited = sections.flatMap((section) => {
    const limit = usedVersion(templates, section)?.meta.maxTokens;
    return limit === undefined ? [] : [{ section, limit }];
  });
  if (limited.length === 0) return [];
  const count = tokenCounter();
  return limited.flatMap(({ section, limit }) => {
    const tokens = count(section.text);
    if (tokens <= limit) return [];
    return [
      {
        level: "warning",
        code: "section-max-tokens",
        message: `section "${section.name}" is about ${tokens} tokens (${TOKEN_ENCODING} estimate), over its maxTokens of ${limit}`,
        ...(section.source.path ? { path: section.source.path } : {}),
      } satisfies Diagnostic,
    ];
  });
}
