import { existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli, commands, hostileProject, refusal, refused } from "./_output-link.js";

// Its watch and snapshot cases are in hostile-output-link-above-slow.test.ts.

// A file the user names for output (`render -o`, `export --out`, `watch --export
// --out`) is written never through a link of the project's. The check ran from
// the working folder down, or, for a path not under it, at the file's own folder
// only: from `p/src`, `-o ../build/.claude/commands/prompt.md` with the
// repository's `build` a link to the home folder wrote ~/.claude/commands/prompt.md
// (a slash command of the user's agent), and so did the same path written
// absolute. Now a path into the working folder's project is checked from the
// project's root down, however it is spelled.

describe("hostile-output-link-above: a project's link above the output file's folder", () => {
  it.each([
    ["render -o ../… from a subfolder", ["render", "-o", "../build/.claude/commands/prompt.md"]],
    [
      "render -o with the absolute path",
      ["render", "-o", "ABS/p/build/.claude/commands/prompt.md"],
    ],
    [
      "export --out ../… from a subfolder",
      ["export", "--agent", "codex", "--out", "../build/.claude/commands/prompt.md"],
    ],
    [
      "export --out with the absolute path",
      ["export", "--agent", "codex", "--out", "ABS/p/build/.claude/commands/prompt.md"],
    ],
  ])("%s is refused, exit 2, and nothing is written in the home folder", async (_, argv) => {
    const root = hostileProject();
    const args = argv.map((a) => a.replace("ABS", root));
    const out = await cli(root, join(root, "p/src"), args);
    const flag = args[0] === "render" ? "--output" : "export";
    expect([out.code, out.stderr]).toEqual([2, refused(flag, root)]);
    expect(commands(root)).toEqual([]);
  });

  it.each([
    ["render -o ../…", ["render", "-o", "../build/.claude/commands/prompt.md"]],
    ["render -o absolute", ["render", "-o", "ABS/p/build/.claude/commands/prompt.md"]],
    [
      "export --out ../…",
      ["export", "--agent", "codex", "--out", "../build/.claude/commands/prompt.md"],
    ],
  ])(
    "with HOME inside the checkout (p/.home, as in CI), %s from a subfolder is refused",
    async (_, argv) => {
      // The repository holds the home folder, below its root: the checkout is still the project's
      // (as for git's global config), not narrowed to the working folder as a dotfiles repository is.
      const root = hostileProject();
      mkdirSync(join(root, "p/.home"));
      const args = argv.map((a) => a.replace("ABS", root));
      const out = await cli(root, join(root, "p/src"), args, { home: join(root, "p/.home") });
      const flag = args[0] === "render" ? "--output" : "export";
      expect([out.code, out.stderr]).toEqual([2, refused(flag, root)]);
      expect(commands(root)).toEqual([]);
    },
  );

  it("a project without .git (a tarball): a path out of the working folder is checked from the folder both share", async () => {
    // Nothing tells the tarball's extent: from p/src, ../build/… is checked from p, as it is from p.
    const root = hostileProject();
    rmSync(join(root, "p/.git"), { recursive: true });
    for (const argv of [
      ["render", "-o", "../build/.claude/commands/prompt.md"],
      ["export", "--agent", "codex", "--out", join(root, "p/build/.claude/commands/prompt.md")],
    ]) {
      const out = await cli(root, join(root, "p/src"), argv);
      const flag = argv[0] === "render" ? "--output" : "export";
      expect([out.code, out.stderr]).toEqual([2, refused(flag, root)]);
    }
    expect(commands(root)).toEqual([]);
    // A folder shared only at the home folder: the home's own links are the user's, written through.
    mkdirSync(join(root, "home/dl/t/src"), { recursive: true });
    mkdirSync(join(root, "elsewhere/deep"));
    symlinkSync(join(root, "elsewhere"), join(root, "home/notes"));
    const src = join(root, "home/dl/t/src");
    const mine = await cli(root, src, ["render", "-o", join(root, "home/notes/deep/prompt.md")]);
    expect(mine.code).toBe(0);
    expect(existsSync(join(root, "elsewhere/deep/prompt.md"))).toBe(true);
  });

  it("a path through the user's own link to the checkout is judged on the real folders", async () => {
    // ~/work -> the checkout (the user's link): `-o <link>/build/…` is still into the project.
    const root = hostileProject();
    symlinkSync(join(root, "p"), join(root, "work"));
    const out = await cli(root, join(root, "p/src"), [
      "render",
      "-o",
      join(root, "work/build/.claude/commands/prompt.md"),
    ]);
    expect([out.code, out.stderr]).toEqual([2, `sysprompt: --output: ${refusal(root)}\n`]);
    expect(commands(root)).toEqual([]);
  });

  it("a repository nested in the project (a submodule, a planted .git) does not hide its root", async () => {
    // The nearest `.git` from `p/src` is `p/src`'s own: `../build` is still into the repository `p`.
    const root = hostileProject();
    mkdirSync(join(root, "p/src/.git"));
    const out = await cli(root, join(root, "p/src"), [
      "render",
      "-o",
      "../build/.claude/commands/prompt.md",
    ]);
    expect([out.code, out.stderr]).toEqual([2, `sysprompt: --output: ${refusal(root)}\n`]);
    expect(commands(root)).toEqual([]);
  });

  it("a path into the project of the render's --cwd, run from elsewhere, is judged the same", async () => {
    const root = hostileProject();
    const target = join(root, "p/build/.claude/commands/prompt.md");
    const elsewhere = join(root, "elsewhere");
    for (const argv of [
      ["render", "--cwd", "../p/src", "-o", target],
      ["export", "--cwd", "../p/src", "--agent", "codex", "--out", target],
    ]) {
      const out = await cli(root, elsewhere, argv);
      const flag = argv[0] === "render" ? "--output" : "export";
      expect([out.code, out.stderr]).toEqual([2, refused(flag, root)]);
    }
    expect(commands(root)).toEqual([]);
  });

  it("paths of the user's own are written; a missing folder into the project is made", async () => {
    const root = hostileProject();
    const src = join(root, "p/src");
    // Into the project through real folders: written, the missing folders made (before, only
    // a path under the working folder had them made; a `../` one was refused for the missing folder).
    expect((await cli(root, src, ["render", "-o", "../out/prompt.md"])).code).toBe(0);
    expect(existsSync(join(root, "p/out/prompt.md"))).toBe(true);
    // Out of the project: the file's own folder is checked, as always.
    const elsewhere = join(root, "elsewhere/prompt.md");
    expect((await cli(root, src, ["render", "-o", elsewhere])).code).toBe(0);
    expect(existsSync(elsewhere)).toBe(true);
  });

  it("a project that is the home folder keeps the working folder as its root", async () => {
    // A dotfiles repository: ~ is the project, and its links (~/bin -> elsewhere) are the user's own.
    const root = tempDir();
    for (const dir of ["home/.git", "home/src", "agent", "elsewhere/deep"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    symlinkSync(join(root, "elsewhere"), join(root, "home/bin"));
    const out = await cli(root, join(root, "home/src"), ["render", "-o", "../bin/deep/prompt.md"]);
    expect(out.code).toBe(0);
    expect(existsSync(join(root, "elsewhere/deep/prompt.md"))).toBe(true);
    // Under the working folder, no link on the way, as always.
    symlinkSync(join(root, "elsewhere"), join(root, "home/src/link"));
    const inside = await cli(root, join(root, "home/src"), ["render", "-o", "link/prompt.md"]);
    expect(inside.code).toBe(2);
  });
});
