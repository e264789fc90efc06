import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// Review rev45c F3 (low-medium). A section's trim (JavaScript's `trim()`,
// which also takes Unicode white space off) was kept unless the trimmed text
// left a block open at its END that the kept text did not. A repository's
// value first in your section, `\u3000```` (a paragraph's text as it is),
// trimmed was a fence's opener; a fence your own text (or a second value, a
// balanced code sample) closed later made everything between code, your rule
// included, and nothing was open at the end either way. The same through an
// untrusted repository's folder named `\u3000```` listed first by your
// section (`--untrusted --tree`). Now the trim is kept only when the first
// line reads as it did.

const USER_RULE = "IMPORTANT-USER-RULE: never push to main.";
const OWN_SAMPLE = "Run the tests like this:\n```sh\nnpm test\n```\n";

async function render(files: Record<string, string>, options = {}) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { configFiles: true, ...options }));
}

describe("hostile repository: a section's trim exposes no block your own text closes later", () => {
  it.each(["tag: team_notes", "tag: false"])(
    "a project's var `\\u3000```` first in your section (%s), your fence later",
    async (tag) => {
      const { text } = await render(
        {
          "agent/sections/team_notes.md": `---\norder: 5\n${tag}\n---\n{{vars.notes}}\n${USER_RULE}\n${OWN_SAMPLE}`,
          "project/.pi/sysprompt.yaml": 'vars:\n  notes: "\\u3000```"\n',
        },
        { projectTrusted: true },
      );
      expect(text).toContain(USER_RULE);
      expect(swallowed(text, USER_RULE)).toBe(false);
      // Your own sample is still code.
      expect(swallowed(text, "npm test")).toBe(true);
    },
  );

  it("two project values: `\\u3000```` and a balanced code sample after your rule", async () => {
    const { text } = await render(
      {
        "agent/sections/team_notes.md": `---\norder: 5\n---\n{{vars.intro}}\n${USER_RULE}\nExample:\n{{vars.example}}\n`,
        "project/.pi/sysprompt.yaml":
          'vars:\n  intro: "\\u3000```"\n  example: "```sh\\nmake test\\n```"\n',
      },
      { projectTrusted: true },
    );
    expect(swallowed(text, USER_RULE)).toBe(false);
  });

  it("an untrusted repository's folder named `\\u3000```` listed first by your section", async () => {
    const { text } = await render(
      {
        "agent/sections/nested_files.md": `---\norder: 5\n---\n{{#each agentsMd}}\n{{this}}\n{{/each}}\n${USER_RULE}\n${OWN_SAMPLE}`,
        "project/\u3000```/AGENTS.md": "nested\n",
      },
      { projectTrusted: false, workspaceTree: true },
    );
    expect(text).toContain("/AGENTS.md");
    expect(swallowed(text, USER_RULE)).toBe(false);
  });

  it("a plain value is still trimmed", async () => {
    const { text } = await render(
      {
        "agent/sections/team_notes.md": `---\norder: 5\n---\n{{vars.notes}}\n${USER_RULE}\n`,
        "project/.pi/sysprompt.yaml": 'vars:\n  notes: "\\u3000hello"\n',
      },
      { projectTrusted: true },
    );
    expect(text).toContain(`<team_notes>\nhello\n${USER_RULE}\n</team_notes>`);
  });
});
