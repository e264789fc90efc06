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
 * `joined`: the sections' texts joined with {@link SECTION_SEPARATOR}, when
 * the caller made it: each block's text is then a part of it, not a second
 * copy of the prompt (review render-hb).
 */
export function cutBlocks(
  sections: readonly { section: RenderedSection; cache: CacheClass }[],
  joined?: string,
): PromptBlock[] {
  const blocks: { cache: CacheClass; sections: string[]; texts: string[]; length: number }[] = [];
  for (const { section, cache } of sections) {
    const last = blocks[blocks.length - 1];
    if (last?.cache === cache) {
      last.sections.push(section.name);
      last.texts.push(section.text);
      last.length += SECTION_SEPARATOR.length + section.text.length;
    } else
      blocks.push({
        cache,
        sections: [section.name],
        texts: [section.text],
        length: section.text.length,
      });
  }
  let at = 0;
  return blocks.map((b, i) => {
    const end = at + b.length + (i < blocks.length - 1 ? SECTION_SEPARATOR.length : 0);
    const text =
      joined === undefined
        ? b.texts.join(SECTION_SEPARATOR) + (i < blocks.length - 1 ? SECTION_SEPARATOR : "")
        : joined.slice(at, end);
    at = end;
    return { cache: b.cache, sections: b.sections, text };
  });
}
