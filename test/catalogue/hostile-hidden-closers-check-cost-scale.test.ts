import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { oracleReading } from "../_oracle/hidden-oracle.js";
import { cpuTimed } from "../gather/_timed.js";

// The closers' check renders the text with commonmark (hostile-hidden-closers-verified), which
// is not linear: it tries each link destination after `](` and each `<?`, `<!--`, `<!X` to its
// paragraph's end, so 32 KB of `[a](` took 9 s, 200 KB 320 s, and 200 KB of `a <!X` 54 s. Such
// a text is not rendered (commonmarkWork, src/sections/_commonmark.ts): its `<` are written as
// text, and your words after it are shown.
const SIZE = 32 * 1024;
const TEXTS: [string, string][] = [
  ["link destinations", "[a](".repeat(SIZE / 4)],
  ["declarations", "a <!X".repeat(SIZE / 5)],
  ["processing instructions", "a <?x ".repeat(SIZE / 6)],
  ["comments", "a <!-- ".repeat(SIZE / 7)],
  // The check's probe paragraph is a word the text does not hold: found in one pass, not by
  // trying a longer word each time the text holds the last (64 KB of `q` took seconds).
  ["one word of q", `Zqprobe${"q".repeat(2 * SIZE)}`],
];

describe("hostile repository: the closers' check costs bounded time", () => {
  for (const [what, body] of TEXTS) {
    it(`32 KB of ${what} before <div hidden>: under 1.5 s of CPU, your words shown`, async () => {
      const text = `${body}\n\n<div hidden>\n`;
      closeOpenBlocks("a <!X\n\n<div hidden>"); // warmed: the renderer's first load is not the bound
      const { cpuMs, value } = await cpuTimed(() => closeOpenBlocks(text));
      expect(cpuMs).toBeLessThan(1500);
      // The oracle is commonmark too: on 32 KB of `[a](` it would take the 9 s; no `<` left is shown.
      if (what === "link destinations") expect(value).not.toContain("<");
      else expect(oracleReading(`${value}\n\nQzmarker words`, "Qzmarker").verdict).toBe("shown");
    });
  }
});
