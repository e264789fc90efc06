import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, commands, hostileProject, refused } from "./_output-link.js";

// Its snapshot case is in hostile-output-planted-git-slow.test.ts.

// A tarball (no .git at its top) that ships `src/.git`: an empty folder or a dangling link
// is enough. The nearest `.git` from `p/src` made `src` a repository of its own, so a path
// out of it was "yours" and checked at its own folder only: from `p/src`,
// `-o ../build/.claude/commands/prompt.md` wrote through the tarball's link `p/build` (exit 0).
// A path out of the repository is now checked from the folder it shares with the working
// folder, as without a .git.

describe("hostile-output-planted-git: a .git shipped in a tarball's subfolder", () => {
  it.each([
    ["an empty folder", (at: string) => mkdirSync(at)],
    ["a dangling link", (at: string) => symlinkSync("/nonexistent-sysprompt-git", at)],
  ])("src/.git as %s: render -o and export --out ../… are refused", async (_, plant) => {
    const root = hostileProject();
    rmSync(join(root, "p/.git"), { recursive: true });
    plant(join(root, "p/src/.git"));
    for (const argv of [
      ["render", "-o", "../build/.claude/commands/prompt.md"],
      ["render", "-o", join(root, "p/build/.claude/commands/prompt.md")],
      ["export", "--agent", "codex", "--out", "../build/.claude/commands/prompt.md"],
    ]) {
      const out = await cli(root, join(root, "p/src"), argv);
      const flag = argv[0] === "render" ? "--output" : "export";
      expect([out.code, out.stderr]).toEqual([2, refused(flag, root)]);
    }
    expect(commands(root)).toEqual([]);
  });
});
