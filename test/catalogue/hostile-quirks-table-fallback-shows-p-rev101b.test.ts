import { describe, expect, it } from "vitest";
import { closedOpenToYours, closeOpenBlocksOnOwnLine } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { withCutMarker } from "../../src/repo-files/capped-read.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev101b F2 (low): the `</p>` written before a `<table` start tag met while a `<p>` is open
// (rev97a F1) was written before the text's check, so every fallback that writes the text's `<` as
// `&lt;` (a file cut at its cap, the check's budget or the render's stop time spent, a skill's
// expansion over 64 KiB, the claude-code hook, 20,000 `<`) showed a `</p>` the file never had:
// `Intro &lt;p>See the grid: &lt;/p>&lt;table>`. Now the `</p>` is written last, in the check
// paid for, on what its fallbacks left: a fallback escapes the text as written.

const GRID = "Intro <p>See the grid: <table><tr><td>cell</td></tr></table>";

describe("hostile repository: a fallback to `&lt;` shows no `</p>` the file never had (rev101b F2)", () => {
  it("an untrusted AGENTS.md cut at its cap", async () => {
    const root = tempDir();
    const lines = Array.from({ length: 20_000 }, (_, i) => `Plain line ${i} of the notes.`);
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `${GRID}\n${lines.join("\n")}\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.diagnostics.map((d) => d.code)).toContain("context-cut");
    expect(result.text).toContain("Intro &lt;p>See the grid: &lt;table>");
    expect(result.text).not.toContain("&lt;/p>");
  });

  it("every fallback of the closers: the check budget spent, past the stop time, cut at the cap", () => {
    const spent = { left: 0 };
    const late = { left: 512 * 1024, stop: { at: 0, clock: () => 1 } };
    const outs = [
      withCutMarker(GRID, 1, GRID.length),
      withCheckBudget(() => closeOpenBlocksOnOwnLine(GRID), spent),
      withCheckBudget(() => closedOpenToYours(GRID, " "), { left: 0 }),
      withCheckBudget(() => closedOpenToYours(GRID, " "), late),
    ];
    for (const out of outs) {
      expect(out).toContain("&lt;p>See the grid: &lt;table>");
      expect(out).not.toContain("&lt;/p>&lt;table");
    }
    // Paid for: the `</p>` is written, and live.
    expect(withCheckBudget(() => closedOpenToYours(GRID, " "))).toContain("</p><table>");
  });
});
