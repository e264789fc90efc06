import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { cpuTimed } from "../gather/_timed.js";
import { chain } from "./_touch-chain.js";

// Review rev65a F1: the codex hook on seven nested AGENTS.md of 255 KB ran 4.6-7.3 s, past its own
// 5 s deadline (0.5 s before the commonmark + parse5 check): each whole text was closed and checked
// (0.4-1.1 s each) to measure it, then cut to the 9,500 bytes the host keeps. A text larger than the
// cap on its own is now cut first, and only the cut text is closed and checked.

/** A 255 KB text with one element and a long run of emphasis openers (the review's shape). */
function big(level: number): string {
  const head = `# Level ${level}\n\n<b>x</b>\n\np${level} `;
  return `${head}${"*.".repeat((255_000 - head.length) / 2)}\n`;
}

describe("hostile repository: big nested texts given on touch are cut before they are checked", () => {
  it("seven 255 KB AGENTS.md under a 9,500-byte cap cost well under the hook's 5 s", async () => {
    const { cwd, home, path } = chain(7, big);
    const { cpuMs: took, value: got } = await cpuTimed(() =>
      loadContextForPaths([path], { cwd, home, textCap: { max: 9_500 } }),
    );
    // Before: 4-7 s (seven whole checks of 0.4-1.1 s of CPU each); after: the cut texts' checks,
    // 0.3 s of CPU here at a load of 5 (the clock said 1.25 s at a load of 7, against a bound of
    // 2 s on it). CPU time, 1.5 s with CI machines up to 2x slower.
    expect(took).toBeLessThan(1_500);
    expect(got.files.map((f) => f.path)).toEqual([join(cwd, "l0/AGENTS.md")]);
    const content = got.files[0]?.content ?? "";
    expect(content).toContain("<b>x</b>");
    expect(Buffer.byteLength(content)).toBeLessThan(9_500);
  });
});
