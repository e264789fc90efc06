import { describe, expect, it } from "vitest";
import { escapeWrapperTags, repositoryNames } from "../../src/_prompt-text.js";

// The draw-in-place reading (rev82f F1, F4, hostile-tags-draw-in-place) reads a tag's name and
// attributes up to its `>`, past at most four `<` of its own: each character is read for a
// bounded number of tags. A megabyte of them takes under a second on an idle machine (0.2-0.7 s;
// a quadratic reading would take hours); the bound leaves CI's margin.

describe("hostile repository: a megabyte of start tags is judged in linear time", () => {
  for (const [unit, kept] of [
    ["<a b<", false],
    // Each `<a` an attribute's name starting with `<` (fx88a: a first character not counted read
    // every tag to the text's end: 30,000 of them in a slash template took 102 s).
    ["<a ", false],
    ["<x", false],
    ['<a title="<', false],
    ["<span hidden>", false],
    ['<img src="https://a.example/b.png" alt=x width=20>', true],
    ["Array<Array<Array<T>>> ", true],
  ] as const)
    it(`${JSON.stringify(unit)} x 1 MB`, () => {
      const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
      const started = performance.now();
      const out = escapeWrapperTags(text, repositoryNames());
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(out.slice(0, 1000).startsWith(unit), unit).toBe(kept);
    });
});
