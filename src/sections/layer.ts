import type { Layer } from "../types.js";
import { defaultMeta } from "./meta.js";
import type { CacheClass, SectionFile, SectionTemplate } from "./types.js";
import type { VariantPicker } from "./variants.js";

/**
 * Stacks section files from lowest to highest layer. A later file with the
 * same name replaces the section, inheriting every frontmatter key it does not
 * set, and keeps the replaced version as `lower` (for `{{> base}}` and as the
 * fallback when it fails to render). A file with a blank body inherits the
 * body too (see {@link inheritsBody}). Sorted by {@link sectionKey}.
 *
 * Variant files (`rules@small.md`) are chosen within their layer: `pick`
 * (by default none, see `variantForModel`) may choose one of a layer's
 * variants of a section, sorted by file name, and the chosen one stacks
 * over that layer's plain file — inheriting its keys, with it as `lower` —
 * or, when the layer has none, over the layers below. Variants not chosen
 * take no part. Files come grouped by layer, lowest first, as layers load.
 */
export function layerSections(
  files: readonly SectionFile[],
  pick: VariantPicker = () => undefined,
): SectionTemplate[] {
  const byName = new Map<string, SectionTemplate>();
  const stack = (file: SectionFile) => {
    const lower = byName.get(file.name);
    const inherited = lower?.meta ?? defaultMeta(file.name);
    byName.set(file.name, {
      name: file.name,
      meta: { ...inherited, ...file.meta },
      body: file.body,
      bodyLine: file.bodyLine,
      source: file.source,
      ...(file.variant ? { models: file.variant.models } : {}),
      ...(lower ? { lower } : {}),
    });
  };
  for (const layer of groupByLayer(files)) {
    const variants = new Map<string, SectionFile[]>();
    for (const file of layer) {
      if (file.variant) variants.set(file.name, [...(variants.get(file.name) ?? []), file]);
    }
    for (const file of layer) if (!file.variant) stack(file);
    for (const candidates of variants.values()) {
      const chosen = pick(candidates.sort(byFileName));
      if (chosen) stack(chosen);
    }
  }
  return sortSections([...byName.values()]);
}

function byFileName(a: SectionFile, b: SectionFile): number {
  const x = `${a.name}@${a.variant?.name}.md`;
  const y = `${b.name}@${b.variant?.name}.md`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Consecutive runs of files of one layer. */
function groupByLayer(files: readonly SectionFile[]): SectionFile[][] {
  const groups: SectionFile[][] = [];
  let current: Layer | undefined;
  for (const file of files) {
    if (file.source.layer !== current || groups.length === 0) {
      groups.push([]);
      current = file.source.layer;
    }
    groups[groups.length - 1]?.push(file);
  }
  return groups;
}

/**
 * Where a section goes in the prompt: by cache class first (every stable
 * section, then every session one, then the volatile ones), so a change in
 * the workspace or the date never moves the bytes of a stable section and the
 * stable prefix stays cached; then by `order`; ties by name (code-unit
 * order), or for sections given in code, by the order they were given in.
 */
export type SectionKey = readonly [rank: number, order: number, tie: string | number];

/** The position of each class in the prompt. */
export const CACHE_RANK: Readonly<Record<CacheClass, number>> = {
  stable: 0,
  session: 1,
  volatile: 2,
};

export function sectionKey(section: {
  name: string;
  meta: { order: number; cache: CacheClass };
}): SectionKey {
  return [CACHE_RANK[section.meta.cache], section.meta.order, section.name];
}

/** The class a key was made for (see {@link CACHE_RANK}). */
export function keyClass(key: SectionKey): CacheClass {
  return key[0] >= 2 ? "volatile" : key[0] >= 1 ? "session" : "stable";
}

export function compareSectionKeys(a: SectionKey, b: SectionKey): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  // Not a subtraction: two infinite orders would give NaN.
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}

export function sortSections<
  T extends { name: string; meta: { order: number; cache: CacheClass } },
>(xs: T[]): T[] {
  return xs.sort((a, b) => compareSectionKeys(sectionKey(a), sectionKey(b)));
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

/**
 * A partial call of any form (`{{> base}}`, `{{> base extra=1}}`, `{{~> base this}}`,
 * `{{#> x}}`, a partial of the project's that calls `{{> base}}` itself): a project's
 * version with one may print your body, so whether it did is judged on its render
 * (`yoursNotPrinted` in sections/render.ts, rev51b F5), never on the call's spelling
 * (rev52b F1: `{{> base extra=1}}` printed your body and was warned about). One
 * without any prints none of yours.
 */
export const CALLS_PARTIAL = /\{\{~?#?>/;
