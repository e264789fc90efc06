import { describe, expect, it } from "vitest";
import { asGitMatches, caseFolded } from "../../src/_gitignore.js";

// The rewrites that make `ignore` read a line as git does (rev71a F3, F4); the
// catalogue case hostile-ignore-empty-cr-fold-scale and the wildmatch fuzz compare with git itself.
describe("caseFolded: git's WM_CASEFOLD reading, matched case by case on a lowercased path", () => {
  it("lowercases letters outside classes, keeps escaped letters and single members as written", () => {
    expect(caseFolded("Secrets.YML")).toBe("secrets.yml");
    expect(caseFolded("[!S]ecrets.yml")).toBe("[!S]ecrets.yml");
    expect(caseFolded("![S]ecrets.yml")).toBe("![S]ecrets.yml");
    expect(caseFolded("\\Secrets")).toBe("\\Secrets");
    expect(caseFolded("*.py[cod]")).toBe("*.py[cod]");
  });

  it("adds to each range, right after it, the lowercase letters of its uppercase ones", () => {
    expect(caseFolded("[A-C]x")).toBe("[A-Ca-c]x");
    expect(caseFolded("[!A-B]")).toBe("[!A-Ba-b]");
    expect(caseFolded("[Z-a]")).toBe("[Z-az-z]");
    expect(caseFolded("[A-Z+-]")).toBe("[A-Za-z+-]");
    expect(caseFolded("[\\A-\\C]")).toBe("[\\A-\\Ca-c]");
    expect(caseFolded("[[:upper:]]")).toBe("[[:upper:]a-z]");
    // An out-of-order range matches nothing, and a range of no letter gains none.
    expect(caseFolded("[C-A]")).toBe("[C-A]");
    expect(caseFolded("[0-9]")).toBe("[0-9]");
  });

  it("leaves a line with an unclosed class, which matches nothing either way", () => {
    expect(caseFolded("Ab[C")).toBe("Ab[C");
  });
});

describe("asGitMatches: a last CR git keeps reaches `ignore` as a class it cannot drop", () => {
  it("writes a plain or escaped last CR as [\\r]", () => {
    expect(asGitMatches("!secrets.yml\r")).toEqual(["!secrets.yml[\r]"]);
    expect(asGitMatches("secrets.yml\\\r")).toEqual(["secrets.yml[\r]"]);
    expect(asGitMatches("a/b\r")).toEqual(["a/b[\r]"]);
    expect(asGitMatches("\r")).toEqual(["[\r]"]);
  });

  it("leaves a CR inside an unclosed class, and a CR before the end", () => {
    expect(asGitMatches("secrets.ym[l\r")).toEqual(["secrets.ym[l\r"]);
    expect(asGitMatches("a\rb")).toEqual(["a\rb"]);
  });
});
