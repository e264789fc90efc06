import { describe, expect, it } from "vitest";
import { markPrinted, placePrinted } from "../../src/_fence.js";
import { elementText, OWNER_MARK } from "../../src/_prompt-text.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev64c F6 and F9: the costs of the two new readings of a repository's
// text. Its link reference definitions are found by one block reading (each
// line once, a paragraph's lines told by their lengths, never read again), and
// the values on a row of your table are judged by the row's start once (each
// value read again from the line's start was quadratic: 40,000 values on one
// row took 8.9 s, 80,000 would take four times that). Bounds on CPU time, some
// ten times what a linear reading takes here.

const REPOSITORY = new Set([OWNER_MARK]);

describe("hostile repository: definitions made text and values made cells cost linear time", () => {
  it.each([
    ["1 MB of definitions in list items", "- [a]: b\n  [c]: d\n".repeat(60_000)],
    ["1 MB of unclosed labels", "[aaaaaaaa\n".repeat(100_000)],
    ["1 MB of one label", `[${"a".repeat(1_000_000)}`],
    ["1 MB of quoted definitions", `${"> ".repeat(1000)}[a]: b\n`.repeat(500)],
  ])("%s: under 5 s of CPU", async (_, text) => {
    const { cpuMs, value } = await cpuTimed(() => elementText(text, REPOSITORY));
    expect(value.length).toBeGreaterThan(text.length - 1);
    expect(cpuMs).toBeLessThan(5000);
  });

  it("80,000 values with a `|` and a line break on one row of your table: under 5 s of CPU", async () => {
    const value = markPrinted("x | y\nz");
    const row = `| a | b |\n|---|---|\n| ${`${value} | `.repeat(80_000)}\n`;
    const { cpuMs, value: placed } = await cpuTimed(() => placePrinted(row));
    expect(placed.split("\n")[2]?.startsWith("| x \\| y<br>z | x \\| y<br>z |")).toBe(true);
    expect(cpuMs).toBeLessThan(5000);
  });
});
