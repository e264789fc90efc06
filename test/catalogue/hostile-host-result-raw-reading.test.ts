import { describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import { rawHidden } from "./_raw-reading.js";

// Review rev72c F2, on touch: a tool result pi or opencode writes the touched files after
// (hostClosingAfter: the result is the repository's, it cannot be rewritten, only closed after)
// holding a file that says `` load it with a `<script>` tag `` (a code span) or a fenced
// `<div hidden>` got no closer: the closers' check read only the Markdown's HTML, where those are
// code. For an HTML parser fed the raw prompt the host's next words (the files given on touch,
// your glob rule among them) were in the script or the hidden div. Now the result is read raw
// too (rawHidingTags, the one raw reading), and the end tags of what hides there are appended.

const NEXT = "QzHostNextWords";

describe("hostile repository: a tool result's tag a raw HTML reading takes hides none of the host's next words (rev72c F2, touch)", () => {
  it("a code span's <script>, a fenced <div hidden>, a tag CommonMark reads as text: closed after", () => {
    for (const result of [
      "Sub notes: load it with a `<script>` tag.\n",
      "Vue files put markup in `<template>`.\n",
      "Set the page `<title>` in the layout.\n",
      "```html\n<div hidden>\n```\n",
      "Notes: <div/hidden>\n",
    ]) {
      const closer = hostClosingAfter(result);
      expect(closer, result).toBeDefined();
      const prompt = `<tool_result>${result}${closer}</tool_result>\n\n<file path="b.md">\n${NEXT}\n</file>\n`;
      expect(rawHidden(prompt, NEXT), `${result}\n->\n${prompt}`).toBe(false);
    }
  });

  it("a result that leaves nothing open after it gets nothing", () => {
    for (const result of ["Use `<span class=x></span>` here.\n", "a < b and c > d\n"])
      expect(hostClosingAfter(result), result).toBe("");
    // A formatting element a raw reader opens again for the host's next words is closed (rev78c F2),
    // and any other element left open around them too (rev80c F2: `<del>`, a white `<span>`).
    expect(hostClosingAfter("Use `<b>` and `<span class=x>` here.\n")).toBe("<!----></span></b>");
  });
});
