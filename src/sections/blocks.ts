import type { PromptBlock, RenderedSection } from "../types.js";
import type { CacheClass } from "./types.js";

/** What joins two sections in the prompt text. */
export const SECTION_SEPARATOR = "\n\n";

/**
 * The prompt text cut where the cache class changes: each block holds a run
 * of sections of one class, in prompt order, and the separator after its last
 * section when another block follows, so that the blocks' texts joined with
 * nothing are exactly the prompt's text. Sections come sorted by class (see
 * `sectionKey`), so there is at most one block per class; a list given out
 * of class order still joins to the same text, with a block per run.
 */
export function cutBlocks(
  sections: readonly { section: RenderedSection; cache: CacheClass }[],
): PromptBlock[] {
  const blocks: { cache: CacheClass; sections: string[]; texts: string[] }[] = [];
  for (const { section, cache } of sections) {
    const last = blocks[blocks.length - 1];
    if (last?.cache === cache) {
      last.sections.push(section.name);
      last.texts.push(section.text);
    } else blocks.push({ cache, sections: [section.name], texts: [section.text] });
  }
  return blocks.map((b, i) => ({
    cache: b.cache,
    sections: b.sections,
    text: b.texts.join(SECTION_SEPARATOR) + (i < blocks.length - 1 ? SECTION_SEPARATOR : ""),
  }));
}
