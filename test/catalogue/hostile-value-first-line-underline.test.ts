import { describe, expect, it } from "vitest";
import { placeOf } from "./_commonmark.js";
import { renderYourSection } from "./_your-section.js";

// Review rev64c F5 (low). A project's value of several lines whose first line
// is a setext underline (`---`, `===`, `-`), printed on the line after a
// paragraph line of your section, made your line a heading; the one-line
// value `---` was already written `\---`. The first line's first character is
// now escaped whatever the value's line count, and so is a first line that
// would make your line a table's header (`:-`, a delimiter row).

async function render(team: string) {
  const body = "My notes.\n\nUSER-LINE below:\n{{vars.team}}\nUSER-AFTER\n";
  return (await renderYourSection(body, { team })).mine;
}

describe("hostile repository: a value's first line makes no heading of your line", () => {
  it.each([
    ["---", "---\nx", "\\---\nx"],
    ["===", "===\nx", "\\===\nx"],
    ["-", "-\nx", "\\-\nx"],
    ["indented ===", "  ===\nx", "  \\===\nx"],
    ["a delimiter row", ":-\nx", "\\:-\nx"],
    ["a delimiter row with pipes", "|-|\nx", "\\|-|\nx"],
  ])("%s: your line stays a paragraph line", async (_, team, printed) => {
    const text = await render(team);
    expect(text).toContain(`USER-LINE below:\n${printed}\nUSER-AFTER`);
    expect(placeOf(text, "USER-LINE").block).toBe("paragraph");
  });

  it("a first line that is text is printed as written", async () => {
    expect(await render("--- x\ny")).toContain("USER-LINE below:\n--- x\ny\nUSER-AFTER");
  });
});
