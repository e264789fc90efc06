// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${9:-…}` is the slash template's own placeholder, not a JavaScript template.
import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev93h F1 (medium): a trusted project's slash template printed its table's delimiter row
// from a placeholder's default (`| Task |\n${9:-| --- |}\n| review | $ARGUMENTS`, any command of
// fewer than 9 words): the table-body reading of rev92c F5 read each placeholder as letters, so
// no table was found, and your typed words went in a cell past the header's count, which every
// GFM reader drops; no warning. Now a default that may print a delimiter row is read as one, on
// each line it may print (`placeholdersAsRows`, `tableBodies`'s `mayPrintRow`): your words go to
// a paragraph of their own, with `arguments-hidden`.

/** The lines of the run (to a blank line) holding `needle`. */
function runOf(text: string, needle: string): string[] {
  return (text.split(/\n[ \t]*\n/).find((run) => run.includes(needle)) ?? "").split("\n");
}

const isDelimiterRow = (line: string) => /^[ \t|:-]*$/.test(line) && line.includes("-");

describe("hostile repository: a default's delimiter row takes none of your words", () => {
  it("`${9:-| --- |}` as the delimiter row: your words a paragraph after the table", () => {
    const out = expandProjectTemplate(
      "| Task |\n${9:-| --- |}\n| review | $ARGUMENTS\n",
      "/t TYPED1 fix the TYPED2 bug",
    );
    expect(out.text).toBe("| Task |\n| --- |\n| review | \n\nTYPED1 fix the TYPED2 bug\n");
    expect(runOf(out.text, "TYPED1").some(isDelimiterRow)).toBe(false);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
  });

  it("a header without `|`, a default over lines, a CR line break", () => {
    for (const content of [
      "Task\n${9:-| --- |}\n| review | $ARGUMENTS\n",
      "| Task |${9:-\n| --- |\n| review |} $ARGUMENTS\n",
      "${9:-| Task |\n| --- |}\n| review | $ARGUMENTS\n",
      "| Task |${9:-\r| --- |}\r| review | $ARGUMENTS\n",
    ]) {
      const out = expandProjectTemplate(content, "/t TYPED1 fix the bug");
      expect(
        out.diagnostics.map((d) => d.code),
        JSON.stringify(content),
      ).toEqual(["arguments-hidden"]);
      expect(runOf(out.text.replaceAll("\r", "\n"), "TYPED1").some(isDelimiterRow)).toBe(false);
    }
  });

  it("kept as written: a default with no `-`, your own words' rows", () => {
    for (const content of [
      "| Task |\n${9:-| x |}\n| review | $ARGUMENTS\n",
      "| Task |\n| $1 |\n| $2 |\n",
    ]) {
      const out = expandProjectTemplate(content, "/t one two");
      expect(out.diagnostics, JSON.stringify(content)).toEqual([]);
    }
  });
});
