import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { markdownAsHtml } from "../../src/sections/markdown-html.js";
import { withoutHidden } from "../../src/sections/user-text.js";

// Review rev59b (F5, high): the code-span reader looked, on each line, for
// the next backtick of the whole text, so imports of `a\n\n` repeated, with
// one backtick far ahead, took 44 s of CPU past any deadline. And (rev59b F6,
// rev52b F12 again) each `<?` or `</a ` looked for its closer to the end.
// Each is now looked for again only once passed.

describe("hostile repository: code spans, end tags and runs cost linear time", () => {
  for (const [what, text] of [
    [
      "1.2 MB of blank-line paragraphs, a backtick at the end",
      `</b>\n\n${"a\n\n".repeat(400_000)}\`x\``,
    ],
    ["1.2 MB of `</a ` with no `>`", "</a ".repeat(300_000)],
    ["900 KB of `a <?x `", "a <?x ".repeat(150_000)],
    ["800 KB of code spans, an end tag at the end", `${"`a` ".repeat(200_000)}</b>`],
  ] as const) {
    it(`${what}: under 3 s for the muting, the closing and the section check`, () => {
      const started = performance.now();
      markdownAsHtml(text);
      closeOpenBlocks(text);
      withoutHidden(text);
      expect(performance.now() - started).toBeLessThan(3000);
    });
  }
});
