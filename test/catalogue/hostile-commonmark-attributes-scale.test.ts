import { describe, expect, it } from "vitest";
import { closeOpenBlocks, hostClosingAfter } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import type { HtmlFallback } from "../../src/prompt-templates/hidden-closers.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev68e F1: commonmark's open-tag expression (OPENTAG: `reHtmlTag` at each `<` of a
// paragraph, the HTML block start at a line's `<`) reads an unquoted attribute value as any
// character but ASCII white space and a few, while its `\s` takes any Unicode space (U+00A0,
// U+3000, …): such a space after an `=` is read two ways, so a tag that never ends is tried
// 2^k ways. `<a b=c` + 24 x `\u00a0d\u00a0e=f` + `"`, a 209-byte AGENTS.md, held the render 22 s
// of CPU; one in a tool result held `hostClosingAfter` 10 s at 23 (x2 each); one long run of
// `\u00a0d` is quadratic (96 KB, 18 s). `regexWork` now charges each tag the choices of its
// attributes: such a text is not verified, and its markup is written as text. Bounds are generous
// for CI load: each case took 5-40 s before (the tag inside a paragraph, 0.08 s at 20, doubles
// per step; each `> ` line of the block quote holds four such spaces).
const K = 27;
const attributes = (k: number, space = "\u00a0") => `<a b=c${`${space}d${space}e=f`.repeat(k)}"`;

const TEXTS: [string, string][] = [
  // Read by the HTML block start's expression, which runs here for the first time (V8's regular
  // expression interpreter, some 6x slower than later runs: 23 is 10 s).
  ["a tag starting a line (an HTML block's start)", `# Notes\n\n${attributes(23)}\n\n<b>x</b>\n`],
  ["a tag inside a paragraph", `tool output: see ${attributes(K)}\n\n<b>x</b>\n`],
  ["U+3000 for the spaces", `x ${attributes(K, "\u3000")}\n\n<b>x</b>\n`],
  ["after a quoted value holding `>`", `x <x y=">" ${attributes(K).slice(1)}\n\n<b>x</b>\n`],
  [
    "over the lines of a block quote",
    `> x <a b=c\u00a0d\u00a0e=\n${"> \u00a0d\u00a0e=f\u00a0d\u00a0e=\n".repeat(13)}> "\n\n<b>x</b>\n`,
  ],
  [
    "one long run of `\\u00a0d` (quadratic), 64 KB",
    `<a b=c${"\u00a0d".repeat(32_000)}"\n\n<b>x</b>\n`,
  ],
];

describe("hostile repository: commonmark's open-tag expression costs bounded time", () => {
  closeOpenBlocks("a <!X\n\n<div hidden>"); // warmed: the renderer's first load is not the bound
  for (const [what, text] of TEXTS) {
    it(`${what}: under 1 s of CPU, not verified`, async () => {
      const fallbacks: HtmlFallback[] = [];
      const { cpuMs, value } = await cpuTimed(() =>
        withCheckBudget(() =>
          closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) }),
        ),
      );
      expect(cpuMs).toBeLessThan(1000);
      // Its markup as text, or (the unended tag read as text there too) every `<` written `&lt;`.
      expect(fallbacks).toHaveLength(1);
      expect(["markup-as-text", "every-lt"]).toContain(fallbacks[0]);
      expect(value).not.toContain("<b>");
    });
  }

  it("a tool result in pi or opencode: under 1 s of CPU, nothing appended", async () => {
    const { cpuMs, value } = await cpuTimed(() =>
      hostClosingAfter(`cat notes.md\n${attributes(K)}\n<div hidden>\n`),
    );
    expect(cpuMs).toBeLessThan(1000);
    expect(value).toBeUndefined();
  });

  it("a repository's AGENTS.md: the render under 2 s of CPU, its markup written as text", async () => {
    const plain = tempDir();
    writeFiles(plain, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "x\n",
    });
    await renderSystemPrompt(pinned(plain, { projectTrusted: false })); // warmed: loading is not the bound
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `# Notes\n\n${attributes(24)}\n\n<b>REPO-BOLD</b>\n`,
    });
    const { cpuMs, value } = await cpuTimed(() =>
      renderSystemPrompt(pinned(root, { projectTrusted: false })),
    );
    expect(cpuMs).toBeLessThan(2000);
    expect(value.text).toContain("&lt;b>REPO-BOLD");
    expect(value.diagnostics.map((d) => d.code)).toContain("context-markup-as-text");
  });

  it("Unicode spaces in quoted values, between attributes or in a few unquoted ones are verified", () => {
    const fallbacks: HtmlFallback[] = [];
    const text = `<span title="a\u00a0b\u00a0c" class=x\u00a0\u00a0id=y>z</span> <a\u00a0href=u\u00a0v>w</a> <b>x</b>\n`;
    const value = closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) });
    expect(fallbacks).toEqual([]);
    expect(value).toContain("<b>x</b>");
  });
});
