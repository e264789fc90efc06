import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitExcludeFile } from "../../src/gather/git/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// fx102c (recorded in docs/trust.md): the exclude file's reader looked for the repository around a
// submodule with no ceiling (`ownGitFolders` in src/gather/git/_repository.ts: `nearestDotGit(up,
// undefined)`), past your home folder up to `/`: a repository above your home (`/home/.git`, a
// machine's `/.git`) whose module names `~/proj` back was the repository around `~/proj`, and its
// `modules/proj/info/exclude` that project's patterns. Now, from inside your home folder, the
// search has the home folder as its ceiling (`isBelowCeiling`, the rule of the searches up with a
// ceiling): a dotfiles home is still the repository around its own submodule (rev102a), nothing
// above it is.

/** A repository above the home folder whose module names `~/proj` back, and one outside home. */
function layout() {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  execFileSync("git", ["init", "-q", root]);
  const submodule = (top: string, path: string) => {
    const modules = join(top, ".git/modules", "m");
    execFileSync("git", ["init", "-q", "--bare", modules]);
    execFileSync("git", ["config", "-f", join(modules, "config"), "core.bare", "false"]);
    execFileSync("git", [
      "config",
      "-f",
      join(modules, "config"),
      "core.worktree",
      `../../../${path}`,
    ]);
    writeFileSync(join(modules, "info/exclude"), "salary.xlsx\n");
    const up = path
      .split("/")
      .map(() => "..")
      .join("/");
    writeFiles(join(top, path), { ".git": `gitdir: ${up}/.git/modules/m\n` });
    return modules;
  };
  submodule(root, "home/proj");
  const outer = join(root, "work");
  mkdirSync(outer, { recursive: true });
  execFileSync("git", ["init", "-q", outer]);
  const inWork = submodule(outer, "sub");
  return { home, proj: join(home, "proj"), sub: join(outer, "sub"), inWork };
}

describe("hostile folder: the repository around a submodule is not looked for above your home (fx102c)", () => {
  it("`~/proj` naming a module of a repository above your home: no repository around it", async () => {
    const { home, proj } = layout();
    const found = await gitExcludeFile(proj, undefined, home);
    expect(typeof found).toBe("object");
    expect(found !== undefined && typeof found === "object" && found.refused.code).toBe(
      "git-outside",
    );
  });

  it("a submodule of a superproject below the stop is found as before", async () => {
    const { home, sub, inWork } = layout();
    expect(await gitExcludeFile(sub, undefined, home)).toBe(join(inWork, "info", "exclude"));
  });
});
