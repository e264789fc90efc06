import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { quirksTableStarts, tablesOutOfParagraphs } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { commonmarkHtml, pathsAround } from "./_commonmark.js";

// Review rev102b F3 (medium): the rev99b F3 fix wrote no `</p>` before a `<table` where one
// stood already, so that a text read twice had one. A `</p>` that closes nothing, inside a bogus
// comment (`<!</p>`, `<?</p>`) or a start tag's attribute (`<a title=x</p>`), then kept the `<p>`
// open at the `<table`: a page without a doctype opened the table in the `<p>`, and it held your
// sections after. A place the reading returns has a `<p>` open at it, whatever stands before;
// only the places taken past the reading's cap skip a `</p>` that stands.

const T = "<table><tr><td>y</td></tr></table>";

const BOGUS_ENDS = ["<!</p>", "<?</p>", "<a title=x</p>", '<a title="x"</p>'];

describe("hostile repository: a `</p>` that closes nothing keeps no `<p>` open at a `<table` (rev102b F3)", () => {
  it.each(BOGUS_ENDS)(
    "a trusted section's `<p>See %s<table>`: your section after it is apart",
    async (bogus) => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/.pi/sections/notes.md": `---\norder: 50\n---\nBuild notes.\n\n<p>See ${bogus}${T}\n`,
        "agent/sections/mine.md": "---\norder: 60\n---\nQzUserSection: never push to main.\n",
      });
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
      expect(result.text).toContain("<notes>");
      expect(quirksTableStarts(result.text)).toEqual([]);
      const path = pathsAround(commonmarkHtml(result.text), "QzUserSection").quirks ?? "";
      expect(path).not.toMatch(/(^|>)p>/);
    },
  );

  it("a real `</p>` before the `<table` is not written twice", () => {
    const text = `<p>See</p>${T}\n`;
    expect(quirksTableStarts(text)).toEqual([]);
    expect(tablesOutOfParagraphs(text)).toBe(text);
  });
});
