import { describe, expect, it } from "vitest";
import { dedupeWithDropped, MAX_DEDUPE_WORK } from "../../src/gather/context/dedupe.js";

// Dedupe compares each file with each later kept file: quadratic in the
// files. Fifteen hundred files that share a run of three hundred paragraphs
// and differ in their last one cost seconds of comparisons that find nothing.
// The comparisons stop at MAX_DEDUPE_WORK steps, with an info; the files not
// compared are kept.

/** Far above what the bounded work takes on a loaded machine, far below the quadratic time. */
const BOUND_MS = 5000;

const shared = Array.from({ length: 300 }, () => "Same paragraph.").join("\n\n");

describe("hostile repository: dedupe's work is bounded", () => {
  it("1,500 files sharing a long run: stopped at the bound, the true duplicate still dropped", () => {
    const files = Array.from({ length: 1500 }, (_, i) => ({
      path: `/p/r${i}.md`,
      content: `${shared}\n\nOwn ${i}.`,
    }));
    // The last two are the same file: compared first (dedupe goes from the end), so found.
    files.push({ path: "/p/copy-a.md", content: "One.\n\nTwo." });
    files.push({ path: "/p/copy-b.md", content: "One.\n\nTwo." });
    const started = performance.now();
    const { files: kept, diagnostics, dropped } = dedupeWithDropped(files);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(dropped).toEqual([{ path: "/p/copy-a.md", containedIn: "/p/copy-b.md" }]);
    expect(kept).toHaveLength(1501);
    expect(diagnostics.map((d) => d.code)).toEqual(["context-dedupe-cut", "context-duplicate"]);
    expect(diagnostics[0]?.message).toContain(String(MAX_DEDUPE_WORK));
  }, 120_000);
});
