import { describe, expect, it } from "vitest";
import { o200kCounter } from "../../src/budget/tokens.js";
import { countInPieces, MAX_TOKEN_RUN, tokenCounter } from "../../src/tokens.js";

// The o200k encoder merges each word's bytes in time that grows with the
// square of the word's length: an untrusted project's AGENTS.md of one
// 200,000-letter word made `render --untrusted --max-tokens 1000
// --deadline 1000` take 21.9 s (the budget counts every section's tokens,
// synchronously, after the deadline's steps), and `explain` the same. A run
// of spaces or non-spaces is now counted a piece of MAX_TOKEN_RUN at a time.

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
    const calls: string[] = [];
    const text = "Short words, and a line.\n\n  Then more.\t".repeat(50);
    const total = countInPieces(text, (piece) => {
      calls.push(piece);
      return piece.length;
    });
    expect(calls).toEqual([text]);
    expect(total).toBe(text.length);
  });

  it("never cuts a long run between the halves of a surrogate pair", () => {
    const pieces: string[] = [];
    const text = "😀".repeat(MAX_TOKEN_RUN * 3);
    countInPieces(text, (piece) => {
      pieces.push(piece);
      return 0;
    });
    expect(pieces.join("")).toBe(text);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(MAX_TOKEN_RUN + 1);
      // No piece starts with a pair's second half (nor so ends with a first).
      expect(piece.charCodeAt(0)).not.toBe(0xde00);
    }
  });
});
