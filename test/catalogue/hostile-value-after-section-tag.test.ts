import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { placeOf } from "./_commonmark.js";

// Review rev50c F2 (medium). Your section whose name is an HTML tag name
// (`notes`, `team-notes`) and whose template starts with a fence was written
// `<notes>\n~~~markdown\n…`: the line `<notes>` alone starts an HTML block (kind
// 7) that runs to the next blank line, so `~~~markdown` was raw HTML, not a
// fence; the repository's blank line ended that block and your closing `~~~`
// opened a fence over the rest of the prompt (your next section, your
// AGENTS.md's rules, your skills). Now a section's body whose lines before
// its first blank line open a fence or an HTML block is written after a blank
// line of its own: it reads as the placing of printed values read it.

const AGENTS = "# Repo\n\nUse npm.\n";

async function render(name: string, section: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": AGENTS,
    [`agent/sections/${name}.md`]: `---\norder: 60\n---\n${section}`,
    "agent/sections/zz_mine.md": "---\norder: 61\n---\nYOUR-NEXT-SECTION: the user's own words.\n",
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: false }));
}

const EACH = '{{#each contextFiles}}{{#when origin "!=" "user"}}{{content}}{{/when}}{{/each}}';

describe("hostile repository: a blank line in the text your section's first fence holds", () => {
  it.each([
    ["notes", `~~~markdown\n${EACH}\n~~~\n`],
    ["team-notes", `~~~markdown\n${EACH}\n~~~\n`],
    ["deploy", `\`\`\`\n${EACH}\n\`\`\`\n`],
    ["notes", `~~~markdown\nNotes: ${EACH}\n~~~\n\nYOUR-AFTER: mine.\n`],
    ["notes", `Intro, no blank line after it:\n~~~markdown\n${EACH}\n~~~\n`],
    ["project_context", `~~~markdown\n${EACH}\n~~~\n`],
  ])(
    "section %s: the fence holds the repository's text, your next section is yours",
    async (name, section) => {
      const result = await render(name, section);
      expect(result.text).toContain("Use npm.");
      expect(placeOf(result.text, "Use npm.").block, result.text).toBe("code");
      expect(placeOf(result.text, "YOUR-NEXT-SECTION"), result.text).toEqual({
        block: "paragraph",
        containers: [],
      });
      if (section.includes("YOUR-AFTER"))
        expect(placeOf(result.text, "YOUR-AFTER").block, result.text).toBe("paragraph");
    },
  );
});
