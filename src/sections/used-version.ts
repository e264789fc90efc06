import type { RenderedSection } from "../types.js";
import type { SectionTemplate } from "./types.js";

/**
 * The template version a rendered section came from: the one whose file is
 * its source (a version below the top one when the top one failed to render),
 * else the top one (a section from code that replaced the template's body).
 * Undefined for a section no template defines: the custom base prompt
 * (`system`) and new sections from code. Its `meta` is what placed the
 * section (order, volatile) and what limits it (maxTokens).
 */
export function usedVersion(
  templates: readonly SectionTemplate[],
  section: Pick<RenderedSection, "name" | "source">,
): SectionTemplate | undefined {
  const top = templates.find((t) => t.name === section.name);
  for (let version = top; version; version = version.lower) {
    if (
      version.source.layer === section.source.layer &&
      version.source.path === section.source.path
    )
      return version;
  }
  return top;
}
