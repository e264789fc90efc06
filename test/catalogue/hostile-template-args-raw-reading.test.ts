import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { expandProjectTemplate } from "./_expand-project.js";
import { rawHidden } from "./_raw-reading.js";

// Review rev72c F1, F2 (the slash-template part): a trusted project's `.pi/prompts/t.md` with a
// tag an HTML parser fed the raw prompt reads but CommonMark reads as text, before `$ARGUMENTS`:
// `x <div/hidden>` (no tag to CommonMark: `/` then a name), `` Load it with a `<script>` tag. ``
// (a code span), a fenced `<div hidden>`. `sysprompt expand "/t words"` printed your words inside
// the hidden div, the script or the template for that parser, with no `arguments-hidden` warning:
// the guard read only the Markdown's HTML. Now the template is read raw too, by the one raw
// reading a repository's text is closed by (rawHidingTags), and such a tag's `<` is written `&lt;`.
// Since rev82f F1, F4 a tag that draws nothing in place (`<div hidden>`, `<script>`, `<template>`)
// is written `&lt;` wherever it stands, with `page-tag-escaped`; the raw reading's cases use
// `<details>`, kept, which hides what follows it as they did.

const MARKER = "QzArgsMarker";

/** {@link rawHidden} of an expansion as a prompt prints it: in an element, with words after it. */
function expansionHidden(text: string, marker: string): boolean | undefined {
  return rawHidden(`<project_prompt>${text}</project_prompt>\n\nafter`, marker);
}

describe("hostile repository: a slash template's tag a raw HTML reading takes hides none of your typed words (rev72c F1, F2)", () => {
  it("a tag CommonMark reads as text, a code span, a code block: your words shown, with the warning", () => {
    for (const content of [
      "x <details/x>\n\n$ARGUMENTS\n",
      "Notes: <details x=a=b>\n\n$ARGUMENTS\n",
      "Load with a `<details>` tag.\n\n$ARGUMENTS\n",
      "- Use `<details>` for notes.\n\n$ARGUMENTS\n",
      "```html\n<details>\n```\n\n$ARGUMENTS\n",
    ]) {
      const out = expandProjectTemplate(content, `/t ${MARKER} never force-push`);
      expect(expansionHidden(out.text, MARKER), `${content}\n->\n${out.text}`).toBe(false);
      expect(
        out.diagnostics.map((d) => d.code),
        content,
      ).toEqual(["arguments-hidden"]);
      expect(out.diagnostics[0]?.path, content).toBe("/p/.pi/prompts/t.md");
    }
  });

  it("a tag that draws nothing in place (rev82f F1, F4) is written &lt; wherever it stands: your words shown, with page-tag-escaped", () => {
    for (const content of [
      "x <div/hidden>\n\n$ARGUMENTS\n",
      "Notes: <div x=a=b hidden>\n\n$ARGUMENTS\n",
      "Notes: <template/x>\n\n$@\n",
      "Load with a `<script>` tag.\n\n$ARGUMENTS\n",
      "Vue files put markup in `<template>`.\n\n$ARGUMENTS\n",
      "Set the page `<title>` in the layout. $ARGUMENTS\n",
      "- Use `<div hidden>` for notes.\n\n$ARGUMENTS\n",
      "```html\n<div hidden>\n```\n\n$ARGUMENTS\n",
      "```html\n<script src=a.js>\n```\n\nDo: $ARGUMENTS\n",
    ]) {
      const out = expandProjectTemplate(content, `/t ${MARKER} never force-push`);
      expect(expansionHidden(out.text, MARKER), `${content}\n->\n${out.text}`).toBe(false);
      expect(out.text, content).toContain("&lt;");
      expect(
        out.diagnostics.map((d) => d.code),
        content,
      ).toEqual(["page-tag-escaped"]);
      expect(out.diagnostics[0]?.path, content).toBe("/p/.pi/prompts/t.md");
    }
  });

  it("names the template's line of the tag", () => {
    const out = expandProjectTemplate(
      "Intro.\n\nLoad with `<details>`.\n\n$ARGUMENTS\n",
      `/t ${MARKER}`,
    );
    expect(out.diagnostics[0]?.line).toBe(3);
  });

  it("a code sample that hides nothing after it, or markup the template closes itself, is kept as written, with no warning", () => {
    for (const content of [
      "Use `<span>` and `<b>` here.\n\n$ARGUMENTS\n",
      "Load with `<details></details>` tags.\n\n$ARGUMENTS\n",
      "```html\n<details>notes</details>\n```\n\n$ARGUMENTS\n",
      "Fix: $ARGUMENTS\n\n```html\n<details>\n```\n",
    ]) {
      const out = expandProjectTemplate(content, `/t ${MARKER}`);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toBe(content.replace(/\$ARGUMENTS/, MARKER));
    }
  });

  it("your own template is yours: kept as written", () => {
    const content = "Load with a `<script>` tag.\n\n$ARGUMENTS\n";
    const out = expandPromptTemplateMine(content);
    expect(out.text).toBe(content.replace("$ARGUMENTS", MARKER));
    expect(out.diagnostics).toEqual([]);
  });
});

function expandPromptTemplateMine(content: string) {
  return expandPromptTemplateResult(`/t ${MARKER}`, [
    { name: "t", content, source: "user", filePath: "/h/.pi/agent/prompts/t.md" },
  ]);
}
