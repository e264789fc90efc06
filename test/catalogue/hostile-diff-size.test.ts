import { describe, expect, it } from "vitest";
import { linePatch } from "../../src/_text-diff.js";
import { wordDiff } from "../../src/serve/_view.js";

// The diffs of texts a repository writes stop after 250 ms, but jsdiff's
// timer starts after it has cut both texts into tokens: a changed section of
// 4 MiB (the context section of eight 256 KiB AGENTS.md files is 2 MiB; a
// section may produce 8 MiB) in short lines took a line diff 5.7 s and
// 503 MB, and the inspector's word diff 5.2 s, with watch's or serve's
// event loop blocked, however little changed (3.5 s for one line). Texts
// past MAX_DIFF_CHARS together are shown removed and added whole at once.

/** 4 MiB of two-character lines (or words), the most tokens a text can hold; one differs at the end. */
const text = (sep: string, last: string) =>
  `${Array.from({ length: (4 * 1024 * 1024) / 3 }, (_, i) => `a${i % 7}`).join(sep)}${sep}${last}`;

// What is asserted is the shape (the texts whole, where jsdiff finds the one
// line that changed), not the time: the texts take seconds to build and
// split on a loaded machine either way.
describe("hostile repository: a very large changed section", () => {
  it("its line diff is the texts whole, without cutting them into lines first", () => {
    const before = text("\n", "x");
    const after = text("\n", "y");
    const patch = linePatch("s", "s", before, after, "", "");
    expect(patch.hunks).toHaveLength(1);
    expect(patch.hunks[0]?.oldLines).toBe(before.split("\n").length);
  }, 60_000);

  it("its word diff in the inspector is the texts whole", () => {
    const before = text(" ", "x");
    const after = text(" ", "y");
    expect(wordDiff(before, after)).toEqual([
      ["-", before],
      ["+", after],
    ]);
  }, 60_000);
});
