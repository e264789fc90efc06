import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, commands, hostileProject, refused } from "./_output-link.js";

// A project without .git (a tarball, a CI artifact) with the home folder inside it
// (`HOME=$PWD/.home`, as debhelper compat 13 and many CI jobs set it). From `p/src`,
// `-o ../build/.claude/commands/prompt.md` is checked from the folder it shares with the
// working folder, `p`; that folder was let off because it holds the home folder, as if it were
// the user's own, so the write went through the tarball's link `p/build` (exit 0), while the
// same with HOME outside the project was refused. Only the home folder and what lies above it,
// from a working folder in the home folder, are the user's: `p` holds `.home` beside `src`.

describe("hostile-output-home-in-tarball: HOME inside a project without .git", () => {
  it.each([
    ["render -o ../…", ["render", "-o", "../build/.claude/commands/prompt.md"]],
    ["render -o absolute", ["render", "-o", "ABS/p/build/.claude/commands/prompt.md"]],
    [
      "export --out ../…",
      ["export", "--agent", "codex", "--out", "../build/.claude/commands/prompt.md"],
    ],
  ])("%s from p/src with HOME=p/.home is refused, exit 2", async (_, argv) => {
    const root = hostileProject();
    rmSync(join(root, "p/.git"), { recursive: true });
    mkdirSync(join(root, "p/.home"));
    const args = argv.map((a) => a.replace("ABS", root));
    const out = await cli(root, join(root, "p/src"), args, { home: join(root, "p/.home") });
    const flag = args[0] === "render" ? "--output" : "export";
    expect([out.code, out.stderr]).toEqual([2, refused(flag, root)]);
    expect(commands(root)).toEqual([]);
  });

  it("a path beside the project through real folders is written, its missing folder made", async () => {
    // The shared folder is checked, not refused: `elsewhere` is a real folder.
    const root = hostileProject();
    rmSync(join(root, "p/.git"), { recursive: true });
    mkdirSync(join(root, "p/.home"));
    const target = join(root, "elsewhere/deep/prompt.md");
    const out = await cli(root, join(root, "p/src"), ["render", "-o", target], {
      home: join(root, "p/.home"),
    });
    expect(out.code).toBe(0);
    expect(existsSync(target)).toBe(true);
  });
});
