import { describe, expect, it } from "vitest";
import { nameText } from "../../src/_prompt-text.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { placeOf } from "./_commonmark.js";

// Review rev58c F4 (low): a trusted project's partial printed in your section, or its
// `vars:` value printed on a line of its own there, could end with a link reference
// definition whose title is open (`[ref]: https://example.com "`): a Markdown reader then
// took your next lines as that title, never shown. A partial (or a value of several lines)
// ending so now gets a blank line after it, and a one-line value's `[label]:` at its
// start is written `\[`.

async function render(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/team.md":
      '---\norder: 500\n---\nTeam policy:\n{{> footer}}\nUSER-DELTA: never deploy on Fridays, named "\nUSER-THETA: never force-push, named "\n',
    "agent/partials/footer.md": "Your footer.\n",
    "project/.pi/partials/footer.md": 'Footer.\n\n[ref]: https://example.com "\n',
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true }));
}

describe("hostile repository: a link definition's open title takes none of your lines", () => {
  it("your lines after the project's partial are shown", async () => {
    const result = await render({});
    expect(placeOf(result.text, "USER-DELTA").block).toBe("paragraph");
    expect(placeOf(result.text, "USER-THETA").block).toBe("paragraph");
    expect(result.diagnostics.map((d) => d.code)).toContain("project-section-open");
  });

  it("a one-line value (a project's var, a name) starting a link definition is text", () => {
    expect(nameText('[n]: https://example.com "', new Set())).toBe(
      '&#91;n&#93;: https://example.com "',
    );
    // Leading blanks are written as the tree writes them (rev68c F4): no definition after them.
    expect(nameText("  [a b]: u", new Set())).toBe("\\u0020\\u0020&#91;a b&#93;: u");
    // A `[` at its start is always text (rev68c F6): where your line goes on with `: `, it opened one.
    expect(nameText("[x](https://example.com)", new Set())).toBe(
      "&#91;x&#93;(https://example.com)",
    );
  });
});
