import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { heldLinks } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// kit46's walk split a link's target on `\` as well as `/`. On Linux `a\b` is one name: a kit's
// `base.md -> a\b/../../.ssh/id_rsa` (git stores both the folder `a\b` and the link) was judged as
// leading to the kit's own `.ssh/id_rsa`, while the system follows it to ~/.ssh/id_rsa. The door's
// real-path check still refused the read; the walk alone was wrong. Now a target is split as the
// system splits it (on `/`; on Windows on `\` too). Review rev47a F5 (low).

describe.skipIf(process.platform === "win32")(
  "hostile-kit-link-backslash: a link target's `a\\b` is one name, as the system takes it",
  () => {
    it("the kit's base.md -> a\\b/../../.ssh/id_rsa leads out of the kit, to your ~/.ssh/id_rsa", async () => {
      const root = realpathSync(tempDir());
      const home = join(root, "home");
      mkdirSync(join(home, ".ssh"), { recursive: true });
      writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET-MARKER\n");
      const kit = join(home, "prompt-kit");
      mkdirSync(join(kit, ".git"), { recursive: true });
      writeFileSync(join(kit, ".git", "HEAD"), "ref: refs/heads/main\n");
      mkdirSync(join(kit, "a\\b"));
      writeFileSync(join(kit, "a\\b", "keep"), "keep\n");
      symlinkSync("a\\b/../../.ssh/id_rsa", join(kit, "base.md"));
      mkdirSync(join(root, "project"));
      const walked = await heldLinks([join(root, "project"), home])(join(kit, "base.md"));
      expect(walked).toMatchObject({
        kind: "link-out",
        link: join(kit, "base.md"),
        repository: kit,
        leads: join(home, ".ssh", "id_rsa"),
      });
    });
  },
);
