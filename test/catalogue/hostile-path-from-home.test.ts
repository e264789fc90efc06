import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isWithin } from "../../src/_paths.js";
import { projectFolders } from "../../src/gather/environment/index.js";
import { tempDir } from "../api/_helpers.js";

// Review rev53d F3: run from the home folder (`cd ~; sysprompt render --git --cwd ~/proj`), the
// process's folder, the home folder, was taken for the project's, so every PATH entry under it
// (`~/.nix-profile/bin`, `~/.local/bin`) was left out: git was "missing". The process's folder
// is not a project folder when it is the home folder or holds it; a home folder that is the
// checkout stays the project's.

/** `projectFolders` for `cwd` with this process in `from`. */
async function fromFolder(from: string, cwd: string, near: string[], home: string) {
  const saved = process.cwd();
  process.chdir(from);
  try {
    return await projectFolders([cwd], near, home);
  } finally {
    process.chdir(saved);
  }
}

describe("hostile-path-from-home: PATH entries under your home folder, run from it", () => {
  it("from the home folder (or a folder holding it), ~/.local/bin is not the project's", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const bin = join(home, ".local", "bin");
    const project = join(home, "proj");
    mkdirSync(bin, { recursive: true });
    mkdirSync(join(project, ".git"), { recursive: true });
    for (const from of [home, root]) {
      const folders = await fromFolder(from, project, [bin], home);
      expect(
        folders.some((f) => isWithin(bin, f)),
        from,
      ).toBe(false);
    }
    // From a folder of its own below the home folder, that folder is still left out.
    const other = join(home, "tools");
    mkdirSync(join(other, "bin"), { recursive: true });
    const folders = await fromFolder(other, project, [join(other, "bin")], home);
    expect(folders.some((f) => isWithin(join(other, "bin"), f))).toBe(true);
  });

  it("a home folder that is the checkout stays the project's", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const bin = join(home, "bin");
    mkdirSync(join(home, ".git"), { recursive: true });
    mkdirSync(join(home, "src"), { recursive: true });
    mkdirSync(bin);
    const folders = await fromFolder(home, join(home, "src"), [bin], home);
    expect(folders.some((f) => isWithin(bin, f))).toBe(true);
  });
});
