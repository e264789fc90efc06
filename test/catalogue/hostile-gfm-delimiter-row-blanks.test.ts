import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev66f F2: cmark-gfm (GitHub's renderer) reads a delimiter row's blanks as its table
// scanner's `spacechar`: space, tab, vertical tab and form feed. `|-\f|-|` was a delimiter row
// there but not to `tableRunsAsText`, so rev65b F1 came back: a code span's `|` split a cell into
// raw `</table><div hidden>`, hiding every section after the text (and your words after a slash
// template). A delimiter row's blanks are now read as cmark-gfm reads them.

const BLANKS: Record<string, string> = { "form feed": "\f", "vertical tab": "\v" };

const table = (blank: string) => `| a | b |\n|-${blank}|-|\n| \`x | </table><div hidden>\` | y |\n`;
const escapedRow = "| `x | &lt;/table>&lt;div hidden>` | y |\n";

async function printedAgents(agents: string): Promise<string> {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": `# Project\n\n${agents}`,
  });
  const { text } = await renderSystemPrompt(pinned(root));
  const from = text.indexOf("<repository_instructions");
  return text.slice(from, text.indexOf("</repository_instructions>", from));
}

describe("hostile repository: a delimiter row with cmark-gfm's other blanks", () => {
  for (const [name, blank] of Object.entries(BLANKS)) {
    it(`a ${name} in an AGENTS.md's delimiter row: the rows' \`<\` are text`, async () => {
      const printed = await printedAgents(table(blank));
      expect(printed).toContain(`|-${blank}|-|\n${escapedRow}`);
      expect(printed).not.toContain("</table>");
    });

    it(`a ${name} in a project slash template's delimiter row: the rows' \`<\` are text, your words after it`, () => {
      const out = expandProjectTemplate(
        `${table(blank)}\nReview: $ARGUMENTS\n`,
        "/t MYWORDS please",
      );
      expect(out.text).toBe(`| a | b |\n|-${blank}|-|\n${escapedRow}\nReview: MYWORDS please\n`);
    });

    it(`an AGENTS.md whose first line is a delimiter row with a ${name} starts after a blank line`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": `|-${blank}|-|\nx\n`,
      });
      const { text } = await renderSystemPrompt(pinned(root));
      expect(text).toMatch(
        new RegExp(`<repository_instructions path="[^"]*">\\n\\n\\|-${blank}\\|-\\|\\n`),
      );
    });
  }

  it("a line holding a form feed alone is no blank line: the run goes on past it", async () => {
    const printed = await printedAgents(`| a |\n|-|\n\f\n| </table><div hidden> |\n`);
    expect(printed).toContain("\f\n| &lt;/table>&lt;div hidden> |\n");
  });
});
