import { describe, expect, it } from "vitest";
import { MAX_COUNTED_RUN, memoTokenCounter, pieces, tokenCounter } from "../../src/tokens.js";

// Token counts come from gpt-tokenizer's byte-pair merging, whose cost is the
// square of one word's length. `explain` counts every section's tokens, and a
// render does when a section declares maxTokens or a budget is set (a
// project's sysprompt.yaml may set max-tokens). Attack review 11: a trusted
// project's 900 KB APPEND_SYSTEM.md of one letter held `explain` past 300 s
// (a 128 KB line: 7.5 s); an untrusted project's AGENTS.md, up to 256 KiB,
// is counted too, and so is a run of white space. Runs longer than
// MAX_COUNTED_RUN are now counted in pieces: linear, and ordinary text is
// counted exactly as a whole.

describe("hostile repository: one enormous word in a text whose tokens are counted", () => {
  it("is counted in linear time", () => {
    const count = tokenCounter();
    count("warm up");
    const n = 256 * 1024;
    for (const text of [
      "A".repeat(n),
      " ".repeat(n),
      "\n".repeat(n),
      "1".repeat(n),
      "aA".repeat(n / 2),
    ]) {
      const started = performance.now();
      expect(count(text)).toBeGreaterThan(0);
      // Before: the first took about 30 s. Generous for a loaded machine.
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it("ordinary text is one piece, counted as before", () => {
    const text = "Build with make.\n\n  Run the tests, then `npm run lint`.\n".repeat(200);
    expect(pieces(text)).toEqual([text]);
    const long = "x".repeat(MAX_COUNTED_RUN * 2 + 1);
    expect(pieces(`a ${long} b`).join("")).toBe(`a ${long} b`);
    expect(pieces(`a ${long} b`)).toHaveLength(3);
    // A surrogate pair is never split.
    const emoji = "😀".repeat(MAX_COUNTED_RUN);
    for (const piece of pieces(emoji)) expect(piece.length % 2).toBe(0);
  });
});

describe("a report's counter that keeps each piece's count (memoTokenCounter)", () => {
  it("counts every text exactly as the plain counter does", () => {
    const plain = tokenCounter();
    const memo = memoTokenCounter();
    const parts = ["a", "B", "é", "中", "1", "23", "'s", "'", ".", " ", "  ", "\n", "\n\n", "\r\n"];
    parts.push("\t", "/", "<", "-", "😀", "\u0301", "ǅ", "\u00a0", "\u3000", "#", "`", '"', "'ll");
    parts.push("x".repeat(MAX_COUNTED_RUN + 7), " ".repeat(MAX_COUNTED_RUN + 3), "ß");
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 3000; i++) {
      let text = "";
      for (let j = next() % 40; j >= 0; j--) text += parts[next() % parts.length];
      expect(memo(text), JSON.stringify(text)).toBe(plain(text));
    }
  });
});
