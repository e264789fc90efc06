import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/index.js";
import { MAX_PROMPT_TAGS } from "../../src/engine/limits.js";

// The builtin prompts are compiled at build time; a render charges each one's
// tags and words to the prompt's totals from that build (its `size`) instead
// of scanning its source again on every start.

const SOURCE = '{{#if a}}{{b.c}} {{join list ", "}}{{else}}none{{/if}} {{!-- note --}}';

/** What rendering `source` once charges a fresh prompt's totals. */
function charged(
  engine: ReturnType<typeof createEngine>,
  source: string,
): { tags: number; words: number } {
  const work = new PromptWork();
  engine.render(source, { a: true, b: { c: "x" }, list: ["p", "q"] }, { work });
  return { tags: work.tags, words: work.words };
}

describe("a template compiled ahead of time", () => {
  it("carries the tags and words a render of its source counts", () => {
    const scanned = charged(createEngine(), SOURCE);
    expect(scanned).toEqual({ tags: 6, words: 9 });
    expect(createEngine().precompile(SOURCE).size).toEqual(scanned);
  });

  it("is charged that size, not a scan of its source", () => {
    const ahead = createEngine().precompile(SOURCE);
    const engine = createEngine();
    engine.preload([{ ...ahead, size: { tags: 2, words: 3 } }]);
    expect(charged(engine, SOURCE)).toEqual({ tags: 2, words: 3 });

    const over = createEngine();
    over.preload([{ ...ahead, size: { tags: MAX_PROMPT_TAGS + 1, words: 0 } }]);
    expect(() => charged(over, SOURCE)).toThrow(/Template not compiled/);
  });

  it("is scanned when its size is missing or no size", () => {
    const { size: _size, ...ahead } = createEngine().precompile(SOURCE);
    for (const size of [
      undefined,
      { tags: -1, words: 0 },
      { tags: 1.5, words: 1 },
      { tags: 1 },
      "6",
      null,
    ]) {
      const engine = createEngine();
      engine.preload([{ ...ahead, size } as Parameters<typeof engine.preload>[0][number]]);
      expect({ size, charged: charged(engine, SOURCE) }).toEqual({
        size,
        charged: { tags: 6, words: 9 },
      });
    }
  });
});
