import { chmodSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  NO_DEADLINE,
  projectReach,
  projectReachSync,
  readRepoText,
  readRepoTextSync,
} from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT, put, sharedFolder } from "./_nobody.js";

// The door's synchronous twin (a skill's expansion, loadPromptTemplatesSync)
// runs the async door's checks, from the same functions (review rev64a F2):
// another user's file or folder in a folder anyone may write to, another
// user's link on the way, and a project root of yours only (another user's
// `.git` in a shared folder is none; a `.hg` of yours is one). Root plays
// `nobody` (uid 65534) by handing it the planted entries.

/** What each twin answers for `path`, in the project holding `start`: read, or the door's refusal. */
async function bothTwins(start: string, home: string, path: string) {
  const reach = await projectReach({ signal: NO_DEADLINE, start, home, trusted: true });
  const syncReach = projectReachSync({ start, home });
  const verdict = (read: Awaited<ReturnType<typeof readRepoText>>) =>
    read.ok ? "read" : read.reason === "refused" ? read.refusal : read.reason;
  return {
    roots: [reach.realRoot, syncReach.realRoot],
    async: verdict(await readRepoText(path, { reach })),
    sync: verdict(readRepoTextSync(path, { reach: syncReach })),
  };
}

describe("catalogue: the door's synchronous twin refuses what the door refuses", () => {
  it.runIf(IS_ROOT)(
    "sync-twin-planted: another user's file, folder and link in a 0777 folder are refused by both twins alike (needs root)",
    async () => {
      const root = tempDir();
      const home = join(root, "home");
      mkdirSync(home);
      const w = sharedFolder(root, "w", 0o777);
      put(join(w, "x.md"), "PLANTED-FILE\n");
      giveAway(join(w, "x.md"));
      put(join(w, ".pi/skills/s/SKILL.md"), "PLANTED-FOLDER\n");
      giveAway(join(w, ".pi"));
      put(join(w, "mine/notes.md"), "YOURS\n");
      symlinkSync("mine/notes.md", join(w, "l.md"));
      giveAway(join(w, "l.md"));
      for (const file of ["x.md", ".pi/skills/s/SKILL.md", "l.md"]) {
        const got = await bothTwins(w, home, join(w, file));
        expect(got.async, file).toMatchObject({ code: "file-foreign-owner" });
        expect(got.sync, file).toEqual(got.async);
      }
      // Your own file beside them is read by both.
      const own = await bothTwins(w, home, join(w, "mine/notes.md"));
      expect([own.async, own.sync]).toEqual(["read", "read"]);
    },
  );

  it.runIf(IS_ROOT)(
    "sync-twin-root: another user's .git in a shared folder is no root for the twin either, and your .hg is one (needs root)",
    async () => {
      const root = tempDir();
      const home = join(root, "home");
      mkdirSync(home);
      const w = join(root, "w");
      put(join(w, ".git/HEAD"), "ref: refs/heads/main\n");
      chmodSync(w, 0o1777);
      giveAway(join(w, ".git"));
      const plain = join(w, "scratch");
      mkdirSync(plain);
      expect((await bothTwins(plain, home, join(plain, "a.md"))).roots).toEqual([plain, plain]);
      const hg = join(root, "hgclone");
      mkdirSync(join(hg, ".hg"), { recursive: true });
      mkdirSync(join(hg, "sub"));
      expect((await bothTwins(join(hg, "sub"), home, join(hg, "a.md"))).roots).toEqual([hg, hg]);
    },
  );
});
