import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev56c (F1): the guard that closes a run no reader shows, or a start
// tag, before your arguments reads each character of the expansion a bounded
// number of times (hostile-template-args-hidden-run.test.ts has the rule).

describe("hostile repository: the hidden-run guard stays linear", () => {
  it("linear: 30,000 placeholders in a details element, in an attribute value", () => {
    expandProjectTemplate("<details>$1</details>", "/t x");
    for (const [content, code, bound] of [
      // A `<template>` is written `&lt;` since rev82f F1 (page-tag-escaped): it holds nothing.
      [`<template>${"$1 ".repeat(30_000)}</template>`, "page-tag-escaped", 1000],
      // `<details>` hides its content: closed before your words (0.4-0.8 s at a load of 3-20).
      [`<details>${"$1 ".repeat(30_000)}</details>`, "arguments-hidden", 5000],
      [`<span title="${"$0 ".repeat(30_000)}$1">`, "arguments-hidden", 1000],
      [`<span title="${"$0".repeat(30_000)}$1">`, "arguments-hidden", 1000],
    ] as const) {
      const started = performance.now();
      const out = expandProjectTemplate(content, "/t x");
      expect(performance.now() - started, content.slice(0, 20)).toBeLessThan(bound);
      expect(out.diagnostics.map((d) => d.code)).toEqual([code]);
    }
    // Tags never ended within their paragraph are text to a Markdown reader: your words too.
    const started = performance.now();
    const out = expandProjectTemplate(`${"<a ".repeat(30_000)}$1`, "/t x");
    // Each `<a` is unended to a browser (its attributes `<a`), written `&lt;` since rev82f F1
    // (102 s before fx88a's fix of the draw-in-place reading: a quadratic).
    expect(performance.now() - started).toBeLessThan(5000);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["page-tag-escaped"]);
  });
});
