import { describe, expect, it } from "vitest";
import { CodePoints, MAX_MISSES, MAX_PAGES } from "../../src/_prompt-text.js";

// Attack review rev80b F2: `CodePoints` (each Unicode reading's cache, by pages of 256 code
// points) kept at most MAX_PAGES pages and never dropped them: 4 KB of code points from 1,100
// pages filled every reading's pages for the rest of the process, and every code point of a page
// past them was read afresh from then on (a long-lived host's later renders of any project). Now
// after MAX_MISSES such reads the pages are dropped and reading goes on cached.

/** A reading that counts its reads. */
function counted(): { points: CodePoints<number>; reads: () => number } {
  let reads = 0;
  const points = new CodePoints((code) => {
    reads++;
    return code & 1;
  });
  return { points, reads: () => reads };
}

/** One code point from each of MAX_PAGES + 76 pages (the review's prefix: 1,100 of them, U+10041, U+10141, …). */
function fill(points: CodePoints<number>): void {
  for (let page = 0x100; page < 0x100 + MAX_PAGES + 76; page++) points.get((page << 8) | 0x41);
}

describe("hostile repository: code points from more pages than a reading keeps", () => {
  it("a page read after the cap filled is cached again", () => {
    const { points, reads } = counted();
    fill(points);
    const before = reads();
    // The text after them (Hangul), read over and over: read afresh at most MAX_MISSES times in
    // all, then from the cache (was once a character for the rest of the process).
    let wrong = 0;
    for (let round = 0; round < 2 * (MAX_MISSES / 256); round++)
      for (let c = 0xac00; c < 0xad00; c++) if (points.get(c) !== (c & 1)) wrong++;
    expect(wrong).toBe(0);
    expect(reads() - before).toBeLessThanOrEqual(MAX_MISSES + 256);
    const cached = reads();
    for (let c = 0xac00; c < 0xad00; c++) points.get(c);
    expect(reads()).toBe(cached);
  });

  it("what it answers is the reading's, dropped pages and all", () => {
    const points = new CodePoints((code) => String.fromCodePoint(code).toLowerCase());
    const wrong: number[] = [];
    for (let k = 0; k < 2 * MAX_MISSES + 2 * MAX_PAGES; k++) {
      const code = ((0x100 + (k % 2000)) << 8) | 0x41;
      if (points.get(code) !== String.fromCodePoint(code).toLowerCase()) wrong.push(code);
    }
    expect(wrong).toEqual([]);
    expect(points.get(0x41)).toBe("a");
  });
});
