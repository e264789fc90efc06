import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configValue, coreBareSync, coreWorktreeSync } from "../../src/repo-files/git-file.js";
import { tempDir } from "../api/_helpers.js";

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

describe("coreWorktreeSync and coreBareSync read a git folder's config", () => {
  const read = (config: string) => {
    const dir = tempDir();
    writeFileSync(join(dir, "config"), config);
    return [coreWorktreeSync(dir), coreBareSync(dir)];
  };

  it("the forms git writes, the last value winning", () => {
    expect(read("[core]\n\tbare = false\n\tworktree = ../../../m\n")).toEqual([
      "../../../m",
      false,
    ]);
    expect(read('[core]\n\tworktree = "../../../m#x"\n')).toEqual(["../../../m#x", false]);
    expect(read("[core]\n\tbare = true\n")).toEqual([null, true]);
    expect(read("[core]\n\tbare\n\tworktree = a\n[core]\n\tworktree = b\n")).toEqual(["b", true]);
    expect(read('[core "x"]\n\tworktree = a\n')).toEqual([null, false]);
  });

  it("what git would refuse, or could set elsewhere: unsure", () => {
    expect(read("[core]\n\tworktree\n")[0]).toBe("unsure");
    expect(read('[core]\n\tworktree = "open\n')[0]).toBe("unsure");
    expect(read('[core]\n\tworktree = ""\n')[0]).toBe("unsure");
    expect(read("[include]\n\tpath = x\n[core]\n\tworktree = a\n")[0]).toBe("unsure");
    expect(read("[core]\n\tbare = maybe\n")[1]).toBe("unsure");
  });
});
