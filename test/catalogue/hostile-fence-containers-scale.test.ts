import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { closedDescription } from "../../src/skills/format.js";
import { cpuTimed } from "../gather/_timed.js";

// The block reader behind the closers follows CommonMark's containers: a line
// can open thousands of list items or block quotes one inside the other, and
// each later line is checked against them. Read naively, a blank line walks
// every open item, a line of spaces is measured again for each item, and
// `- - - … x` asks at each marker whether the rest is a thematic break: a
// megabyte took minutes. Each shape below is a megabyte, read (as element text
// and as a skill description, six readings in all) within the bound.

const MB = 1 << 20;
/** CPU time, ms: linear readings take 0.1-0.6 s here; a quadratic one takes minutes. */
const BOUND_MS = 3000;

const SHAPES: Record<string, string> = {
  "items, then blank lines": `${"- ".repeat(MB / 4)}x\n${"\n".repeat(MB / 2)}`,
  "items, then lines of spaces": `${"- ".repeat(MB / 400)}x\n${`${" ".repeat(MB / 200)}y\n`.repeat(200)}`,
  "alternating markers on one line": `${"- * ".repeat(MB / 4)}x`,
  "a quote of items, then empty quote lines": `> ${"- ".repeat(MB / 4)}x\n${">\n".repeat(MB / 4)}`,
  "items, then lazy lines": `${"- ".repeat(MB / 4)}x\n${"y\n".repeat(MB / 4)}`,
  "tab-indented items": `${"-\t".repeat(MB / 200)}x\n${"\t".repeat(MB / 200)}y\n`.repeat(50),
  "fences across blank lines": "```\n\nx\n".repeat(MB / 7),
  "one long tag": `<a${" b=c".repeat(MB / 4)}\n`,
  // A setext underline reads the paragraph's link reference definitions: once, then they are gone.
  "definitions, then underlines": `${"[a]: /u\n".repeat(MB / 16)}${"===\n[b]: /v\n".repeat(MB / 24)}`,
  "a title left open over lines": `[a]: /u\n"${"x\n".repeat(MB / 4)}===\n\`\`\`\n`,
  "labels of 999 characters": `[${"x".repeat(998)}\n===\n`.repeat(MB / 1024),
};

describe("hostile repository: the closers' block reader stays linear", () => {
  for (const [name, text] of Object.entries(SHAPES)) {
    it(`${name} (${Math.round(text.length / 1024)} KiB)`, async () => {
      const { cpuMs, value } = await cpuTimed(() => [
        closeOpenBlocks(text),
        closedDescription(text),
      ]);
      expect(cpuMs).toBeLessThan(BOUND_MS);
      // Kept, closed, or (past what the closers' check renders: a MiB-long tag) with each `<` written `&lt;`.
      const head = text.slice(0, 100);
      expect(
        value[0]?.startsWith(head) ||
          value[0]?.startsWith("\n\n") ||
          value[0]?.startsWith(head.replaceAll("<", "&lt;")),
      ).toBe(true);
    });
  }
});
