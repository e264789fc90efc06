import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../src/budget/tokens.js";
import { MAX_COUNTED_RUN, pieces, tokenCounter } from "../../src/tokens.js";

// The o200k encoder merges each word's bytes in time that grows with the
// square of the word's length: an untrusted project's AGENTS.md of one
// 200,000-letter word made `render --untrusted --max-tokens 1000
// --deadline 1000` take 21.9 s (the budget counts every section's tokens,
// synchronously, after the deadline's steps), and `explain` the same. A run
// of spaces or non-spaces is now counted a piece of MAX_COUNTED_RUN at a time.

describe("hostile repository: one word hundreds of thousands of characters long", () => {
  it("is counted in linear time, by the budget's counter and explain's alike", () => {
    const word = "a".repeat(400_000);
    for (const count of [tokenCounter(), o200kCounter()]) {
      const started = performance.now();
      const tokens = count(word);
      // Before: about 70 s for this word (22 s for half of it).
      expect(performance.now() - started).toBeLessThan(3000);
      // About 8 letters a token, as whole: an estimate, never zero.
      expect(tokens).toBeGreaterThan(40_000);
      expect(tokens).toBeLessThan(60_000);
    }
  }, 20_000);

  it("counts prose exactly as the encoder does", () => {
    const text = "Short words, and a line.\n\n  Then more.\t".repeat(50);
    expect(pieces(text)).toEqual([text]);
  });

  it("never cuts a long run between the halves of a surrogate pair", () => {
    const text = "😀".repeat(MAX_COUNTED_RUN * 3);
    const cut = pieces(text);
    expect(cut.join("")).toBe(text);
    expect(cut.length).toBeGreaterThan(1);
    for (const piece of cut) {
      expect(piece.length).toBeLessThanOrEqual(MAX_COUNTED_RUN + 1);
      // No piece starts with a pair's second half (nor so ends with a first).
      expect(piece.charCodeAt(0)).not.toBe(0xde00);
    }
  });
});
