import { describe, expect, it } from "vitest";
import { closeOpenBlocks, hostClosingAfter } from "../../src/_fence.js";
import type { HtmlFallback } from "../../src/prompt-templates/hidden-closers.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { cpuTimed } from "../gather/_timed.js";

// The closers' check renders a repository text with commonmark, then reads the HTML with parse5
// (followingShown, src/sections/html-reading.ts). Its counters modelled only some of commonmark's
// slow scans, and counted the Markdown's bytes, not the work it makes:
// - rev66b F2: each link's `]` walks every emphasis run still open before it in its paragraph,
//   so 256 KB of `*x* [y](z) ` took 17 s of CPU (128 KB 1.9 s), reference links as much;
// - rev66c F7: 256 KB of 100-deep list items each with `<pre>` made 248,000 block nodes and
//   2.7 MB of HTML: 2 s of CPU and 340 MB.
// The renderer is now metered as it works (src/sections/_commonmark.ts: block nodes, inline work
// as each paragraph's length times its inline starts, HTML written): past a bound the text is not
// rendered, and its markup is written as text. Bounds are generous for CI load: each case now
// takes 0.05-0.6 s, and took 1.5-17 s before.
const KB = 1024;
const fill = (unit: string, size: number) => unit.repeat(Math.floor(size / unit.length));

const TEXTS: [string, string][] = [
  ["emphasis before inline links", `# proj\n\n<b>bold</b>\n\n${fill("*x* [y](z) ", 128 * KB)}\n`],
  ["underscores before inline links", `<b>bold</b>\n\n${fill("_x_ [y](z) ", 128 * KB)}\n`],
  ["100-deep list items each ending in <pre>", fill(`${"- ".repeat(100)}<pre>\n`, 256 * KB)],
];

describe("hostile repository: the closers' check costs bounded time whatever the shape", () => {
  closeOpenBlocks("a <!X\n\n<div hidden>"); // warmed: the renderer's first load is not the bound
  for (const [what, text] of TEXTS) {
    it(`${what}, ${Math.round(text.length / KB)} KB: under 1 s of CPU, its markup written as text`, async () => {
      const fallbacks: HtmlFallback[] = [];
      // In a render's budget: outside every scope a text this long is not checked (rev66e F5).
      const { cpuMs, value } = await cpuTimed(() =>
        withCheckBudget(() =>
          closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) }),
        ),
      );
      expect(cpuMs).toBeLessThan(1000);
      expect(fallbacks).toEqual(["markup-as-text"]);
      expect(value).not.toContain("<b>");
      expect(value).not.toContain("<pre>");
    });
  }

  // A tool result in pi or opencode keeps its link definitions (a context file's are written
  // `\[y]:`): reference links after emphasis cost as inline ones (rev66b F2).
  it("a tool result of emphasis before reference links, 128 KB: under 1 s of CPU, not verified", async () => {
    const result = `[y]: /u\n\n<b>bold</b>\n\n${fill("*x* [y] ", 128 * KB)}\n`;
    const { cpuMs, value } = await cpuTimed(() => hostClosingAfter(result));
    expect(cpuMs).toBeLessThan(1000);
    expect(value).toBeUndefined();
  });

  // A reference link writes its destination again at each use: 100 KB of destination used
  // 40,000 times made a string past V8's longest, and a RangeError came out of the check into
  // the agent's process.
  it("a tool result of one long link definition used 40,000 times: no error, not verified", async () => {
    const result = `[y]: /${"a".repeat(100_000)}\n\n<b>bold</b>\n\n${"[y] ".repeat(40_000)}`;
    const { cpuMs, value } = await cpuTimed(() => hostClosingAfter(result));
    expect(cpuMs).toBeLessThan(1000);
    expect(value).toBeUndefined();
  });
});
