import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_DEADLINE, projectReach, readRepoText } from "../../src/repo-files/index.js";
import { projectReachSync, readRepoTextSync } from "../../src/repo-files/read-sync.js";
import { tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT, NOBODY, sharedFolder } from "./_nobody.js";

// Another user swaps your folder for theirs in a folder anyone may write to,
// between two reads of one step (review rev66a F1): your clone `share/proj`
// on a 0777 share (no sticky bit), where anyone may rename what is in it.
// The planted verdict of `share/proj` was kept by path for the whole reach,
// so the files read after the swap were the other user's, read as yours (3
// renders in 30 under a blind rename loop). Each entry in a folder anyone may
// write to is looked up again after each open. The tests run as root:
// `nobody` (uid 65534) is played by handing that user the swapped-in folder.

function share() {
  const root = tempDir();
  const shared = sharedFolder(root, "share", 0o777);
  const proj = join(shared, "proj");
  mkdirSync(join(proj, ".git"), { recursive: true });
  writeFileSync(join(proj, ".git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(proj, "a.md"), "mine a\n");
  writeFileSync(join(proj, "b.md"), "mine b\n");
  const evil = join(shared, "evil");
  mkdirSync(evil);
  writeFileSync(join(evil, "b.md"), "EVIL-PLANTED b\n");
  const home = join(root, "home");
  mkdirSync(home);
  return { shared, proj, evil, home };
}

/** `evil` takes `proj`'s place (yours moved aside), as `mv` in the share does. */
function swap(s: { shared: string; proj: string; evil: string }) {
  renameSync(s.proj, join(s.shared, "mine.tmp"));
  renameSync(s.evil, s.proj);
}

const FOREIGN = (proj: string, shared: string) =>
  `not read: the folder ${proj} belongs to another user (uid ${NOBODY}) and lies in ${shared}, a folder anyone may write to (world-writable), so nothing in it is the repository's`;

describe("catalogue: a folder swapped by another user mid-render is not read as yours", () => {
  it.runIf(IS_ROOT)(
    "planted-swap-same-reach: after share/proj is replaced by another user's folder, the same reach refuses its files (needs root)",
    async () => {
      const s = share();
      giveAway(s.evil);
      const reach = await projectReach({
        signal: NO_DEADLINE,
        start: s.proj,
        home: s.home,
        trusted: true,
      });
      const a = await readRepoText(join(s.proj, "a.md"), { reach });
      expect(a.ok && a.text).toBe("mine a\n");
      swap(s);
      const b = await readRepoText(join(s.proj, "b.md"), { reach });
      expect(b.ok).toBe(false);
      expect(b.ok ? [] : b.diagnostics).toEqual([
        {
          level: "warning",
          code: "file-foreign-owner",
          message: FOREIGN(s.proj, s.shared),
          path: s.proj,
        },
      ]);
    },
  );

  it.runIf(IS_ROOT)(
    "planted-swap-sync-twin: the door's synchronous twin looks the entry up again too (needs root)",
    () => {
      const s = share();
      giveAway(s.evil);
      const reach = projectReachSync({ start: s.proj, home: s.home });
      const a = readRepoTextSync(join(s.proj, "a.md"), { reach });
      expect(a.ok && a.text).toBe("mine a\n");
      swap(s);
      const b = readRepoTextSync(join(s.proj, "b.md"), { reach });
      expect(b.ok ? b.text : b.diagnostics.map((d) => d.message)).toEqual([
        FOREIGN(s.proj, s.shared),
      ]);
    },
  );

  it("planted-swap-your-own: a folder of yours that replaced yours is read, as a fresh look-up reads it", async () => {
    const s = share();
    const reach = await projectReach({
      signal: NO_DEADLINE,
      start: s.proj,
      home: s.home,
      trusted: true,
    });
    const a = await readRepoText(join(s.proj, "a.md"), { reach });
    expect(a.ok && a.text).toBe("mine a\n");
    // Yours too (not handed to nobody): the verdict a fresh look-up gives is "yours".
    swap(s);
    const b = await readRepoText(join(s.proj, "b.md"), { reach });
    expect(b.ok && b.text).toBe("EVIL-PLANTED b\n");
  });
});
