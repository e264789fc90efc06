import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { CHECK_BUDGET_CHARS, withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev68e F3: one render checked 1.3 MB of a trusted project's markup, not 512 KiB: the
// appended parts (`printedParts`), the context files (`assemblePromptData`) and the render (its
// SYSTEM.md and sections) each had a check-budget scope of their own (CHECK_BUDGET_CHARS each).
// AGENTS.md 259 KB + APPEND_SYSTEM.md 519 KB + SYSTEM.md 519 KB of verified markup: 2.54 s of CPU,
// 312 MB, about 1.5 s past `--deadline 1000`. The render now has one budget: the preparation's
// checks spend it, and the render goes on from what they left. And a text's fallbacks (its markup
// as text, every `<` as `&lt;`) each rendered it again for free: each render past the first is
// charged now, and one past what is left takes the instant fallback (`over-budget`).

/** Paragraphs of `<b>x</b>` and code spans (the review's generator), about `n` characters; `tag` marks the file. */
function dense(tag: string, n: number): string {
  const para = `<b>${tag}</b> ${"`x` ".repeat(240)}\n\n`;
  return para.repeat(Math.floor(n / para.length));
}

/** How many of `tag`'s paragraphs kept their markup (verified), and how many had it written as text. */
function kept(text: string, tag: string): { raw: number; asText: number } {
  return {
    raw: text.split(`<b>${tag}</b>`).length - 1,
    asText: text.split(`&lt;b>${tag}&lt;/b>`).length - 1,
  };
}

describe("hostile repository: one check budget for a whole render", () => {
  it("appended part, context file and SYSTEM.md share one budget; the last is written as text, warned", async () => {
    const root = tempDir();
    // One render of each judges both its closers and your words printed right after it (rev68c
    // F1's `closedOpenToYours`; before, two renders, both charged, so only texts of a quarter of
    // the budget fit twice, rev70a). So two texts of nearly half the budget fit, the third not.
    const size = Math.floor(CHECK_BUDGET_CHARS * 0.45);
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": dense("AG", size),
      "project/.pi/APPEND_SYSTEM.md": dense("AP", size),
      "project/.pi/SYSTEM.md": dense("SY", size),
    });
    const options = pinned(root, { projectTrusted: true, deadlineMs: 60_000 });
    const out = await renderSystemPrompt(options);
    const parts = { AP: kept(out.text, "AP"), AG: kept(out.text, "AG"), SY: kept(out.text, "SY") };
    // Each is printed, whole: in markup or as text.
    for (const p of Object.values(parts)) expect(p.raw + p.asText).toBeGreaterThan(90);
    // Two fit the budget (the appended part, then the context file); the render's SYSTEM.md is
    // past it (before: each checked in a scope of its own, all three kept raw).
    expect(parts.AP.asText).toBe(0);
    expect(parts.AG.asText).toBe(0);
    expect(parts.SY.raw).toBe(0);
    const warned = out.diagnostics.filter((d) => d.message.includes("budget for this render"));
    expect(warned.map((d) => d.path?.split("/").pop())).toEqual(["SYSTEM.md"]);
    // The same bytes again: each render of a prepared prompt starts from what its preparation left.
    expect((await renderSystemPrompt(options)).text).toBe(out.text);
  }, 60_000);

  it("a text's fallback renders are charged: past what is left, the instant fallback", () => {
    // Its closers' check gives up (the paragraph is more than the renderer is allowed), and its
    // markup as text still holds a `<` (in a code span, an ended tag: a cut `<b` is written as
    // text before the closers, rev72e F5): a second render, of 60 KB.
    const text = `<div hidden>\n\nnotes\n\n\`a<b>\` ${"`x` ".repeat(15_000)}\n`;
    const fallbacks: string[] = [];
    const check = (budget: number) =>
      withCheckBudget(
        () => closeOpenBlocks(text, false, { onFallback: (f) => fallbacks.push(f) }),
        budget,
      );
    const everyLt = check(text.length + 10);
    // Before: the second render was free, and it fell back to `every-lt` after checking it.
    expect(fallbacks).toEqual(["over-budget"]);
    expect(everyLt.startsWith("&lt;div hidden>")).toBe(true);
    expect(everyLt).not.toContain("<");
    // With room for both renders, the checked fallback as before.
    expect(check(3 * text.length)).toBe(everyLt);
    expect(fallbacks).toEqual(["over-budget", "every-lt"]);
  });
});
