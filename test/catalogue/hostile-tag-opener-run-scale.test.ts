import { describe, expect, it } from "vitest";
import { escapeWrapperTags, HOST_ELEMENTS } from "../../src/_prompt-text.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev52b F8 asked for the cost of a 1 MiB line. A look-alike `<` that is also a
// letter (`ᐸ`, Canadian syllabics) went on the name of the one before it, so each of a
// line's openers read the 256 units after it: 1 MiB of `aᐸ` took 75 s of CPU and of `ᐸ`
// 230 s. Where a name ends does not depend on where it starts, so it is read once.

const NAMES = new Set([...HOST_ELEMENTS, "rules", "user_instructions", "usec"]);
/** Seconds of CPU for a megabyte: a few times what it takes on a loaded machine (1-2 s). */
const BOUND_MS = 8_000;

describe("hostile repository: a 1 MiB line of openers and symbols is escaped in linear time", () => {
  it.each([
    ["a\u1438", 1 << 19],
    ["\u23bda", 1 << 19],
    ["\u23bd", 1 << 20],
    ["\u{1f600}x", 1 << 18],
    // Review rev58f F2/F6: tag characters and a blank-drawn ignorable, read three ways.
    ["\u2039\u{e0074}\u3164\u{e003c}", 1 << 17],
  ])(
    "%s",
    async (unit, times) => {
      const line = unit.repeat(times);
      const { cpuMs, value } = await cpuTimed(() => escapeWrapperTags(line, NAMES));
      expect(value.length).toBeGreaterThanOrEqual(line.length);
      expect(cpuMs).toBeLessThan(BOUND_MS);
    },
    60_000,
  );
});
