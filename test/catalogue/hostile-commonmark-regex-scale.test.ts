import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import type { HtmlFallback } from "../../src/prompt-templates/hidden-closers.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev67c F1-F3, F7: commonmark.js's own regular expressions backtrack before or outside
// the renderer's meter (src/sections/_commonmark.ts), so the closers' check spun on small texts:
// - F7: a link title that never closes, `\`+punctuation pairs in it (reLinkTitle reads each pair
//   two ways): 26 pairs, an 82-byte AGENTS.md, 7.3 s; 30 pairs 179 s (exponential);
// - F1: a heading `# a` + 100,000 spaces + `x` (`/[ \t]+#+[ \t]*$/`): 16.6 s;
// - F2: a paragraph line `a` + 100,000 spaces + `x ` then a line break (`/ *$/`): 51 s;
// - F3: a line of 60,000 backticks then `` a` `` (`` /^`{3,}(?!.*`)/ ``): 5.7 s;
// - and 250 KB of lines with 2,000 spaces each (a cap per run is not enough): 2.1 s.
// - rev70b F6: a declaration `x <!` + 100,000 letters with no `>` (`<![A-Za-z]+[^>]*>` reads the
//   rest again for each letter given back): 7.2 s, 14.6 s in a render; in a block quote, the
//   quote's `>` markers are no `>` of the paragraph.
// A linear pre-scan (regexWork) now refuses such a text: it is not verified, and its markup is
// written as text. Bounds are generous for CI load: each case took 2-180 s before.
const pairs = (n: number) => "\\!".repeat(n);
const lines = (line: string, size: number) => line.repeat(Math.floor(size / line.length));

// A third element: the fallback taken when it is not the markup written as text (a declaration's
// `<!` stays in that text, so every `<` is written `&lt;`).
const TEXTS: [string, string, HtmlFallback?][] = [
  ["a link title never closed, 24 `\\!` pairs", `<b>bold</b>\n\n[a](b "${pairs(24)}\n`],
  ["an apostrophe title, pairs between words", `<b>bold</b>\n\n[a](<b> '${"\\!x".repeat(24)}\n`],
  ["a parenthesised title on the next line", `<b>bold</b>\n\n[a](b\n(${pairs(24)}\n`],
  ["a reference definition's title", `<b>bold</b>\n\n[a]: b "${pairs(24)}\n`],
  ["an image's title in a heading", `<b>bold</b>\n\n# ![a](b "${pairs(24)}\n`],
  ["a heading with 100,000 spaces", `<b>bold</b>\n\n# a${" ".repeat(100_000)}x\n`],
  ["a line break after 100,000 spaces", `<b>bold</b>\n\na${" ".repeat(100_000)}x \nb\n`],
  ["60,000 backticks then a`", `<b>bold</b>\n\n${"`".repeat(60_000)}a\`\n`],
  [
    "250 KB of headings with 2,000 spaces",
    `<b>bold</b>\n\n${lines(`# a${" ".repeat(2000)}x\n`, 250_000)}`,
  ],
  [
    "a declaration `<!` and 80,000 letters, no `>`",
    // A `>` in a later paragraph ends it for an HTML parser, so it is not written as text before
    // the check (rev72e F5), and the paragraph's own `<!` still has no `>`.
    `<b>bold</b>\n\nx <!${"A".repeat(80_000)}\n\n<b>bold</b>\n`,
    "every-lt",
  ],
  [
    "a quoted declaration, 15,000 letters, 20,000 quoted lines",
    `<b>bold</b>\n\n> x <!${"A".repeat(15_000)}\n${"> b\n".repeat(20_000)}`,
    "every-lt",
  ],
];

describe("hostile repository: commonmark's own regular expressions cost bounded time", () => {
  closeOpenBlocks("a <!X\n\n<div hidden>"); // warmed: the renderer's first load is not the bound
  for (const [what, text, fallback = "markup-as-text"] of TEXTS) {
    it(`${what}: under 1 s of CPU, its markup written as text`, async () => {
      const fallbacks: HtmlFallback[] = [];
      // In a render's budget: outside every scope a text over 64 KiB is not checked at all (rev66e F5).
      const { cpuMs, value } = await cpuTimed(() =>
        withCheckBudget(() =>
          closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) }),
        ),
      );
      expect(cpuMs).toBeLessThan(1000);
      expect(fallbacks).toEqual([fallback]);
      expect(value).not.toContain("<b>");
    });
  }

  it("a closed title with the same pairs is verified and kept", () => {
    const fallbacks: HtmlFallback[] = [];
    const value = closeOpenBlocks(`<b>bold</b>\n\n[a](b "${pairs(24)}")\n`, false, {
      onFallback: (f) => fallbacks.push(f),
    });
    expect(fallbacks).toEqual([]);
    expect(value).toContain("<b>bold</b>");
  });

  it("a declaration that closes is verified and kept", () => {
    const fallbacks: HtmlFallback[] = [];
    const text = `<b>bold</b>\n\nx <!DOCTYPE html> and <!${"A".repeat(2000)} y>\n`;
    const value = closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) });
    expect(fallbacks).toEqual([]);
    expect(value).toContain("<b>bold</b>");
  });

  it("escapes after a quote that is no title are verified: a changelog's list of `\\[` lines", () => {
    const item = (n: number) =>
      `* \\[[\`c${n}\`](https://x.y/c${n})] - **doc**: fix \\<b> (A B) [#${n}](https://x.y/${n})\n`;
    const text = `<b>bold</b>\n\n* a don't, the ' sign, "quoted\n${Array.from({ length: 200 }, (_, n) => item(n)).join("")}`;
    const fallbacks: HtmlFallback[] = [];
    const value = closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) });
    expect(fallbacks).toEqual([]);
    expect(value).toContain("<b>bold</b>");
  });
});
