import { describe, expect, it } from "vitest";
import { renderSystemPrompt, type SystemPromptOptions } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { placeOf } from "./_commonmark.js";

// Review rev82c F1 (medium), F2 (low). A repository text whose last line is indented code
// (`    make all`, a tab, `>     make all`, `1.      make all`) or a block opener alone (`>`,
// `#`, `1.`, `+`) made your words printed after it on the same line code, a block quote, a
// heading or a list item for a Markdown reader, with no warning (or, after the fallback's
// `&lt;` left a `>` line, a `context-markup-as-text` warning saying they were shown). Now such
// a text ends with a line break, as one whose last line is its own closing fence does (the one
// rule, `endsWithBareRun` in src/_fence.ts): your words start their own line, in a paragraph.

const MINE = "QzMyWordsAfter";

async function render(files: Record<string, string>, extra: SystemPromptOptions = {}) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { configFiles: true, ...extra }));
}

const section = (body: string) => `---\norder: 999\n---\n${body}\n`;

const ENDINGS = [
  "Build with make.\n\n    make all",
  "Build with make.\n\n\tmake all",
  "Build with make.\n\n>     make all",
  "Build with make.\n\n1.      make all",
  "Build with make.\n\n-     make all",
  "Build with make.\n\n    <b>make</b>",
  "Build with make.\n\n>",
  "Build with make.\n\n#",
  "Build with make.\n\n###",
  "Build with make.\n\n1.",
  "Build with make.\n\n+",
  "Build with make.\n\n> 2)",
  "Build with make <details\r>",
];

/** Your words are in a paragraph of their own reading, in no code, heading, quote or list item. */
function expectYours(text: string, ending: string) {
  expect(placeOf(text, MINE), `${JSON.stringify(ending)}\n${text}`).toEqual({
    block: "paragraph",
    containers: [],
  });
}

describe("hostile repository: a text ending in indented code or a block opener alone takes none of your words on its line (rev82c F1, F2)", () => {
  it.each(ENDINGS)("an untrusted AGENTS.md %j printed mid-line", async (ending) => {
    const result = await render(
      {
        "agent/sections/zz_mine.md": section(
          `Repository notes: {{#list contextFiles}}{{#when origin "==" "project"}}{{content}}{{/when}}{{/list}} ${MINE}: never push to main.`,
        ),
        "project/AGENTS.md": `${ending}\n`,
      },
      { projectTrusted: false },
    );
    expectYours(result.text, ending);
    // A warning, where one is given, says the words are shown: they are.
  });

  it.each(ENDINGS.slice(0, 8))("a repository's always rule %j", async (ending) => {
    const result = await render(
      {
        "agent/sections/zz_mine.md": section(
          `Rules: {{#list alwaysRules}}{{content}}{{/list}} ${MINE}: after the rules.`,
        ),
        "project/.cursor/rules/a.mdc": `---\nalwaysApply: true\n---\n${ending}\n`,
      },
      { projectTrusted: false },
    );
    expect(result.text).toContain("make");
    expectYours(result.text, ending);
  });

  it.each(ENDINGS.slice(0, 8))(
    "a trusted project's .pi/SYSTEM.md %j without a final line break",
    async (ending) => {
      const result = await render(
        {
          "agent/sections/zz_mine.md": section(`Base: {{customPrompt}} ${MINE}: after the base.`),
          "project/.pi/SYSTEM.md": ending,
        },
        { projectTrusted: true },
      );
      expectYours(result.text, ending);
    },
  );

  it("a text that ends with an ordinary line keeps your words on its line", async () => {
    const result = await render(
      {
        "agent/sections/zz_mine.md": section(
          `Repository notes: {{#list contextFiles}}{{#when origin "==" "project"}}{{content}}{{/when}}{{/list}} ${MINE}.`,
        ),
        "project/AGENTS.md": "Build with make.\n\n    make all\n\nThen run it.\n",
      },
      { projectTrusted: false },
    );
    expect(result.text).toContain(`Then run it. ${MINE}.`);
  });
});
