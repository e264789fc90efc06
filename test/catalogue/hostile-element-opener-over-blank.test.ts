import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { formatTouched } from "../../src/touch/format.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev66f F1: a text whose first paragraph held a `<` started after a blank line of its
// own (rev65b F4), but "the first paragraph" ended at the text's first blank line, which may lie
// inside a fence, list item or block quote its first line opened. Printed after `<rule …>` (an
// HTML block to the first blank line), joining `<repository_instructions …>`'s paragraph, after
// `<instructions …>` on touch, or after your own `From {{path}}: ` label, that opener was
// swallowed, and what followed the blank line was read at the top level: a fence's `<div hidden>`
// line was a live element hiding every later section, while the closers, reading the text alone,
// saw code. A text whose first paragraph opens a fence, list item or block quote and that holds
// a `<` anywhere now starts after a blank line of its own, and so does a trusted project's
// partial or value of several lines (printed in your section after your words).

const OPENERS: Record<string, string> = {
  "``` fence": "```\n\n<div hidden>\n```\n",
  "~~~ fence": "~~~\n\n<div hidden>\n~~~\n",
  "- item": "- a\n\n  <div hidden>\n",
  "2. item": "2. a\n\n   <div hidden>\n",
  "> quote then item": "> a\n- b\n\n  <div hidden>\n",
};

async function rendered(files: Record<string, string>, projectTrusted = false): Promise<string> {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted, configFiles: true }));
  return result.text;
}

describe("hostile repository: a block opened over a blank line is not swallowed by the line above", () => {
  for (const [opener, body] of Object.entries(OPENERS)) {
    it(`an always rule opening a ${opener}: the sections after it are shown`, async () => {
      const text = await rendered({
        "project/.cursor/rules/a.mdc": `---\nalwaysApply: true\n---\n${body}`,
      });
      expect(text).toContain('<rule name="a"');
      expect(oracleHidden(text, "Current working directory")).toBe("shown");
    });

    it(`a repository AGENTS.md opening a ${opener}: the sections after it are shown`, async () => {
      const text = await rendered({ "project/AGENTS.md": body });
      expect(text).toContain("<repository_instructions");
      expect(oracleHidden(text, "Current working directory")).toBe("shown");
    });

    it(`a second file given on touch opening a ${opener}: the file after it is shown`, () => {
      const text = formatTouched(
        [
          // After the first element's `</instructions>` line, the next tag line opens an HTML block.
          { path: "/p/a/AGENTS.md", content: "Use make.", kind: "context" },
          { path: "/p/b/AGENTS.md", content: body, kind: "context" },
          { path: "/p/c/AGENTS.md", content: "QZ-NEXT-FILE: never delete data.", kind: "context" },
        ],
        "/p",
      );
      expect(oracleHidden(`${text}\n\nQZ-AFTER the files.`, "QZ-NEXT-FILE")).toBe("shown");
      expect(oracleHidden(`${text}\n\nQZ-AFTER the files.`, "QZ-AFTER")).toBe("shown");
    });

    it(`your section printing a repository AGENTS.md mid-line, opening a ${opener}: your later words are shown`, async () => {
      const text = await rendered({
        "agent/sections/files.md":
          "---\norder: 5\n---\n# Files\n\n{{#each contextFiles}}From {{path}}: {{content}}\n\n{{/each}}QZ-MY-AFTER-FILES\n",
        "project/AGENTS.md": body,
      });
      expect(text).toContain("From ");
      expect(oracleHidden(text, "QZ-MY-AFTER-FILES")).toBe("shown");
      expect(oracleHidden(text, "Current working directory")).toBe("shown");
    });

    it(`a trusted project's partial your section prints mid-line, opening a ${opener}: your later words are shown`, async () => {
      const text = await rendered(
        {
          "agent/sections/mine.md": "---\norder: 5\n---\nNotes: {{> p}}\n\nQZ-MY-AFTER-P\n",
          "project/.pi/partials/p.md": body,
        },
        true,
      );
      expect(text).toContain("Notes:");
      expect(oracleHidden(text, "QZ-MY-AFTER-P")).toBe("shown");
    });

    it(`a trusted project's value of several lines your section prints mid-line, opening a ${opener}: your later words are shown`, async () => {
      const text = await rendered(
        {
          "agent/sections/mine.md": "---\norder: 5\n---\nTeam: {{vars.team}}\n\nQZ-MY-AFTER-V\n",
          "project/.pi/sysprompt.yaml": `vars:\n  team: ${JSON.stringify(body)}\n`,
        },
        true,
      );
      expect(text).toContain(body.slice(0, 4));
      expect(oracleHidden(text, "QZ-MY-AFTER-V")).toBe("shown");
    });
  }

  it("a text whose first paragraph opens no block and holds no `<` prints right after its opening line", async () => {
    const text = await rendered({
      "project/AGENTS.md": "Build with make.\n\nUse <kbd>Ctrl</kbd>.\n",
    });
    expect(text).toMatch(/<repository_instructions path="[^"]*">\nBuild with make\.\n/);
  });
});
