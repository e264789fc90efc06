import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// A tarball unpacked in the home folder (`~/dl/p`, no .git), reached through a link of the
// user's (`~/work` -> `~/dl/p`). From `p/src`, `-o ~/work/build/.claude/commands/prompt.md`:
// the folder it shares with the working folder was found on the paths as written, the home
// folder, which is the user's, so only the file's own folder was checked and the write went
// through the tarball's link `p/build` (exit 0). The path is now also judged as its folders
// lead: through `~/work` it is in `p`, and is checked from there.

function tarballInHome() {
  const root = tempDir();
  for (const dir of ["home/dl/p/src", "agent", "victim/.claude/commands", "elsewhere/deep"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  symlinkSync(join(root, "victim"), join(root, "home/dl/p/build"));
  symlinkSync(join(root, "home/dl/p"), join(root, "home/work"));
  return root;
}

describe("hostile-output-user-link: a path through the user's link into a tarball", () => {
  it("render -o ~/work/build/… from p/src is refused at the tarball's link, exit 2", async () => {
    const root = tarballInHome();
    const src = join(root, "home/dl/p/src");
    const argv = ["render", "-o", join(root, "home/work/build/.claude/commands/prompt.md")];
    const out = await cli(root, src, argv);
    expect([out.code, out.stderr]).toEqual([
      2,
      `sysprompt: --output: ${join(root, "home/dl/p/build")}: a symbolic link, not a folder: nothing is written through it\n`,
    ]);
    expect(existsSync(join(root, "victim/.claude/commands/prompt.md"))).toBe(false);
  });

  it("the user's own links are written through; ~/work/out/… is written in p, the folder made", async () => {
    const root = tarballInHome();
    symlinkSync(join(root, "elsewhere"), join(root, "home/notes"));
    const src = join(root, "home/dl/p/src");
    // ~/notes -> elsewhere: the home folder's link, the user's.
    const notes = await cli(root, src, ["render", "-o", join(root, "home/notes/deep/prompt.md")]);
    expect(notes.code).toBe(0);
    expect(existsSync(join(root, "elsewhere/deep/prompt.md"))).toBe(true);
    // ~/work -> p, then real folders: written in p, the missing folder made.
    const work = await cli(root, src, ["render", "-o", join(root, "home/work/out/prompt.md")]);
    expect(work.code).toBe(0);
    expect(existsSync(join(root, "home/dl/p/out/prompt.md"))).toBe(true);
  });
});
