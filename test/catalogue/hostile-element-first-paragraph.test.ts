import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { formatTouched } from "../../src/touch/format.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { placeOf } from "./_commonmark.js";

// Review rev65b F4: a repository's text was closed and checked as read from a block start of
// its own, but each wrapper prints it on the line after its opening tag. `<rule name="a" …>` and
// `<instructions path="…">` are tag lines that open an HTML block running to a blank line, so the
// text's first paragraph was raw HTML there: a code span ``Write `<div hidden>` for drafts.``
// became a live `<div hidden>` hiding every later section. `<repository_instructions path="…">` is
// no tag to CommonMark (a `_`): a paragraph the text's first line continues, where `2. <div hidden>`
// is inline raw HTML, not the list item the check read (its `</li>` closed the div). A text whose
// first paragraph holds a `<` (or whose first line is an underline, f20) now starts after a blank
// line of its own, read where it is printed as it was checked.

const FIRST_LINES = ["Write `<div hidden>` for drafts.", "2. <div hidden>"];

async function rendered(files: Record<string, string>, projectTrusted = false): Promise<string> {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted }));
  return result.text;
}

describe("hostile repository: a text's first paragraph is not read with the wrapper's opening line", () => {
  for (const line of FIRST_LINES) {
    it(`a repository AGENTS.md starting ${JSON.stringify(line)}: the sections after it are shown`, async () => {
      const text = await rendered({ "project/AGENTS.md": `${line}\n` });
      expect(text).toContain("<repository_instructions");
      expect(oracleHidden(text, "You do not need to search")).toBe("shown");
      expect(oracleHidden(text, "Current working directory")).toBe("shown");
    });

    it(`an always rule starting ${JSON.stringify(line)}: the sections after it are shown`, async () => {
      const text = await rendered({
        "project/.cursor/rules/a.mdc": `---\nalwaysApply: true\n---\n${line}\n`,
      });
      expect(text).toContain('<rule name="a"');
      expect(oracleHidden(text, "Current working directory")).toBe("shown");
    });

    it(`a trusted project's section starting ${JSON.stringify(line)}: the sections after it are shown`, async () => {
      const text = await rendered(
        { "project/.pi/sections/notes.md": `---\norder: 15\n---\n${line}\n` },
        true,
      );
      expect(text).toContain("<notes>");
      expect(oracleHidden(text, "Current working directory")).toBe("shown");
    });

    it(`a file given on touch starting ${JSON.stringify(line)}: the file after it is shown`, () => {
      const text = formatTouched(
        [
          { path: "/p/a/AGENTS.md", content: line, kind: "context" },
          { path: "/p/b/AGENTS.md", content: "QZ-NEXT-FILE: never delete data.", kind: "context" },
        ],
        "/p",
      );
      expect(oracleHidden(`${text}\n\nQZ-AFTER the files.`, "QZ-NEXT-FILE")).toBe("shown");
      expect(oracleHidden(`${text}\n\nQZ-AFTER the files.`, "QZ-AFTER")).toBe("shown");
    });
  }

  it("an AGENTS.md starting `===` leaves the opening line no heading (f20)", async () => {
    const text = await rendered({ "project/AGENTS.md": "===\nx\n" });
    expect(placeOf(text, "instructions path=").block).toBe("paragraph");
  });

  it("an ordinary text prints right after its opening line, as before", async () => {
    const text = await rendered({
      "project/AGENTS.md": "Build with make.\n\nUse <kbd>Ctrl</kbd>.\n",
    });
    expect(text).toMatch(/<repository_instructions path="[^"]*">\nBuild with make\.\n/);
  });
});
