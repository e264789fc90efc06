import { describe, expect, it } from "vitest";
import { withoutHidden } from "../../src/sections/user-text.js";

// Review rev58b (F3, high): withoutHidden looked for each hidden element's end
// tag to the end of the prompt once per NAME, so 250 KB of always rules made of
// `<x0 hidden><x1 hidden>…` (distinct names, never closed) under a project's
// own project_rules section kept `render --deadline 1000` busy for 80 s. The
// HTML tree builder that reads it now stops at MAX_HTML_TAGS tags, and the text
// after them counts as not shown: it is, for a reader (each element is open to
// the text's end), and a project's text that large is read no further.

describe("hostile repository: hidden elements of distinct names, never closed, cost linear time", () => {
  for (const [what, tag] of [
    ["hidden", (i: number) => `<x${i} hidden>`],
    ["a hiding style", (i: number) => `<x${i} style="display:none">`],
  ] as const) {
    it(`40,000 names with ${what} (about 700 KB): under 3 s, and the text after them not shown`, () => {
      const parts: string[] = ["a <?x "];
      for (let i = 0; i < 40_000; i++) parts.push(tag(i));
      parts.push("YOURS");
      const text = parts.join("");
      const started = performance.now();
      const out = withoutHidden(text);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(out).not.toContain("YOURS");
    });
  }
});
