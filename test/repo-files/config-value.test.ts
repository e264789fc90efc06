import { describe, expect, it } from "vitest";
import { configValue } from "../../src/repo-files/git-file.js";

// A config value read as git 2.x's `git config -f` reads it (checked by hand
// against git; review rev42a F6: git quotes `core.worktree` for a submodule
// whose path holds `#` or `;`).
describe("configValue reads a one-line config value as git does", () => {
  const cases: [string, string | undefined][] = [
    ["../../../mid", "../../../mid"],
    ['"../../../m#x"', "../../../m#x"],
    ['"../../../a;b" ; a comment', "../../../a;b"],
    ["  a b  # c", "a b"],
    ['"a\\"b" ; x', 'a"b'],
    ['"a\\\\b"', "a\\b"],
    ["x\\ty", "x\ty"],
    ['"sp " tail ', "sp  tail"],
    ["../../../m x", "../../../m x"],
    // What git refuses, and a value running on to the next line: unsure.
    ['"un', undefined],
    ["a\\q", undefined],
    ["a\\", undefined],
  ];
  for (const [text, value] of cases) {
    it(`${JSON.stringify(text)} -> ${JSON.stringify(value)}`, () => {
      expect(configValue(text)).toBe(value);
    });
  }
});
