import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processRelativeOnTheWay, sharedOnTheWay } from "../../src/_shared-way.js";
import { childPathEntries } from "../../src/gather/environment/system-binary.js";
import { tempDir } from "../api/_helpers.js";
import { IS_ROOT, NOBODY } from "./_nobody.js";

// A PATH entry `home/lnk/../bin`, `lnk` a link of yours into another user's
// `evil/sub`: the walk from `/` down folded `..` lexically before it started
// (`resolve`), so it judged the missing `home/bin` and let the entry through,
// while the kernel, and so a child handed that PATH (xdg-open's `gio`), looks
// names up in `evil/bin`, the other user's. The same spelling spelt
// `evil/bin` was refused. The walk now takes each `..` after the links
// before it, as the kernel does (review rev73a F1).

function layout() {
  const root = tempDir();
  chmodSync(root, 0o755);
  const home = join(root, "home");
  const evil = join(root, "evil");
  mkdirSync(home);
  mkdirSync(join(evil, "sub"), { recursive: true });
  mkdirSync(join(evil, "bin"));
  writeFileSync(join(evil, "bin", "gio"), "#!/bin/sh\necho evil\n");
  chmodSync(join(evil, "bin", "gio"), 0o755);
  symlinkSync(join(evil, "sub"), join(home, "lnk"));
  return { root, home, evil };
}

describe.runIf(process.platform === "linux")(
  "hostile PATH: `..` after a link is taken where the kernel takes it (review rev73a F1)",
  () => {
    it.runIf(IS_ROOT)(
      "an entry `lnk/../bin` into another user's folder is not handed to children",
      async () => {
        const { home, evil } = layout();
        chownSync(evil, NOBODY, NOBODY);
        chownSync(join(evil, "sub"), NOBODY, NOBODY);
        chownSync(join(evil, "bin"), NOBODY, NOBODY);
        const dotdot = `${join(home, "lnk")}/../bin`;
        const kept = await childPathEntries(
          { PATH: `${dotdot}:${join(evil, "bin")}:/usr/bin:/bin` },
          { home, exclude: [] },
        );
        expect(kept).not.toContain(dotdot);
        expect(kept).not.toContain(join(evil, "bin"));
        expect(kept).toContain("/usr/bin");
        expect(await sharedOnTheWay(dotdot, { folder: "lookups", owners: true })).toContain(evil);
      },
    );

    it("a 0777 folder reached by `lnk/..` is judged as that folder", async () => {
      const { home, evil } = layout();
      chmodSync(evil, 0o777);
      expect(await sharedOnTheWay(`${home}/lnk/../bin`, { folder: "lookups" })).toContain(
        `${evil}: writable by other users`,
      );
      // Spelt without the link, your own folder: nothing to say.
      expect(await sharedOnTheWay(`${home}/x/../`, { folder: "lookups" })).toBeUndefined();
    });

    it("a link into /proc followed by `..` is process-relative", () => {
      const { home } = layout();
      symlinkSync("/proc/self/cwd/sub", join(home, "here"));
      expect(processRelativeOnTheWay(`${home}/here/../out.md`)).toBe("/proc");
    });
  },
);
