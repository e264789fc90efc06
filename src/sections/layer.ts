import { defaultMeta } from "./meta.js";
import type { SectionFile, SectionTemplate } from "./types.js";

/**
 * Stacks section files from lowest to highest layer. A later file with the
 * same name replaces the section, inheriting every frontmatter key it does not
 * set, and keeps the replaced version as `lower` (for `{{> base}}` and as the
 * fallback when it fails to render). A file with a blank body inherits the
 * body too (see {@link inheritsBody}). Sorted by order, then name.
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

/**
 * A file whose body is blank (frontmatter only, or nothing at all) over a
 * lower version keeps that version's body: it changes only the keys it sets.
 * So `enabled: false` alone switches a section off without erasing it — a
 * higher layer can switch it back on, and its `{{> base}}` is the body below
 * the switch — and `order: 5` alone moves a section. Removing a section is
 * `enabled: false`, never an empty file.
 */
export function inheritsBody(template: SectionTemplate): template is SectionTemplate & {
  lower: SectionTemplate;
} {
  return template.lower !== undefined && template.body.trim() === "";
}
