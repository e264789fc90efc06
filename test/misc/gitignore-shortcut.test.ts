import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addGitignore,
  type Ignore,
  isIgnored,
  isIgnoredInKeptFolder,
} from "../../src/_gitignore.js";

// isIgnoredInKeptFolder answers "kept" without asking `ignore` when the path's
// name matches no pattern's last segment. For any rules and any path whose
// parent folders are not ignored (what a walk that never enters an ignored
// folder checks), it must say what `ignore` says.

const PATTERNS = [
  "node_modules/",
  "dist",
  "*.log",
  "!keep.log",
  "a/b",
  "/c",
  "**/d",
  "e/**",
  "f*",
  "[ab]x",
  "\\#x",
  "# comment",
  "",
  "x?y",
  "A.LOG",
  "build/",
  " t ",
  "a b",
  "*",
  "!*.md",
  "sub/",
  "*x*",
];
const NAMES = ["a", "b", "c", "d", "e", "dist", "x.log", "keep.log", "node_modules", "f1", "ax"];
const MORE_NAMES = ["pkg", "sub", "A.Log", "#x", "xzy", "t", "a b", "README.md", "build", "bx"];

const rulesArb = fc
  .array(
    fc.record({
      lines: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 6 }),
      base: fc.constantFrom("", "pkg", "pkg/sub"),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .map((files) =>
    files.reduce<Ignore | undefined>(
      (rules, f) => addGitignore(rules, f.lines.join("\n"), f.base),
      undefined,
    ),
  );

const pathArb = fc
  .record({
    segments: fc.array(fc.constantFrom(...NAMES, ...MORE_NAMES), { minLength: 1, maxLength: 4 }),
    dir: fc.boolean(),
  })
  .map(({ segments, dir }) => segments.join("/") + (dir ? "/" : ""));

function parentsKept(rules: Ignore | undefined, path: string): boolean {
  const segments = path.replace(/\/$/, "").split("/");
  for (let i = 1; i < segments.length; i++) {
    if (isIgnored(rules, `${segments.slice(0, i).join("/")}/`)) return false;
  }
  return true;
}

describe("isIgnoredInKeptFolder", () => {
  it("agrees with ignore on every path below kept folders", () => {
    fc.assert(
      fc.property(rulesArb, pathArb, (rules, path) => {
        fc.pre(parentsKept(rules, path));
        return isIgnoredInKeptFolder(rules, path) === isIgnored(rules, path);
      }),
      { numRuns: 5000 },
    );
  });

  it("matches names case-insensitively, as ignore does", () => {
    const rules = addGitignore(undefined, "*.LOG\nBuild/\n", "");
    expect(
      ["x.log", "build/", "BUILD/", "build"].map((p) => isIgnoredInKeptFolder(rules, p)),
    ).toEqual([true, true, true, false]);
  });
});
