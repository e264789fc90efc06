import { describe, expect, it } from "vitest";
import {
  addGitignore,
  ignoreCutDiagnostics,
  isIgnored,
  MAX_PATTERN_WEIGHT_TOTAL,
  newPatternBudget,
  patternWeight,
} from "../../src/_gitignore.js";
import { cpuTimed } from "../gather/_timed.js";

// `ignore` compiles a file's patterns into regular expressions the first
// times a path is tested against that file, synchronously, at a cost that
// grows with the patterns' length (wildcards most). Five ignore files of
// 2,000 lines of `*a*a…` (490 characters each, under the 1 MiB a file and the
// 10,000 patterns a walk) made `render --tree --deadline 1000` take 4.2 s,
// 8.1 s at the default deadline and 15.7 s and 836 MB without one (about 2 s
// a file, in one synchronous call). A walk now keeps patterns only up to a
// total weight (1 MiB): 1.2 s at --deadline 1000; the rest are cut with the
// usual warning.

/** One heavy ignore file, its lines told apart by `tag`. */
function heavyFile(tag: string): string {
  const lines = Array.from({ length: 2000 }, (_, i) => `${"*a".repeat(245)}*z${tag}${i}`);
  return `${lines.join("\n")}\n*.log\n`;
}

describe("hostile repository: ignore files of long wildcard patterns", () => {
  it("are kept only up to the walk's weight, with a warning, and their tests stay quick", async () => {
    const budget = newPatternBudget();
    let rules: ReturnType<typeof addGitignore>;
    let base = "";
    for (const tag of ["r", "s", "t", "u", "v"]) {
      rules = addGitignore(rules, heavyFile(tag), base, budget, `/p/${base}.gitignore`);
      base = base === "" ? "d" : `${base}/d`;
    }
    expect(budget.weightLeft).toBeGreaterThanOrEqual(0);
    // Each path is tested against every file on its way; the first tests compile.
    const { cpuMs, value: verdicts } = await cpuTimed(() =>
      ["d/d/d/d/x", "d/d/d/d/y", "d/d/d/d/z", "d/x.md"].map((path) => isIgnored(rules, path)),
    );
    expect(verdicts).toEqual([false, false, false, false]);
    // Before: about 9 s (2 s a file); the cut keeps a few hundred ms of compiling. CPU time,
    // not the clock's: the clock took 4.0 s at a load of 7 in a CI rehearsal (15:00 UTC).
    expect(cpuMs).toBeLessThan(2000);
    const codes = ignoreCutDiagnostics(budget.cuts).map((d) => [d.code, d.path]);
    expect(codes).toEqual([["ignore-patterns-cut", "/p/.gitignore"]]);
    // The first file is cut partway: what it kept weighs no more than the walk may.
    const first = budget.cuts[0];
    expect(first?.kept).toBeGreaterThan(0);
    expect(first?.dropped).toBeGreaterThan(0);
    expect(first?.kept ?? 0).toBeLessThan(2001);
  }, 60_000);

  it("weighs what real ignore files hold at a few KiB, far under the walk's weight", () => {
    const real = [
      "node_modules/",
      "dist/",
      "*.log",
      "!keep.log",
      "**/build/**",
      "/.env*",
      "[Bb]in/",
    ];
    const weight = real.reduce((n, p) => n + patternWeight(p), 0);
    expect(weight).toBeLessThan(200);
    expect(MAX_PATTERN_WEIGHT_TOTAL / weight).toBeGreaterThan(1000);
    const budget = newPatternBudget();
    const rules = addGitignore(undefined, real.join("\n"), "", budget, "/p/.gitignore");
    expect(budget.cuts).toEqual([]);
    expect(isIgnored(rules, "a/b.log")).toBe(true);
    expect(isIgnored(rules, "keep.log")).toBe(false);
  });
});
