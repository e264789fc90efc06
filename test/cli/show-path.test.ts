import { describe, expect, it } from "vitest";
import { leavesFolder } from "../../src/_paths.js";
import { showPath } from "../../src/cli/commands/_show-path.js";

// A path is outside the working folder when its relative form is `..` or
// starts with `../`, not when it merely starts with two dots: `..foo`, a file
// whose name starts with two dots, is inside, and was shown as an absolute
// path as if it were elsewhere.

describe("showPath", () => {
  it("shows a path under cwd relative to it, a name that starts with two dots included", () => {
    expect(showPath("/w/p/..foo", "/w/p")).toBe("..foo");
    expect(showPath("/w/p/..x/AGENTS.md", "/w/p")).toBe("..x/AGENTS.md");
    expect(showPath("/w/p/src/a.md", "/w/p")).toBe("src/a.md");
  });

  it("shows a path outside cwd, or cwd itself, whole", () => {
    expect(showPath("/w/other/a.md", "/w/p")).toBe("/w/other/a.md");
    expect(showPath("/w", "/w/p")).toBe("/w");
    expect(showPath("/w/p", "/w/p")).toBe("/w/p");
  });
});

describe("leavesFolder", () => {
  it("is true for `..`, `../…` and an absolute path; false for a name that starts with two dots", () => {
    expect(["..", "../a", "/a", "..foo", "..foo/b", "a/..b", ""].map(leavesFolder)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});
