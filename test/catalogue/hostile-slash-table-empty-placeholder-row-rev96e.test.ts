// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${9:-…}` is the slash template's own placeholder, not a JavaScript template.
import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev96e F3 (medium): the slash-template table check (rev92c F5, rev93h F1) read the
// template with each placeholder as letters, and only a default whose text holds a `-` as a
// possible delimiter row. A trusted project's `.pi/prompts/t.md` writing its delimiter row as
// its own text around a placeholder that prints nothing (`$9| --- |`, `| -$9-- |`,
// `${9:-}| --- |`) or a default with no `-` (`${9:-|} --- |`) read `xx| --- |`, no row; with
// fewer than 9 words typed it printed `| --- |`, and `| review | $ARGUMENTS` put your words in
// a cell past the header's count, which every GFM reader drops, with no warning. Now the
// expansion as it prints for your words is read for tables too (`printedPlaces`): your words
// go to a paragraph of their own, with `arguments-hidden`.

/** The lines of the run (to a blank line) holding `needle`. */
function runOf(text: string, needle: string): string[] {
  return (text.split(/\n[ \t]*\n/).find((run) => run.includes(needle)) ?? "").split("\n");
}

const isDelimiterRow = (line: string) => /^[ \t|:-]*$/.test(line) && line.includes("-");

const FORMS = [
  "| Task |\n$9| --- |\n| review | $ARGUMENTS\n",
  "| Task |\n| -$9-- |\n| review | $ARGUMENTS\n",
  "| Task |\n${9:-}| --- |\n| review | $ARGUMENTS\n",
  "| Task |\n${9:-|} --- |\n| review | $ARGUMENTS\n",
  "| Task |\n| -${9:-}-- |\n| review | $ARGUMENTS\n",
  // rev93h F1's form, fixed before: still held.
  "| Task |\n${9:-| --- |}\n| review | $ARGUMENTS\n",
  // The same with `$0` (always empty), a slice past your words, a default over lines.
  "| Task |\n$0| --- |\n| review | $ARGUMENTS\n",
  "| Task |\n${@:9}| --- |\n| review | $ARGUMENTS\n",
  "| Task |\n${9:-x\n|} --- |\n| review | $ARGUMENTS\n",
];

describe("hostile repository: a delimiter row written around an empty placeholder takes none of your words", () => {
  for (const content of FORMS) {
    it(`${JSON.stringify(content)}: your words a paragraph after the table`, () => {
      const out = expandProjectTemplate(content, "/t TYPED1 fix the TYPED2 bug");
      expect(out.text).toContain("TYPED1 fix the TYPED2 bug");
      expect(runOf(out.text, "TYPED1").some(isDelimiterRow)).toBe(false);
      expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
      // At the line of `$ARGUMENTS`.
      expect(out.diagnostics[0]?.line).toBe(
        content.slice(0, content.indexOf("$ARGUMENTS")).split("\n").length,
      );
    });
  }

  it("the review's first form prints the table, then your words apart", () => {
    const out = expandProjectTemplate(FORMS[0] as string, "/t TYPED1 fix the TYPED2 bug");
    expect(out.text).toBe("| Task |\n| --- |\n| review | \n\nTYPED1 fix the TYPED2 bug\n");
  });

  it("kept as written: the placeholder filled with your word prints no delimiter row", () => {
    const nine = "/t one two three four five six seven eight NINE";
    for (const content of FORMS.slice(0, 5)) {
      const out = expandProjectTemplate(content, nine);
      expect(out.diagnostics, JSON.stringify(content)).toEqual([]);
      expect(out.text, JSON.stringify(content)).toContain("| review | one two");
    }
  });
});
