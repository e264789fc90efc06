import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev92c F5 (medium): a trusted project's slash template put your typed words in its GFM
// table: `| Task |\n| --- |\n| review | $ARGUMENTS` made them a second cell of a one-cell table,
// which every GFM reader drops (GFM spec: "the excess is ignored"), and `$ARGUMENTS` on the line
// right after a table's rows made them a row, where a `|` you typed dropped the rest; no
// warning. rev70a F8 decided a repository's table takes none of your words (sections, context,
// rules, values: `endTakesNoneOfYours`); the slash guard only wrote the table's `<` as text. Now
// a placeholder in a table's body rows (`tableBodies`, the table-run reading of
// src/sections/gfm-tables.ts) is treated as hiding: your words go to a paragraph of their own
// after a blank line, with an `arguments-hidden` warning.

/** The lines of the run (to a blank line) holding `needle`. */
function runOf(text: string, needle: string): string[] {
  return (text.split(/\n[ \t]*\n/).find((run) => run.includes(needle)) ?? "").split("\n");
}

/** A GFM delimiter row (liberal: `|`, `-`, `:`, blanks, with a `-`). */
const isDelimiterRow = (line: string) => /^[ \t|:-]*$/.test(line) && line.includes("-");

function expectOutOfTable(out: ReturnType<typeof expandProjectTemplate>, needle: string) {
  const run = runOf(out.text, needle);
  expect(run.some(isDelimiterRow), out.text).toBe(false);
  expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
  expect(out.diagnostics[0]?.path).toBe("/p/.pi/prompts/t.md");
}

describe("hostile repository: a slash template's table takes none of your words", () => {
  it("`$ARGUMENTS` in a cell past the header's count: your words a paragraph after the table", () => {
    const out = expandProjectTemplate(
      "| Task |\n| --- |\n| review | $ARGUMENTS\n",
      "/t MY-TYPED-ARGS only src/ and never push",
    );
    expect(out.text).toBe(
      "| Task |\n| --- |\n| review | \n\nMY-TYPED-ARGS only src/ and never push\n",
    );
    expectOutOfTable(out, "MY-TYPED-ARGS");
    expect(out.diagnostics[0]?.line).toBe(3);
  });

  it("`$ARGUMENTS` alone on the line after the rows: a `|` you type splits nothing", () => {
    const out = expandProjectTemplate(
      "| Task |\n| --- |\n$ARGUMENTS\n",
      "/t fix the parser | MY-TYPED-TAIL then never push",
    );
    expect(out.text).toBe("| Task |\n| --- |\n\nfix the parser | MY-TYPED-TAIL then never push\n");
    expectOutOfTable(out, "MY-TYPED-TAIL");
  });

  it("in a quoted table, and a cell between the template's own", () => {
    for (const content of [
      "> | a | b |\n> | - | - |\n> | x | $ARGUMENTS |\n",
      "| a | b |\n|:-|-:|\n| one | two |\n| $ARGUMENTS | three |\n| four | five |\n",
    ]) {
      const out = expandProjectTemplate(content, "/t MY-WORDS | more");
      expectOutOfTable(out, "MY-WORDS");
    }
  });

  it("kept: a placeholder in the header row, before the table, after it past a blank line", () => {
    for (const content of [
      "| Task | $1 |\n| - | - |\n| a | b |\n",
      "Review $ARGUMENTS:\n| a |\n| - |\n| b |\n",
      "| a |\n| - |\n| b |\n\nReview: $ARGUMENTS\n",
      "Fix a | b:\n$ARGUMENTS\n",
      "```\n| a |\n| - |\n$ARGUMENTS\n```\n",
    ]) {
      const out = expandProjectTemplate(content, "/t MY-WORDS");
      expect(out.text, content).toBe(content.replace(/\$(ARGUMENTS|1)/, "MY-WORDS"));
      expect(out.diagnostics, content).toEqual([]);
    }
  });

  it("kept: your own template's table takes your words as you wrote it", () => {
    const content = "| Task |\n| --- |\n| review | $ARGUMENTS\n";
    const out = expandPromptTemplateResult("/t MY-WORDS", [
      { name: "t", content, source: "user", filePath: "/h/.pi/agent/prompts/t.md" },
    ]);
    expect(out.text).toBe("| Task |\n| --- |\n| review | MY-WORDS\n");
    expect(out.diagnostics).toEqual([]);
  });
});
