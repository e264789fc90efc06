import { afterEach, describe, expect, it, vi } from "vitest";

// The marks a render puts around a text it prints (src/_fence.ts, PRINTED_OPEN and
// PRINTED_CLOSE) hold a nonce drawn once a process from `Math.random().toString(36)`,
// which for some numbers has fewer digits (0.5 is `0.i`). The marks are counted with the
// text they hold (what blocks and partials read again, what a render produced), so in about
// one process in 70 the marks were shorter and a render stopped elsewhere: the catalogue's
// `partial-output-doubling` (test/catalogue/templates.test.ts) ended its partial chain at
// "d2" instead of "d0" (fx78d). A render's counts, and so where it stops, are now the same in
// every process: the marks are always 21 characters.

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

/** The marks of a fresh load of src/_fence.ts with `Math.random` giving `value`. */
async function marksWith(value: number) {
  vi.resetModules();
  vi.spyOn(Math, "random").mockReturnValue(value);
  const { PRINTED_OPEN, PRINTED_CLOSE } = await import("../../src/_fence.js");
  vi.restoreAllMocks();
  return [PRINTED_OPEN, PRINTED_CLOSE];
}

describe("hostile-printed-mark-length: a render's marks are as long in every process", () => {
  it("printed-marks-short-random: a random number of few base-36 digits still makes 21-character marks", async () => {
    for (const value of [0.5]) {
      const [open, close] = await marksWith(value);
      expect(open, String(value)).toHaveLength(21);
      expect(close, String(value)).toHaveLength(21);
      expect(open?.slice(1)).toBe(close?.slice(1));
    }
  });
});
