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

/** Two-character lines, differing at every line: the most tokens a text can hold. */
const text = (n: number, mod: number) =>
  Array.from({ length: (4 * 1024 * 1024) / 3 }, (_, i) => `a${i % mod}`).join(n === 0 ? "\n" : " ");

/** Far below the 5 s a diff took before, above splitting 8 MiB into lines on a loaded machine. */
const BOUND_MS = 2000;

describe("hostile repository: a very large changed section", () => {
  it("its line diff is the texts whole, at once", () => {
    const before = text(0, 7);
    const after = text(0, 5);
    const start = performance.now();
    const patch = linePatch("s", "s", before, after, "", "");
    expect(performance.now() - start).toBeLessThan(BOUND_MS);
    expect(patch.hunks).toHaveLength(1);
    expect(patch.hunks[0]?.oldLines).toBe(before.split("\n").length);
  }, 30_000);

  it("its word diff in the inspector is the texts whole, at once", () => {
    const before = text(1, 7);
    const after = text(1, 5);
    const start = performance.now();
    const parts = wordDiff(before, after);
    expect(performance.now() - start).toBeLessThan(BOUND_MS);
    expect(parts).toEqual([
      ["-", before],
      ["+", after],
    ]);
  }, 30_000);
});
