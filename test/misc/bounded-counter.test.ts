import { describe, expect, it } from "vitest";
import { boundedCounter, COUNTED_PAST_DEADLINE, tokenCounter } from "../../src/tokens.js";

/** Words none of which is used twice: `n` of them. */
function words(n: number, seed = 0): string {
  return Array.from({ length: n }, (_, i) => `w${(seed + i).toString(36)}x`).join(" ");
}

/** A clock that stands where the test puts it. */
function manualClock(at = 0) {
  const clock = { now: at, read: () => clock.now };
  return clock;
}

describe("boundedCounter", () => {
  it("counts exactly while time remains, as the plain counter does", () => {
    const clock = manualClock();
    const count = boundedCounter({ deadline: { at: 1000, clock: clock.read } });
    const text = words(5_000);
    expect(count.tally(text)).toEqual({ tokens: tokenCounter()(text), estimated: false });
    expect(count.estimated).toBe(false);
  });

  it("past the deadline, counts a short text exactly all the same", () => {
    const clock = manualClock(5000);
    const count = boundedCounter({ deadline: { at: 1000, clock: clock.read } });
    const text = words(1000);
    expect(text.length).toBeLessThan(COUNTED_PAST_DEADLINE);
    expect(count.tally(text)).toEqual({ tokens: tokenCounter()(text), estimated: false });
  });

  it("past the deadline, estimates the rest of a long text, from the ratio counted", () => {
    const clock = manualClock(5000);
    const count = boundedCounter({ deadline: { at: 1000, clock: clock.read } });
    const text = words(12_000);
    expect(text.length).toBeGreaterThan(COUNTED_PAST_DEADLINE);
    const exact = tokenCounter()(text);
    const { tokens, estimated } = count.tally(text);
    expect(estimated).toBe(true);
    expect(count.estimated).toBe(true);
    // Words of one kind: the ratio measured on the first part holds for the rest.
    expect(Math.abs(tokens - exact) / exact).toBeLessThan(0.1);
    // What it counted it keeps: the same text again is the same count.
    expect(count(text)).toBe(tokens);
  });

  it("stops counting when the deadline passes in the middle", () => {
    const clock = manualClock();
    const count = boundedCounter({ deadline: { at: 1000, clock: clock.read } });
    const first = words(2_000);
    expect(count.tally(first).estimated).toBe(false);
    clock.now = 1000;
    const second = words(12_000, 1_000_000);
    expect(count.tally(second).estimated).toBe(true);
    // Pieces counted before stay exact.
    expect(count.tally(first)).toEqual({ tokens: tokenCounter()(first), estimated: false });
  });

  it("`upper` over-counts what it estimates, never under", () => {
    const clock = manualClock(5000);
    const count = boundedCounter({ deadline: { at: 1000, clock: clock.read }, estimate: "upper" });
    for (const text of [words(12_000), "é".repeat(80_000), "a ".repeat(40_000)]) {
      const { tokens, estimated } = count.tally(text);
      expect(estimated).toBe(true);
      expect(tokens).toBeGreaterThanOrEqual(tokenCounter()(text));
    }
  });

  it("without a deadline, counts everything exactly", () => {
    const count = boundedCounter();
    const text = words(12_000);
    expect(count.tally(text)).toEqual({ tokens: tokenCounter()(text), estimated: false });
  });
  it("past the deadline, a text the pre-split never cuts is not counted whole", () => {
    // Double spaces or `\n/` between words: no cut where the encoder cuts, so one piece of
    // megabytes (2.1 s a MB) would be counted past the deadline in one call.
    for (const gap of ["  ", "\n/"]) {
      const text = Array.from({ length: 15_000 }, (_, i) => `w${i.toString(36)}`).join(gap);
      expect(text.length).toBeGreaterThan(COUNTED_PAST_DEADLINE + 8192);
      const count = boundedCounter({ deadline: { at: 1000, clock: () => 5000 } });
      expect(count.tally(text).estimated).toBe(true);
      // Without a deadline, a slice at a time: a token off at most a cut.
      const exact = tokenCounter()(text);
      expect(Math.abs(boundedCounter()(text) - exact)).toBeLessThanOrEqual(text.length / 8192 + 1);
    }
  });
});
