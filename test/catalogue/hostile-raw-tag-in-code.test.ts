import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { touchedElement } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { rawHidden } from "./_raw-reading.js";

// Found by fx71a while fixing rev70a F2 (recorded then as a known limit). A COMPLETE tag that an
// HTML parser fed the raw prompt reads, but CommonMark reads as text, was left as written at a
// repository text's end: in a code span (`` Use `<span hidden>` for notes. ``), in a code block,
// or split over a blank line (`<span` / blank / `hidden x>`). The closers are verified by
// CommonMark then parse5, where the span is `<code>&lt;span hidden&gt;</code>`; for a raw HTML
// reading (rev68c F8's threat model) the span stays open after the text and hides your words
// after `{{content}}` in your own section. Now the text with your words after it is read raw too,
// and a start tag that hides them there has its `<` written `&lt;`, with the text's warning.

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

/** Your section printing each context file, then your words on its line and on the next. */
const mySection =
  "---\norder: 95\n---\nIntro.\n\n{{#each contextFiles}}\nFrom {{path}}: {{content}} QZ-NEVER push to main.\n\nQZ-NEXT: yours wins.\n\n{{/each}}\n";

describe("hostile repository: a tag a raw HTML reading takes in code or over a blank line hides none of your words after the text (fx71a, rev70a F2)", () => {
  // A tag that draws nothing in place (a `hidden` attribute, `<template>`, `<script>`) is written
  // `&lt;` wherever it stands since rev82f F1, F4, with page-tag-escaped; `<details>`, kept, is
  // judged by the raw reading as before.
  for (const [name, agents, code] of [
    ["a code span", "Build.\n\nUse `<details>` for notes.", "context-markup-as-text"],
    ["a code span (hidden)", "Build.\n\nUse `<span hidden>` for notes.", "page-tag-escaped"],
    [
      "a fenced code block",
      "Build.\n\n```html\n<details>\n```\n\nThat is all.",
      "context-markup-as-text",
    ],
    ["an indented code block", "Build.\n\n    <details>\n\nThat is all.", "context-markup-as-text"],
    [
      "an indented code block (template)",
      "Build.\n\n    <template>\n\nThat is all.",
      "page-tag-escaped",
    ],
    ["a tag over a blank line (hidden)", "Build.\n\n<span\n\nhidden x> notes.", "page-tag-escaped"],
    ["a script in a code span", "Build.\n\nAdd `<script>` to the page.", "page-tag-escaped"],
  ] as const) {
    it(`an untrusted AGENTS.md with ${name}: your words after {{content}} are shown to a raw HTML reading`, async () => {
      const result = await render(
        { "agent/sections/mysec.md": mySection, "project/AGENTS.md": agents },
        false,
      );
      for (const marker of ["QZ-NEVER", "QZ-NEXT", "Current working directory"])
        expect(rawHidden(result.text, marker), `${name}: ${marker}`).toBe(false);
      const said = result.diagnostics.find((d) => d.code === code);
      expect(said?.path, name).toContain("AGENTS.md");
      if (code === "context-markup-as-text")
        expect(said?.message).toContain("HTML parser of the raw prompt");
    });
  }

  for (const value of ["core\\n\\n```\\n<details>\\n```\\nend", "core\\n<span\\n\\nhidden x> end"])
    it(`a trusted project's value of several lines (${value}): your words after it are shown`, async () => {
      const result = await render(
        {
          "agent/sections/mysec.md":
            "---\norder: 95\n---\nIntro.\n\nWork for team {{vars.x}} and USER-NEVER push to main.\n\nUSER-NEXT.\n",
          "project/.pi/sysprompt.yaml": `vars:\n  x: "${value}"\n`,
        },
        true,
      );
      for (const marker of ["USER-NEVER", "USER-NEXT"])
        expect(rawHidden(result.text, marker), marker).toBe(false);
    });

  it("on touch: a nested AGENTS.md naming `<details>` in a code span hides none of the next file", () => {
    const element = touchedElement(
      { path: "/p/sub/AGENTS.md", content: "Fold it in `<details>` tags.", kind: "context" },
      "/p",
    );
    const next = '<instructions path="r.mdc">\nQZ-GLOB-RULE: typed.\n</instructions>';
    expect(rawHidden(`<instructions>\n${element}\n${next}`, "QZ-GLOB-RULE")).toBe(false);
  });

  it("a code span naming an element that hides nothing is printed as written", async () => {
    // (`class` is not kept since rev82f F1: a reader's style sheet may hide by class.)
    const text = 'Build.\n\nWrap it in a `<div>`, or `<span lang="x">`, then `</div>`.';
    const result = await render(
      { "agent/sections/mysec.md": mySection, "project/AGENTS.md": text },
      false,
    );
    expect(result.text).toContain(text);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("context-markup-as-text");
  });
});
