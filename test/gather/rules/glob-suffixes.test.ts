import { describe, expect, it } from "vitest";
import { globMatcher, globSuffixes } from "../../../src/gather/rules/globs.js";
import { mayMatch } from "../../../src/hook/fast.js";

const GLOBS: string[][] = [
  ["*.py"],
  ["**/*.{ts,tsx}"],
  ["src/**/*.ts", "!src/gen/**"],
  ["docs/"],
  ["/README.md"],
  ["pkg/*.[jt]s"],
  ["file?.md"],
  ["Makefile"],
  ["*.TS"],
  ["a/b"],
  ["./lib/*.rs"],
  ["**/*.{md,mdx}", "*.txt"],
  [""],
];

const PATHS = [
  "a.py",
  "x/y/a.py",
  "a.py/inner.ts",
  "src/a.ts",
  "src/gen/a.ts",
  "src/a.tsx",
  "docs/guide/intro.md",
  "docs",
  "README.md",
  "sub/README.md",
  "pkg/a.js",
  "pkg/a.ts",
  "pkg/a.cs",
  "file1.md",
  "Makefile",
  "sub/Makefile",
  "A.ts",
  "a/b/c.txt",
  "lib/x.rs",
  "notes.txt",
  "x.mdx",
  "deep/er/path/with.many/segments.go",
];

describe("globSuffixes", () => {
  it("names the literal end each glob's last segment needs (lower case)", () => {
    expect(globSuffixes(["*.py"])).toEqual([".py"]);
    expect(globSuffixes(["**/*.{ts,tsx}"])).toEqual([".ts", ".tsx"]);
    expect(globSuffixes(["src/**/*.ts", "!src/gen/**"])).toEqual([".ts"]);
    expect(globSuffixes(["docs/", "Makefile", "*.MD"])).toEqual(["docs", "makefile", ".md"]);
    expect(globSuffixes([])).toEqual([]);
  });

  it("knows no test for a glob ending in a wildcard, an escape, or a non-ASCII end", () => {
    expect(globSuffixes(["src/**"])).toBeUndefined();
    expect(globSuffixes(["*.ts", "lib/*"])).toBeUndefined();
    expect(globSuffixes(["\\#notes.md"])).toBeUndefined();
    expect(globSuffixes(["*.é"])).toBeUndefined();
    const many = Array.from({ length: 70 }, (_, i) => `*.x${i}`);
    expect(globSuffixes(many)).toBeUndefined();
  });

  it("never rules out a path the matcher matches (every glob against every path)", () => {
    let matched = 0;
    for (const globs of GLOBS) {
      const matches = globMatcher(globs);
      const suffixes = globSuffixes(globs);
      const rule = { key: "r", base: "/p", ...(suffixes ? { suffixes } : {}) };
      for (const rel of PATHS) {
        if (matches(rel)) matched++;
        if (matches(rel))
          expect({ globs, rel, may: mayMatch(rule, `/p/${rel}`) }).toEqual({
            globs,
            rel,
            may: true,
          });
      }
    }
    // The pairs above are not all misses: the test would pass on nothing.
    expect(matched).toBeGreaterThan(20);
  });

  it("rules out what no glob can match", () => {
    const rule = (globs: string[]) => ({
      key: "r",
      base: "/p",
      suffixes: globSuffixes(globs) ?? [],
    });
    expect(mayMatch(rule(["*.py"]), "/p/src/a.ts")).toBe(false);
    expect(mayMatch(rule(["**/*.{ts,tsx}"]), "/p/docs/a.md")).toBe(false);
    // Outside the rule's folder: nothing.
    expect(mayMatch(rule(["*.ts"]), "/q/a.ts")).toBe(false);
    // A folder named like a file the glob wants may hold what it matches.
    expect(mayMatch(rule(["*.py"]), "/p/a.py/inner.ts")).toBe(true);
    expect(mayMatch(rule(["*.ts"]), "/p/A.TS")).toBe(true);
  });
});
