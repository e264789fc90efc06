import { describe, expect, it } from "vitest";
import { diffBudget } from "../../src/_diff-budget.js";
import { linePatch } from "../../src/_text-diff.js";
import { wordDiff } from "../../src/serve/_view.js";

describe("one diff budget for a view's or report's diffs", () => {
  it("diffs while texts fit what is left, charging their characters", () => {
    const budget = diffBudget(1000, 100);
    expect(wordDiff("a b c", "a x c", budget)).toEqual([
      ["=", "a "],
      ["-", "b"],
      ["+", "x"],
      ["=", " c"],
    ]);
    expect(budget.chars).toBe(90);
    expect(budget.cut).toBe(0);
    // 91 characters do not fit the 90 left: shown whole, and counted.
    const before = "a".repeat(45);
    const after = `${"a".repeat(45)}b`;
    expect(wordDiff(before, after, budget)).toEqual([
      ["-", before],
      ["+", after],
    ]);
    expect(budget).toMatchObject({ chars: 90, cut: 1 });
  });

  it("past its time nothing is diffed; a text added or removed whole is not counted as cut", () => {
    const budget = diffBudget(0);
    const patch = linePatch("s", "s", "a\nb\n", "a\nc\n", "", "", { budget });
    expect(patch.hunks).toEqual([
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ["-a", "-b", "+a", "+c"] },
    ]);
    expect(linePatch("s", "s", "", "new\n", "", "", { budget }).hunks[0]?.lines).toEqual(["+new"]);
    expect(budget.cut).toBe(1);
  });

  it("takes the time each diff took from what is left", () => {
    const budget = diffBudget(1000);
    linePatch("s", "s", "a\n".repeat(200), "b\n".repeat(200), "", "", { budget });
    expect(budget.ms).toBeLessThan(1000);
    expect(budget.chars).toBe(512 * 1024 - 800);
  });
});
