import { describe, expect, it } from "vitest";
import { dedupeWithDropped } from "../../src/gather/context/dedupe.js";

// Dedupe once compared each file with each later kept file: quadratic in the
// files. Fifteen hundred files that share a run of three hundred paragraphs
// and differ in their last one cost seconds of comparisons that found nothing.
// Dedupe now goes by paragraph (one look-up each), so the same input is linear:
// every file but the most authoritative keeps only its own paragraph. (Since,
// one dedupe also splits at most MAX_DEDUPE_LINES lines, hostile-dedupe-lines:
// the files here are as many as fit in it, 80 of 601 lines.)

/** Far above what the linear work takes on a loaded machine, far below the quadratic time. */
const BOUND_MS = 5000;

const shared = Array.from({ length: 300 }, (_, k) => `Same paragraph ${k}.`).join("\n\n");

describe("hostile repository: dedupe's work is bounded", () => {
  it("80 files sharing a long run: linear, each keeps its own paragraph, the true duplicate dropped", () => {
    const files = Array.from({ length: 80 }, (_, i) => ({
      path: `/p/r${i}.md`,
      content: `${shared}\n\nOwn ${i}.`,
    }));
    files.push({ path: "/p/copy-a.md", content: "One.\n\nTwo." });
    files.push({ path: "/p/copy-b.md", content: "One.\n\nTwo." });
    const started = performance.now();
    const { files: kept, dropped, trimmed } = dedupeWithDropped(files);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(dropped).toEqual([{ path: "/p/copy-a.md", containedIn: "/p/copy-b.md" }]);
    expect(kept).toHaveLength(81);
    expect(trimmed).toHaveLength(79);
    expect(kept[1]?.content).toBe(
      "[300 paragraphs left out here: already stated in /p/r79.md]\n\nOwn 1.",
    );
  }, 120_000);
});
