import { describe, expect, it } from "vitest";
import { trimRuns } from "../../src/_text.js";
import { parseSubjects } from "../../src/gather/git/_parse.js";
import { globSuffixes } from "../../src/gather/rules/globs.js";
import { cpuMs } from "../_cpu.js";

// The trims on a repository's text that were regexes tried from every start of a run
// (`/\n+$/`, `/^\n+|\n+$/`, `/\/+$/`): quadratic on a long run that is not at the end
// (rev50b F4 and its sweep). trimRuns finds the run from the end, one step a character.

describe("trimRuns", () => {
  it("takes the run off the end, or both ends, and nothing else", () => {
    expect([
      trimRuns("a\n\n", "\n", "end"),
      trimRuns("\na\n", "\n", "end"),
      trimRuns("\n\na\nb\n", "\n", "both"),
      trimRuns("a\r\n\r\n", "\r\n", "end"),
      trimRuns("\n\n", "\n", "both"),
      trimRuns("", "/", "end"),
      trimRuns("src///", "/", "end"),
    ]).toEqual(["a", "\na", "a\nb", "a", "", "", "src"]);
  });

  it("is linear on 1 MiB of a run that does not end the text", () => {
    const run = `${"\n".repeat(1024 * 1024)}x`;
    const { result, ms } = cpuMs(() => [trimRuns(run, "\n", "both"), trimRuns(run, "\n", "end")]);
    expect(result).toEqual(["x", run]);
    expect(ms).toBeLessThan(200);
  });

  it("a git log's subjects and a rule's globs are trimmed without the quadratic scan", () => {
    const { result, ms } = cpuMs(() => [
      parseSubjects(`\nfix\n\0${"\n".repeat(200_000)}x\0`),
      globSuffixes([`src/${"/".repeat(500)}x.ts`, `${"/".repeat(510)}*`]),
    ]);
    expect(result).toEqual([["fix", "x"], undefined]);
    expect(ms).toBeLessThan(200);
  });
});
