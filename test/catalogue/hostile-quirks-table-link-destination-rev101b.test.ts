import { describe, expect, it } from "vitest";
import { closedOpenToYours, closeOpenBlocksOnOwnLine } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { quirksTableStarts } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev101b F3 (low): a link destination in angle brackets, `[the spec](<table>)`, was read as
// a `<table>` start tag by the reading that finds a `<table` met while a `<p>` is open (`readInline`
// in src/sections/markdown-html.ts took only `](</` for no tag): the `</p>` went into the URL
// (`[the spec](</p><table>)`, which CommonMark then read as raw markup: a live table that was a
// URL), and the real `<table>` in the next paragraph, then inside that table, got none. Now the `<`
// of an angle-bracket destination, of an inline link or a link reference definition, is text there.

const INLINE =
  "Read [the spec](<table>) first.\n\nBuild [fast <table> now](https://evil.example/) ok.";

describe("hostile repository: a link destination `<table>` is a URL, not a table (rev101b F3)", () => {
  it("the closers: the URL is kept, the real table gets its `</p>`", () => {
    for (const out of [closeOpenBlocksOnOwnLine(INLINE), closedOpenToYours(INLINE, " ")]) {
      expect(out).toContain("Read [the spec](<table>) first.");
      expect(out).toContain("Build [fast </p><table> now]");
      expect(quirksTableStarts(`${out}\nQzAfter`)).toEqual([]);
    }
  });

  it("a title after it, an image, a definition: each destination is text", () => {
    const texts = [
      'Read [the spec](<table> "t") and [x <table> y](z).',
      "See ![grid](<table>) and [x <table> y](z).",
      "[spec]: <table>\n\nSee [x <table> y](z).",
    ];
    for (const text of texts) {
      const out = closeOpenBlocksOnOwnLine(text);
      expect(out.split("</p>").length - 1, out).toBe(1);
      expect(out).toContain("[x </p><table> y](z)");
    }
  });

  it("what is no link keeps its tag read: `](<table>)` with no `[`, and a link inside a link", () => {
    expect(closeOpenBlocksOnOwnLine("Not a link ](<table>) here.")).toContain("](</p><table>)");
    // A link holds no link: `[b](c)` makes `[a` no opener, and `](<table>)` is raw markup.
    expect(closeOpenBlocksOnOwnLine("[a [b](c)](<table>) here.")).toContain("](</p><table>)");
  });

  it("an untrusted AGENTS.md: your words after it are shown, the URL kept", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `${INLINE}\n\n[spec]: <table>\n\nTail [spec] here.\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain("Read [the spec](<table>) first.");
    expect(result.text).toContain("Build [fast </p><table> now]");
    // Its definition is made text, its destination with it: no live table (was `\[spec]: </p><table>`).
    expect(result.text).toContain("\\[spec]: &lt;table>");
  });
});

describe("hostile repository: what a link's destination holds opens no link (rev101b F3)", () => {
  it("a `[` in a destination is no opener for a later `](<…>)`", () => {
    // `[a](<x[>)` is a link; its `[` is the URL's: `](<table>)` after it has no opener, raw markup.
    expect(closeOpenBlocksOnOwnLine("[a](<x[>) then ](<table>) here.")).toContain("](</p><table>)");
  });
});
