import { describe, expect, it } from "vitest";
import {
  didYouMean,
  editDistance,
  MAX_SUGGESTED_NAME_LENGTH,
  nearMatches,
} from "../../src/_suggest.js";
import { escapeControls } from "../../src/_text.js";

const SECTION_KEYS = ["order", "tag", "base", "volatile", "enabled", "description", "maxTokens"];

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and a swap of neighbours as one edit each", () => {
    expect(
      [
        ["enabled", "enabled"],
        ["enabeld", "enabled"],
        ["enable", "enabled"],
        ["enabledd", "enabled"],
        ["enxbled", "enabled"],
        ["", "abc"],
        ["order", "tag"],
      ].map(([a = "", b = ""]) => editDistance(a, b)),
    ).toEqual([0, 1, 1, 1, 1, 3, 5]);
  });

  it("stops past the limit with limit + 1", () => {
    expect([editDistance("order", "description", 2), editDistance("abcdef", "uvwxyz", 2)]).toEqual([
      3, 3,
    ]);
  });
});

describe("nearMatches / didYouMean", () => {
  it("finds the key a typo was meant as, ignoring case, closest first", () => {
    expect({
      enabeld: nearMatches("enabeld", SECTION_KEYS),
      Enabled: nearMatches("Enabled", SECTION_KEYS),
      odrer: nearMatches("odrer", SECTION_KEYS),
      maxtoken: nearMatches("maxtoken", SECTION_KEYS),
      colour: nearMatches("colour", SECTION_KEYS),
      x: nearMatches("x", SECTION_KEYS),
    }).toEqual({
      enabeld: ["enabled"],
      Enabled: ["enabled"],
      odrer: ["order"],
      maxtoken: ["maxTokens"],
      colour: [],
      x: [],
    });
  });

  it("names one, two or three matches in a sentence, or nothing", () => {
    expect([
      didYouMean("enabeld", SECTION_KEYS),
      didYouMean("tab", ["tag", "tap"]),
      didYouMean("ab", ["aa", "ac", "ad", "ae"]),
      didYouMean("colour", SECTION_KEYS),
    ]).toEqual([
      'did you mean "enabled"?',
      'did you mean "tag" or "tap"?',
      'did you mean "aa", "ac" or "ad"?',
      undefined,
    ]);
  });

  it("costs nothing on a name that is far too long to be a typo", () => {
    const long = "e".repeat(MAX_SUGGESTED_NAME_LENGTH + 1);
    const started = performance.now();
    expect(
      nearMatches(
        long,
        Array.from({ length: 10_000 }, () => long),
      ),
    ).toEqual([]);
    // Generous: the work skipped would take seconds.
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("names from files are printed without terminal escapes", () => {
  it("a near match with control characters is shown escaped", () => {
    expect(didYouMean("name", ["nam\u001b"], (c) => `/skill:${c}`)).toBe(
      "did you mean /skill:nam\\u001b?",
    );
    expect(escapeControls("a\u0007b\u009bc\u00e9", "name")).toBe("a\\u0007b\\u009bc\u00e9");
  });

  it("a near match is escaped as every printed name is: bidi overrides, separators, tab and line feed too", () => {
    expect(didYouMean("name", ["nam\u202e", "nam\u2028"])).toBe(
      'did you mean "nam\\u202e" or "nam\\u2028"?',
    );
    expect(didYouMean("name", ["nam\t"], (c) => c)).toBe("did you mean nam\\u0009?");
    expect(didYouMean("name", ["nam\n"], (c) => c)).toBe("did you mean nam\\u000a?");
  });
});
