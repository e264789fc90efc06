import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliAt, cliProject } from "./_cli-at.js";

// rev64d F1: `render -o out/` and `-o out.md/.` wrote a regular FILE `out` / `out.md` (exit 0,
// "wrote out/"): the path was resolved before any check, which drops the trailing `/` and `/.`.
// A path ending in a separator, `.` or `..` names a folder (POSIX: `open("out/", O_CREAT)` is
// EISDIR): refused as typed, exit 2, nothing written.

describe("hostile-output-folder-spelling: an output spelled as a folder is refused", () => {
  it.each([
    ["render", "-o", "out/"],
    ["render", "-o", "out.md/."],
    ["render", "-o", "sub/.."],
    ["export", "--agent", "codex", "--out", "out/"],
    ["export", "--agent", "codex", "--out", "out.md/."],
  ])("%s %s %s …: exit 2, names a folder, nothing written", async (...argv) => {
    const { p, home } = cliProject();
    const { code, out, err } = await cliAt(argv, p, home);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err).toContain("names a folder");
    expect(existsSync(join(p, "out"))).toBe(false);
    expect(existsSync(join(p, "out.md"))).toBe(false);
  });

  it("out.md, ./out.md and sub/out.md are written", async () => {
    const { p, home } = cliProject();
    mkdirSync(join(p, "sub"));
    for (const name of ["out.md", "./out2.md", "sub/out.md", "..out.md"]) {
      const { code } = await cliAt(["render", "-o", name], p, home);
      expect(code, name).toBe(0);
      expect(existsSync(join(p, name)), name).toBe(true);
    }
  });
});
