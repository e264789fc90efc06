import { describe, expect, it } from "vitest";
import { HOST_RESULT_CHECK_CHARS, hostClosingAfter } from "../../src/_fence.js";

// Review rev65a F3: the closer of a tool result pi or opencode appends the files after
// (hostClosingAfter) rendered and checked the whole result, synchronously in the agent's own
// process: 2.9 s for 495 KB of source lines, 0.5-1 s for real 400 KB files. One call now spends at
// most HOST_RESULT_CHECK_CHARS on the check: a result past it with a `<` is not verified, and
// nothing is appended to it (as to a result no reading can close).

const LINE = "const a = b < c && d > e; // *x* [y](z)\n";

describe("hostile repository: the check of a host's tool result has a budget per call", () => {
  it("a result past the budget gets nothing, at once; one within it is still closed", () => {
    // 300 KB of source lines after a `<div>`: past the budget (256 KiB), under the per-text 512 KiB.
    const big = `<div>\n\n${LINE.repeat(7_500)}`;
    expect(big.length).toBeGreaterThan(HOST_RESULT_CHECK_CHARS ?? 256 * 1024);
    const started = performance.now();
    expect(hostClosingAfter(big)).toBeUndefined();
    // Before: 1.5-3 s for this result; the refusal is a length test and the fence and comment scan.
    expect(performance.now() - started).toBeLessThan(400);
    const small = `<div hidden>\n\n${LINE.repeat(50)}`;
    expect(hostClosingAfter(small)).toContain("</div>");
    expect(hostClosingAfter(`a\n${LINE.repeat(50)}`)).toBe("");
  });
});
