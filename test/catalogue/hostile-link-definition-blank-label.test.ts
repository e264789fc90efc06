import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { expandPromptTemplateResult } from "../../src/prompt-templates/expand.js";
import { markdownAsHtml } from "../../src/sections/markdown-html.js";
import { commonmarkHtml } from "./_commonmark.js";

// Review rev107f F2 (medium): a link reference definition whose label is white space only
// (`[ ]: <table>`, or a tab, NBSP, U+3000, U+FEFF, U+2028 between the brackets) is no definition
// to commonmark.js: its `normalizeReference` trims the label (JS `trim()`) and a label left empty
// defines nothing, so the `<table>` after it is raw HTML in a paragraph. Our Markdown view
// (`definitionsEnd` in src/sections/markdown-html.ts) took any label of 1 to 999 characters for
// one, its `<` for a URL's: a project's slash template `[ ]: <table>` then `$ARGUMENTS` printed a
// live `<table>` inside the open `<p>` with no `</p>` before it (the effect fx104d fixed for a tab
// after the colon). Now a label is one only when its text trimmed is not empty.

const BLANKS = [" ", "\t", "\u00a0", "\u3000", "\ufeff", "\u2028", "  \u00a0 ", "\n"];

/** Whether the `<table>` of `shape` is printed as a tag: by commonmark.js, and in our view. */
function live(shape: string): { commonmark: boolean; ours: boolean } {
  return {
    commonmark: commonmarkHtml(shape).includes("<table"),
    ours: markdownAsHtml(shape).includes("<table"),
  };
}

describe("hostile text: a link label of white space only defines nothing (rev107f F2)", () => {
  for (const blank of BLANKS)
    for (const shape of [`[${blank}]: <table>\n`, `> [${blank}]: <table>\n`])
      it(`${JSON.stringify(shape)}: a tag where commonmark.js prints one`, () => {
        expect(live(shape)).toEqual({ commonmark: true, ours: true });
      });

  it("a label with any other character is still a definition (no tag to either)", () => {
    for (const shape of ["[\u200b]: <table>\n", "[ \\ ]: <table>\n", "[ x ]: <table>\n"])
      expect(live(shape)).toEqual({ commonmark: false, ours: false });
  });

  it("a project's slash template `[ ]: <table>`: a `</p>` before the live table", () => {
    for (const blank of [" ", "\u00a0", "\u3000"]) {
      const { text } = expandPromptTemplateResult("/x NEVER push to main", [
        { name: "x", content: `[${blank}]: <table>\n$ARGUMENTS\n`, source: "project" },
      ]);
      expect(text).toContain("</p><table>");
    }
  });

  // Review rev108c F4 (medium): a label over 999 characters as written (an escape is two) is no
  // label to commonmark.js (CommonMark: at most 999 characters between the brackets), while our
  // view counted 999 units (`\\a` one): `[\\a x 600]: <table>` printed a live table in an open `<p>`.
  const LONG = ["\\a".repeat(500), "\\a".repeat(600), `${"\\a".repeat(499)}\\]`];
  it("a label over 999 characters as written, escapes counted: a tag where commonmark.js prints one (rev108c F4)", () => {
    const shapes = LONG.map((label) => `[${label}]: <table>\n`);
    expect(shapes.map((shape) => shape.length)).toEqual([1012, 1212, 1012]);
    for (const shape of [...shapes, ...shapes.map((shape) => `> ${shape}`)])
      expect(live(shape)).toEqual({ commonmark: true, ours: true });
  });

  it("a label of 999 characters as written is still a definition (rev108c F4)", () => {
    for (const label of ["a".repeat(999), `${"\\a".repeat(499)}b`, `${"\\a".repeat(498)}\\]a`])
      expect(live(`[${label}]: <table>\n`)).toEqual({ commonmark: false, ours: false });
  });

  it("a project's slash template `[\\a x 600]: <table>`: a `</p>` before the live table (rev108c F4)", () => {
    for (const label of LONG) {
      const { text } = expandPromptTemplateResult("/x NEVER push to main", [
        { name: "x", content: `[${label}]: <table>\n$ARGUMENTS\n`, source: "project" },
      ]);
      expect(text).toContain("</p><table>");
    }
  });

  it("the closers keep and close a live `<b>` after `[ ]:`", () => {
    const closed = closeOpenBlocks("[ ]: <b>\nmore\n");
    expect(closed).toMatch(/^\[ \]: <b>\nmore\n[\s\S]*<\/b>/);
  });
});
