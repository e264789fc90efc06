import { describe, expect, it } from "vitest";
import {
  addGitignore,
  ignoreCutDiagnostics,
  isIgnored,
  isIgnoredInKeptFolder,
  newPatternBudget,
} from "../../src/_gitignore.js";
import { globMatcher } from "../../src/gather/rules/globs.js";

// A glob rule's globs and a .gitignore are the repository's patterns, matched
// against paths the repository also makes. `a/**/` chained five times
// backtracks over a path's folders to the fifth power: seconds on one path 60
// folders deep (the review's chains ran 18 s to minutes, synchronously, past
// the deadline). A pattern keeps at most two `**`; one with more matches
// nothing, and an ignore file that holds one says so.

const CHAIN = "a/**/a/**/a/**/a/**/a/**/c";
/** 60 folders named `a`, then a file that the chain almost matches. */
const DEEP = `${"a/".repeat(60)}b.ts`;

/** Far above a few path tests on a loaded machine, far below what the chain costs. */
const BOUND_MS = 500;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe("hostile repository: globs and ignore patterns match in linear time", () => {
  it("a rule's glob of chained ** matches nothing, at once; the rule's other globs still match", () => {
    const matches = globMatcher([CHAIN, "src/**/*.ts", "x/**/**/y.md"]);
    const { value, ms } = timed(() => [DEEP, "src/p/q.ts", "x/k/y.md"].map(matches));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toEqual([false, true, true]);
  }, 120_000);

  it("a .gitignore line of chained ** is refused with a warning; its other lines still hide", () => {
    const budget = newPatternBudget();
    const rules = addGitignore(undefined, `${CHAIN}\n*.log\n`, "", budget, "/p/.gitignore");
    const { value, ms } = timed(() => [
      isIgnored(rules, DEEP),
      isIgnoredInKeptFolder(rules, DEEP),
      isIgnored(rules, "a/x.log"),
    ]);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toEqual([false, false, true]);
    expect(ignoreCutDiagnostics(budget.cuts).map((d) => [d.code, d.path])).toEqual([
      ["ignore-pattern-refused", "/p/.gitignore"],
    ]);
  }, 120_000);

  it("two ** still match, as real repositories write them, and cost little on a deep path", () => {
    const matches = globMatcher(["apps/**/src/**/*.ts", "a/**/a/**/c"]);
    const { value, ms } = timed(() =>
      ["apps/web/lib/src/ui/x.ts", "apps/web/x.ts", DEEP].map(matches),
    );
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toEqual([true, false, false]);
    const budget = newPatternBudget();
    const rules = addGitignore(undefined, "**/build/**\n", "", budget, "/p/.gitignore");
    expect([isIgnored(rules, "pkg/build/out.js"), isIgnored(rules, "pkg/src/x.js")]).toEqual([
      true,
      false,
    ]);
    expect(ignoreCutDiagnostics(budget.cuts)).toEqual([]);
  });

  it("three ** are refused: the first count past the bound", () => {
    expect(globMatcher(["a/**/b/**/c/**/d.ts"])("a/x/b/y/c/z/d.ts")).toBe(false);
    expect(globMatcher(["a/**/b/**/d.ts"])("a/x/b/y/d.ts")).toBe(true);
  });

  it("a nested .gitignore's chain is counted with the ** its folder adds", () => {
    const budget = newPatternBudget();
    const rules = addGitignore(undefined, "a/**/c\nb/**\n", "sub", budget, "/p/sub/.gitignore");
    expect(isIgnored(rules, "sub/a/x/c")).toBe(true);
    expect(isIgnored(rules, "sub/b/x")).toBe(true);
    expect(ignoreCutDiagnostics(budget.cuts)).toEqual([]);
  });
});
