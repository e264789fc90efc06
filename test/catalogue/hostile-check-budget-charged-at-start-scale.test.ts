import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import {
  CHECK_BUDGET_CHARS,
  CHECK_TEXT_CHARS,
  withCheckBudget,
} from "../../src/sections/html-reading.js";

// Review rev66e F3: a text the reading gives up on (a `<div>` before a list of 50,000 items: the
// renderer's own block tags are past what one reading takes) never reached the final check, so it
// charged nothing to the budget, yet paid all the reading's work first: nine 262 KB AGENTS.md cost
// 3.3 s of CPU at --deadline 1000 with 523,075 of the budget's 524,288 characters left. A text is
// charged when its check starts: a refused text has spent its share.

/** `n` + 16 characters. */
const refused = (n: number) => `# Notes\n\n<div>\n\n${"- x\n".repeat(n / 4)}`;

describe("hostile repository: the check's budget is charged when a text's check starts", () => {
  it("texts the reading refuses spend the budget; the next text past it is not checked", () => {
    const small = "Use <b>bold</b> here.\n";
    const out = withCheckBudget(() => {
      // Two texts charged 262,144 characters each, their fixed charge included (rev91b F1): the whole budget.
      const n = CHECK_BUDGET_CHARS / 2 - 16 - CHECK_TEXT_CHARS;
      for (let i = 0; i < 2; i++) closeOpenBlocks(refused(n));
      return closeOpenBlocks(small);
    });
    // The budget is spent, so the small text falls back (before: it was checked, nothing charged).
    expect(out).toBe("Use &lt;b>bold&lt;/b> here.\n");
    // Within a fresh budget it is checked and kept as written.
    expect(withCheckBudget(() => closeOpenBlocks(small))).toBe(small);
  });
});
