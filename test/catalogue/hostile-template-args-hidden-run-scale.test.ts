import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev56c (F1): the guard that closes a run no reader shows, or a start
// tag, before your arguments reads each character of the expansion a bounded
// number of times (hostile-template-args-hidden-run.test.ts has the rule).

describe("hostile repository: the hidden-run guard stays linear", () => {
  it("linear: 30,000 placeholders in a template element, in an attribute value", () => {
    expandProjectTemplate("<template>$1</template>", "/t x");
    for (const content of [
      `<template>${"$1 ".repeat(30_000)}</template>`,
      `<span title="${"$0 ".repeat(30_000)}$1">`,
      `<span title="${"$0".repeat(30_000)}$1">`,
    ]) {
      const started = performance.now();
      const out = expandProjectTemplate(content, "/t x");
      expect(performance.now() - started, content.slice(0, 20)).toBeLessThan(1000);
      expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
    }
    // Tags never ended within their paragraph are text to a Markdown reader: your words too.
    const started = performance.now();
    const out = expandProjectTemplate(`${"<a ".repeat(30_000)}$1`, "/t x");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(out.diagnostics).toEqual([]);
  });
});
