import { describe, expect, it } from "vitest";
import { addGitignore, isIgnored, newPatternBudget } from "../../src/_gitignore.js";
import { globMatcher, MAX_GLOB_PATH_SEGMENTS } from "../../src/gather/rules/globs.js";

// The final attack review of issue 24, on the merged work: shapes that slipped
// past the bounds added since the second review.

/** 100 folders named `a`, then a file that the chains below almost match. */
const DEEP = `${"a/".repeat(100)}x`;
/** Far above a few path tests on a loaded machine, far below what a slipped chain costs. */
const BOUND_MS = 500;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe("hostile repository: the final review's attacks", () => {
  // `***` alone in a segment is compiled by `ignore` as `**`, but was not
  // counted as one: six of them took 100 s on one path 100 folders deep.
  const STARS3 = "a/***/a/***/a/***/a/***/a/***/a/***/c";
  const STARS4 = "a/****/a/****/a/****/c";

  it("a rule's glob chaining `***` is counted as `**` and matches nothing, at once", () => {
    const matches = globMatcher([STARS3, STARS4, "src/***/*.ts"]);
    const { value, ms } = timed(() => [DEEP, "src/p/q.ts"].map(matches));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toEqual([false, true]);
  }, 300_000);

  it("a .gitignore line chaining `***` is refused, at once", () => {
    const budget = newPatternBudget();
    const rules = addGitignore(undefined, `${STARS3}\n`, "", budget, "/p/.gitignore");
    const { value, ms } = timed(() => isIgnored(rules, DEEP));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toBe(false);
    expect(budget.cuts.map((c) => c.refused)).toEqual([1]);
  }, 300_000);
});

describe("hostile repository: a glob with two ** on a path thousands of folders deep", () => {
  // Two `**` are allowed, but `ignore` tests every parent folder of a path
  // too: on a path 1,900 folders deep (one a hook is handed, it need not
  // exist) one such glob took 7 s, synchronously, and `sysprompt hook` replied
  // after 9 s. A path deeper than the glob cap matches no glob, at once.
  it("a path past MAX_GLOB_PATH_SEGMENTS matches no glob; a path at the cap still does", () => {
    const matches = globMatcher(["a/**/a/**/c", "**/*.ts"]);
    const deep = `${"a/".repeat(1900)}x.ts`;
    const { value, ms } = timed(() => matches(deep));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(value).toBe(false);
    expect(matches(`${"a/".repeat(MAX_GLOB_PATH_SEGMENTS - 1)}x.ts`)).toBe(true);
    expect(matches(`${"a/".repeat(MAX_GLOB_PATH_SEGMENTS)}x.ts`)).toBe(false);
  }, 300_000);
});
