import { describe, expect, it } from "vitest";
import { MAX_DEDUPE_LINES } from "../../src/gather/_paragraphs.js";
import { dedupeWithDropped } from "../../src/gather/context/dedupe.js";
import { dropStatedRules, statedText } from "../../src/gather/guidelines/guidelines.js";

// Dedupe is linear, but a line costs microseconds and the caps let a
// repository hand it 3 MiB of context and rule text. Files of one-letter
// paragraphs (a million of them across 8 AGENTS.md of 256 KiB and 1 MiB of
// always rules) took 2.7 s of dedupe, synchronously, and the render 5-9 s at
// `--deadline 500`. One dedupe now splits at most MAX_DEDUPE_LINES lines; the
// files past it are kept whole.

/** Far above splitting MAX_DEDUPE_LINES lines on a loaded machine, far below the unbounded time. */
const BOUND_MS = 700;

/** One 256 KiB file of paragraphs `a` and `b<i>`, a line each with a blank line between. */
function flood(i: number): string {
  const parts: string[] = [];
  for (let k = 0; parts.length * 6 < 256 * 1024; k++) parts.push(k % 2 ? `b${i}` : "a");
  return parts.join("\n\n");
}

describe("hostile repository: dedupe splits a bounded number of lines", () => {
  it("eight 256 KiB files of one-letter paragraphs: quick, the files past the budget whole", () => {
    const files = Array.from({ length: 8 }, (_, i) => ({
      path: `/p/${i}/AGENTS.md`,
      content: flood(i),
    }));
    const started = performance.now();
    const { files: kept, trimmed } = dedupeWithDropped(files);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    // The nearest (last) file is the most authoritative and keeps `a`; the next
    // ones would lose it, but only one fits in the budget beside the nearest.
    expect(kept.map((f) => f.content)).toEqual(files.map((f) => f.content));
    expect(trimmed).toEqual([]);
  });

  it("files within the budget are still deduped", () => {
    const shared =
      "Run the whole test suite before every commit, and read what it says.\n\nIndent with tabs, never spaces, in every file of the repository.";
    const files = [
      { path: "/p/AGENTS.md", content: `${shared}\n\nOwn far.` },
      { path: "/p/s/AGENTS.md", content: `${shared}\n\nOwn near.` },
    ];
    expect(dedupeWithDropped(files).trimmed).toEqual([
      { path: "/p/AGENTS.md", left: 2, statedIn: ["/p/s/AGENTS.md"] },
    ]);
  });

  it("the stated texts a builtin rule is checked against: the same budget", () => {
    const texts = Array.from({ length: 8 }, (_, i) => flood(i));
    const started = performance.now();
    const stated = statedText(texts);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(stated.size).toBeLessThanOrEqual(MAX_DEDUPE_LINES);
    expect(dropStatedRules(["a", "Keep it short."], ["a\n\nother"])).toEqual(["Keep it short."]);
  });
});
