import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { renderYourSection } from "./_your-section.js";

// Review rev67b F4: a trusted project's value of several lines (`vars:`), or its partial,
// printed MID-LINE in your section (`Work for team {{vars.team}} and NEVER push to main.`)
// ended in `see <span hidden>`. Read alone the span ends with its paragraph, so no closer was
// added; printed, your words on the same line (and your next lines) continued that paragraph
// inside the span: hidden. Its last line's `<` is now written `&lt;` when words printed right
// after it would not be shown.

const SHAPES: Record<string, string> = {
  "inline span": "core\nsee <span hidden>",
  "list item span": "a\n- x <span hidden>",
  "quote span": "a\n> x <span hidden>",
  "list item div": "a\n- <div hidden>",
  "span on an earlier line of its last paragraph": "a\n<span hidden>\nb",
  "list item span with a continuation line": "a\n- x <span hidden>\n  more",
};

describe("hostile repository: a project's value or partial printed mid-line hides none of your words after it", () => {
  for (const [shape, value] of Object.entries(SHAPES)) {
    it(`a vars value ending in a ${shape}: your words after it are shown`, async () => {
      const { result } = await renderYourSection(
        "Work for team {{vars.team}} and QZ-NEVER push to main.\nQZ-ALWAYS run the tests first.\n",
        { team: value },
      );
      expect(result.text).toContain("Work for team");
      expect(oracleHidden(result.text, "QZ-NEVER")).toBe("shown");
      expect(oracleHidden(result.text, "QZ-ALWAYS")).toBe("shown");
      expect(oracleHidden(result.text, "Current working directory")).toBe("shown");
    });
  }

  it("an ordinary value of several lines with markup on its last line is printed as written", async () => {
    const { mine } = await renderYourSection("Team {{vars.team}} and QZ-MORE.\n", {
      team: "core\nsee <b>bold</b>",
    });
    expect(mine).toContain("see <b>bold</b> and QZ-MORE.");
  });

  it("a value whose hidden span is in an earlier paragraph is printed as written: a blank line ends it", async () => {
    const { result, mine } = await renderYourSection("Team {{vars.team}} and QZ-MORE.\n", {
      team: "a <span hidden>x\n\nb",
    });
    expect(mine).toContain("b and QZ-MORE.");
    expect(oracleHidden(result.text, "QZ-MORE")).toBe("shown");
  });

  // A `<span hidden>`'s `<` is written `&lt;` since rev82f F1 (page-tag-escaped); `<details>`,
  // kept, hides what follows it as the span did, and is closed before your words.
  for (const [ending, code] of [
    ["<details>", "project-section-open"],
    ["<span hidden>", "page-tag-escaped"],
  ])
    it(`a trusted project's partial ending in an inline ${ending}: your words after the call are shown, with a warning`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "agent/partials/note.md": "Team notes.\n",
        "agent/sections/usec.md":
          "---\norder: 5\n---\nWork as {{> note}} says and QZ-NEVER push to main.\nQZ-ALWAYS run the tests first.\n",
        "project/.pi/partials/note.md": `see ${ending}`,
      });
      const result = await renderSystemPrompt(
        pinned(root, { projectTrusted: true, configFiles: true }),
      );
      expect(result.text).toContain("Work as");
      expect(oracleHidden(result.text, "QZ-NEVER")).toBe("shown");
      expect(oracleHidden(result.text, "QZ-ALWAYS")).toBe("shown");
      expect(result.diagnostics.map((d) => d.code)).toContain(code);
    });
});
