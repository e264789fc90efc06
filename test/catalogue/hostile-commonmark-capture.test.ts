import { HtmlRenderer, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { closedOpenToYours } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { elementChain } from "./_raw-reading.js";

// The CommonMark reading judged only what hides, not what captures (fx75a's recorded limit): a
// `<div>` a raw reader ends by a `</div>` in a code span (``Use `</div>` to end it.``) stayed
// open for a Markdown reader, whose `</repository_instructions>` is text (an underscore is no tag
// name's), and held your skill, `<cwd>` and every later section. And an unclosed formatting
// element at a text's end (`<s>`, `<strike>`, `<font color="white">`) was opened again by HTML
// parsers in every later paragraph (rev67b F6). Now the closers close every element a text leaves
// open for that reader, and every formatting element it would open again, and the check after
// them wants a paragraph after the text at the top level, in no element of the text's.

/** Elements the texts below open: none may hold the prompt's later sections. */
const THE_TEXTS = /^(div|span|s|strike|font|a|b|section|table|tbody|tr|td|blockquote)$/;

/** `needle` in a text node held by no element of the repository's text: read raw, and as CommonMark renders the prompt. */
function outside(text: string, needle: string, what: string): void {
  const rendered = new HtmlRenderer().render(new Parser().parse(text));
  for (const [reading, html] of [
    ["raw", text],
    ["commonmark", rendered],
  ] as const) {
    const names = elementChain(html, needle);
    expect(names, `${what}: ${needle} (${reading})`).toBeDefined();
    expect(
      names?.filter((n) => THE_TEXTS.test(n)),
      `${what}: ${needle} (${reading}): ${names}`,
    ).toEqual([]);
  }
}

function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "# My rules\n\nQZ-RULE: never push to main.\n",
    "agent/skills/myskill/SKILL.md":
      "---\nname: myskill\ndescription: QZ-SKILL deploy helper, never run on prod\n---\nbody\n",
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

const MARKERS = ["QZ-SKILL", "Current working directory", "Today's date"];

/** A repository's text as the prompt prints it (`closedOpenToYours`, as a context file's), with your sections after it. */
function printed(text: string, onFallback?: () => void): string {
  const closed = withCheckBudget(() =>
    closedOpenToYours(text, " ", { onFallback, onEscaped: onFallback }),
  );
  return `<repository_instructions path="AGENTS.md">\n${closed}\n</repository_instructions>\n\n<skills>\nQZ-SKILL deploy helper\n</skills>\n\n<cwd>\nCurrent working directory: /p\n</cwd>\n`;
}

describe("hostile repository: an element left open for a CommonMark reader holds the prompt after it", () => {
  it("a `<div>` a raw reader ends in a code span, in a trusted project's AGENTS.md: your later sections are in no element of it", async () => {
    const result = await render(
      {
        "project/AGENTS.md": "# Project\n\n<div>\n\nBuild with make.\n\nUse `</div>` to end it.\n",
      },
      true,
    );
    for (const marker of MARKERS) outside(result.text, marker, "trusted AGENTS.md");
    expect(result.text).toContain("Use `</div>` to end it.");
  });

  it("each element left open for a Markdown reader is closed, or the text's markup written as text", () => {
    for (const body of [
      "<div>\n\nBuild with make.\n\nUse `</div>` to end it.\n",
      '<div align="center">\n\n# Tool\n\nBuild with make. Wrap notes in `<section>`…`</section>`, never `</div>`.\n',
      "<section>\n\nBuild with make. Close it with `</section>`.\n",
      // A block quote's HTML block whose comment swallows the renderer's `</blockquote>`.
      "> <div><!--\n\nBuild with make.\n",
      "<span>\n\nBuild with make.\n",
      "<table><tr><td>\n\nBuild with make.\n\n`</table>`\n",
      "<div><div><div>\n\nBuild with make.\n",
    ]) {
      const what = JSON.stringify(body);
      const text = printed(`# Project\n\n${body}`);
      for (const marker of ["QZ-SKILL", "Current working directory"]) outside(text, marker, what);
      expect(text, what).toContain("Build with make");
    }
  });

  it("rev67b F6: a formatting element left open at a text's end is not opened again in later paragraphs", async () => {
    const result = await render(
      { "project/AGENTS.md": '# Project\n\nBuild with make. <font color="white">\n' },
      false,
    );
    for (const marker of MARKERS) outside(result.text, marker, "untrusted <font>");
    for (const end of [
      "<s>",
      "<strike>",
      '<font color="white">',
      '<a href="https://evil.example/">',
      "<b><s>",
      "<table><td><s>",
    ]) {
      const text = printed(`# Project\n\nBuild with make. ${end}\n\nMore.\n`);
      for (const marker of ["QZ-SKILL", "Current working directory"]) outside(text, marker, end);
    }
  });
});
