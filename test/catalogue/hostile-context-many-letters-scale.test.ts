import { describe, expect, it } from "vitest";
import type { ContextFile } from "../../src/data.js";
import {
  capTotal,
  DEFAULT_MAX_TOTAL_CONTEXT_BYTES,
} from "../../src/gather/context/_context-total.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev78b F1: plain repository text (no markup) cycling through more than 4,096
// distinct characters, 86,000 Hangul syllables of 11,000 kinds in each AGENTS.md (a long
// Korean or Chinese document nearly so), cost ~0.4 s of CPU per context file: the readings
// of a code point (its NFKC, case and NFD, for the owner mark) were kept in maps cleared
// when they held 4,096, so every character missed and was read afresh; and the total's
// count read every file, those past the 2 MiB total too. 12 files took ~5 s; 16 files
// held a render 6 s, 64 files 31 s past `--deadline 1000`. The readings are now kept per
// code point in pages never cleared, and a file past the total is not read.

/** Far above the fixed figure on a loaded machine (~0.3 s idle), far below the bad one (~5 s). */
const BOUND_MS = 1500;

/** `count` syllables from `base` on, cycling through `span` of them, a line break every 60. */
function syllables(base: number, span: number, count = 86_000): string {
  let text = "";
  for (let k = 0; text.length < count; ) {
    text += String.fromCodePoint(base + (k++ % span));
    if (k % 60 === 0) text += "\n";
  }
  return text;
}

describe("hostile repository: context files of 11,000 distinct Hangul syllables", () => {
  it("the total counts each file in time linear in it, and reads none past the total", async () => {
    const files: ContextFile[] = Array.from({ length: 12 }, (_, i) => ({
      path: `/p/${"l/".repeat(i)}AGENTS.md`,
      content: syllables(0xac00 + i * 13, 11_000),
      kind: "context",
      origin: "project",
    }));
    const { cpuMs, value } = await cpuTimed(() => capTotal(files, DEFAULT_MAX_TOTAL_CONTEXT_BYTES));
    // The last 8 files (the closest to the working folder) fit whole, the one before is cut,
    // the 3 before it keep their marker line only.
    expect(value.cut).toEqual([0, 1, 2, 3]);
    expect(value.files.slice(4).map((f) => f.content)).toEqual(
      files.slice(4).map((f) => f.content),
    );
    for (const f of value.files.slice(0, 3)) expect(f.content).toMatch(/^\[… .* left out/);
    expect(value.diagnostics.map((d) => d.code)).toEqual(Array(4).fill("context-total-cut"));
    expect(cpuMs).toBeLessThan(BOUND_MS);
  }, 120_000);
});
