import { defaultMeta } from "./meta.js";
import type { SectionFile, SectionTemplate } from "./types.js";

/**
 * Stacks section files from lowest to highest layer. A later file with the
 * same name replaces the section, inheriting every frontmatter key it does not
 * set, and keeps the replaced version as `lower` (for `{{> base}}` and as the
 * fallback when it fails to render). Sorted by order, then name.
 */
export function layerSections(files: readonly SectionFile[]): SectionTemplate[] {
  const byName = new Map<string, SectionTemplate>();
  for (const file of files) {
    const lower = byName.get(file.name);
    const inherited = lower?.meta ?? defaultMeta(file.name);
    byName.set(file.name, {
      name: file.name,
      meta: { ...inherited, ...file.meta },
      body: file.body,
      bodyLine: file.bodyLine,
      source: file.source,
      ...(lower ? { lower } : {}),
    });
  }
  return sortSections([...byName.values()]);
}

export function sortSections<T extends { name: string; meta: { order: number } }>(xs: T[]): T[] {
  return xs.sort(
    (a, b) => a.meta.order - b.meta.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}
