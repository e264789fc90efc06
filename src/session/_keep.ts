import { cutBlocks, SECTION_SEPARATOR } from "../sections/blocks.js";
import type { CacheClass } from "../sections/types.js";
import type { RenderedSection, RenderResult } from "../types.js";

/** The session sections a prompt session took, in prompt order. */
export type TakenSections = readonly RenderedSection[];

/** Each section of a result with its class, read from the result's blocks. */
function classed(result: RenderResult): { section: RenderedSection; cache: CacheClass }[] {
  const classOf = new Map<string, CacheClass>();
  for (const block of result.blocks)
    for (const name of block.sections) classOf.set(name, block.cache);
  return result.sections.map((section) => ({
    section,
    cache: classOf.get(section.name) ?? "stable",
  }));
}

/** The session-class sections of a result, to keep. */
export function takeSessionSections(result: RenderResult): TakenSections {
  return classed(result)
    .filter((s) => s.cache === "session")
    .map((s) => s.section);
}

/**
 * `result` with its session sections replaced by the ones taken earlier:
 * the fresh stable sections, then the taken session ones (less any whose name
 * the fresh render placed in another class: its file changed its class), then
 * the fresh volatile ones. Text and blocks are rebuilt from that list, so they
 * still join exactly.
 */
export function withTakenSessionSections(result: RenderResult, taken: TakenSections): RenderResult {
  const fresh = classed(result);
  const elsewhere = new Set(fresh.filter((s) => s.cache !== "session").map((s) => s.section.name));
  const kept = taken
    .filter((s) => !elsewhere.has(s.name))
    .map((section) => ({ section, cache: "session" as const }));
  const list = [
    ...fresh.filter((s) => s.cache === "stable"),
    ...kept,
    ...fresh.filter((s) => s.cache === "volatile"),
  ];
  const sections = list.map((s) => s.section);
  return {
    ...result,
    text: sections.map((s) => s.text).join(SECTION_SEPARATOR),
    blocks: cutBlocks(list),
    sections,
  };
}
