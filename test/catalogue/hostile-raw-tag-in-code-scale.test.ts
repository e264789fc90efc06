import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { cpuTimed } from "../gather/_timed.js";

// The raw reading of a repository text (fx71a's finding on rev70a F2, fixed by fx72f) is one
// parse5 tree of the text, charged to the render's one check budget: 400 KB of code spans each
// naming a hiding element (every one nested in the last for that parser) is read within a bound,
// and each of their `<` is written as text. Idle: 0.1-0.75 s of CPU for the whole check (0.62 s
// before the raw reading, for the paragraphs).

const TEXTS: [string, string][] = [
  ["paragraphs of code spans", "Use `<span hidden>` for notes, `<details>` for folds.\n\n"],
  ["one paragraph of code spans", "Use `<template>` and `<object>` here.\n"],
  ["fenced code blocks", "```cpp\nLocal<Object> exports; <script>\n```\n\n"],
];

describe("hostile repository: 400 KB of tags a raw HTML reading takes in code is read within a bound (fx72f)", () => {
  closeOpenBlocks("Use `<span hidden>` x."); // warmed: the readers' first load is not the bound
  for (const [what, unit] of TEXTS) {
    it(`${what}, 400 KB: under 4 s of CPU, no hiding tag left`, async () => {
      const text = unit.repeat(Math.ceil(400_000 / unit.length));
      const { cpuMs, value } = await cpuTimed(() => withCheckBudget(() => closeOpenBlocks(text)));
      expect(cpuMs).toBeLessThan(4000);
      for (const tag of ["<span hidden", "<details", "<template", "<object", "<Object", "<script"])
        expect(value, tag).not.toContain(tag);
    });
  }
});
