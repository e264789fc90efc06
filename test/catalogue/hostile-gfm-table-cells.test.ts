import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tableRunsAsText } from "../../src/sections/gfm-tables.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev65b F1 (medium): a GFM renderer (cmark-gfm, markdown-it, VS Code's preview) splits
// a table row's cells at every `|`, inside a code span too, and lets a header row interrupt a
// paragraph. CommonMark, which the closers' check reads, saw text where GFM saw raw
// `</table><div hidden>`, which ended the table from a cell and hid every section after the
// repository's text. A text not yours now has no raw `<` on the lines of a run that holds a
// delimiter row: GFM's cells then hold no markup whatever they split.

const CODE_SPAN = "| a | b |\n| - | - |\n| `x | </table><div hidden>` | y |\n";
const ATTRIBUTE = 'x <span title="\n| a |\n| - |\n| </table><div hidden> |\n">\n';

/** The lines of `text` GFM may read as a table's (from the run's start to a blank line) holding a `<`. */
function rawLtInTableRuns(text: string): string[] {
  const delimiter = (line: string) => /^[ \t>|:-]*$/.test(line) && line.includes("-");
  return text
    .split(/\n[ \t]*\n/)
    .map((run) => run.split("\n"))
    .filter((lines) => lines.some(delimiter) && lines.some((line) => line.includes("|")))
    .flat()
    .filter((line) => line.includes("<"));
}

async function rendered(agents: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": `# Project\n\n${agents}`,
  });
  const { text } = await renderSystemPrompt(pinned(root));
  const from = text.indexOf("<repository_instructions");
  return text.slice(from, text.indexOf("</repository_instructions>", from));
}

describe("hostile repository: a GFM table row's markup", () => {
  it("a `|` in a row's code span: the row's `<` are text (AGENTS.md)", async () => {
    const printed = await rendered(CODE_SPAN);
    expect(printed).toContain("| `x | &lt;/table>&lt;div hidden>` | y |\n");
    expect(rawLtInTableRuns(printed.slice(printed.indexOf("\n") + 1))).toEqual([]);
  });

  it("a tag's quoted attribute across a table: the run's `<` are text (AGENTS.md)", async () => {
    const printed = await rendered(ATTRIBUTE);
    expect(printed).toContain(
      'x &lt;span title="\n| a |\n| - |\n| &lt;/table>&lt;div hidden> |\n">\n',
    );
  });

  it("a project's slash template: its table's `<` are text, your words after it", () => {
    const out = expandProjectTemplate(`${CODE_SPAN}\nReview: $ARGUMENTS\n`, "/t MYWORDS please");
    expect(out.text).toBe(
      "| a | b |\n| - | - |\n| `x | &lt;/table>&lt;div hidden>` | y |\n\nReview: MYWORDS please\n",
    );
    expect(rawLtInTableRuns(out.text)).toEqual([]);
  });

  it("a delimiter row of dashes alone under a header with a `|`, in a quote, at a text's start", () => {
    expect(tableRunsAsText("| a |\n---\n| <b hidden> |\n")).toBe("| a |\n---\n| &lt;b hidden> |\n");
    expect(tableRunsAsText("> | a |\n> | - |\n> | <i> |\n")).toBe(
      "> | a |\n> | - |\n> | &lt;i> |\n",
    );
    expect(tableRunsAsText("---\n</table><div hidden>\n")).toBe(
      "---\n&lt;/table>&lt;div hidden>\n",
    );
  });

  it("kept: a text with no table, a run without one, a heading's underline", () => {
    for (const text of [
      "<details>\n\nx\n\n</details>\n",
      "| a | b |\n| - | - |\n| c | d |\n\n<b>bold</b> after the table\n",
      "Title <b>x</b>\n---\n",
      "a - b | c <i>\n",
    ])
      expect(tableRunsAsText(text)).toBe(text);
    expect(tableRunsAsText("| a |\n| - |\n| <b> |\n\n<i>x</i>\n")).toBe(
      "| a |\n| - |\n| &lt;b> |\n\n<i>x</i>\n",
    );
  });

  it("your own SYSTEM.md's table is printed as you wrote it", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/SYSTEM.md": `Mine.\n\n${CODE_SPAN}`,
    });
    const { text } = await renderSystemPrompt(pinned(root));
    expect(text).toContain(CODE_SPAN);
  });
});

describe("hostile repository: a GFM table a slash template's default or CR lines make", () => {
  it("a placeholder's default printing the delimiter row: the run's `<` are text", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a slash template's placeholder.
    const content = "| a |\n${2:-| - |}\n| `x | </table><div hidden>` |\n\nReview: $1\n";
    const out = expandProjectTemplate(content, "/t MYWORDS");
    expect(out.text).toBe(
      "| a |\n| - |\n| `x | &lt;/table>&lt;div hidden>` |\n\nReview: MYWORDS\n",
    );
  });

  it("lines ended by CR or CR LF", () => {
    expect(tableRunsAsText("| a |\r| - |\r| <b hidden> |\r\rx <i>\r")).toBe(
      "| a |\r| - |\r| &lt;b hidden> |\r\rx <i>\r",
    );
    expect(tableRunsAsText("| a |\r\n| - |\r\n| <b hidden> |\r\n\r\nx <i>\r\n")).toBe(
      "| a |\r\n| - |\r\n| &lt;b hidden> |\r\n\r\nx <i>\r\n",
    );
  });

  it("kept: a template's first paragraph with a placeholder and no `|`", () => {
    expect(tableRunsAsText("Fix $1 <b>now</b>\n", (line) => line.includes("$"))).toBe(
      "Fix $1 <b>now</b>\n",
    );
  });
});
