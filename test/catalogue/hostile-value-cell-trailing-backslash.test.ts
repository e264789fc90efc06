import { describe, expect, it } from "vitest";
import { renderYourSection } from "./_your-section.js";

// Review rev65b F3: a project's value printed in your table cell with no space after it
// (`| name |{{vars.name}}| MY-NOTE-A |`) and ending in an odd run of backslashes (`evil\`)
// escaped YOUR cell's `|`: GFM drew `evil| MY-NOTE-A` as the value's cell and your column
// empty. A value ending in a backslash now gets a space after it: the `|` is yours for
// cmark-gfm (an odd run escapes it) and markdown-it (any backslash before it does) alike.

/**
 * A row's cells as GFM splits them: cmark-gfm at each `|` after an even run of backslashes
 * (`\\` is one escaped character), markdown-it at each `|` whose character before is no `\`.
 */
function cells(row: string, markdownIt: boolean): string[] {
  const out: string[] = [];
  let cell = "";
  let backslashes = 0;
  for (const c of row.trim().replace(/^\|/, "").replace(/\|$/, "")) {
    if (c === "|" && (markdownIt ? backslashes === 0 : backslashes % 2 === 0)) {
      out.push(cell.trim());
      cell = "";
    } else cell += c;
    backslashes = c === "\\" ? backslashes + 1 : 0;
  }
  out.push(cell.trim());
  return out;
}

describe("hostile repository: a value ending in a backslash keeps your cell's `|`", () => {
  it.each([
    ["one backslash", "evil\\"],
    ["three", "evil\\\\\\"],
    ["two", "evil\\\\"],
  ])("%s: your note stays in its own cell", async (_, value) => {
    const { result } = await renderYourSection(
      "| key | value | note |\n|---|---|---|\n| name |{{vars.name}}| MY-NOTE-A |\n",
      { name: value },
    );
    const row = result.text.split("\n").find((line) => line.startsWith("| name"));
    // The value reads as written (a `\` before a space is a backslash).
    expect(cells(row ?? "", false), row).toEqual(["name", value, "MY-NOTE-A"]);
    expect(cells(row ?? "", true), row).toEqual(["name", value, "MY-NOTE-A"]);
  });
});
