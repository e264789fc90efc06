import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sharedOnTheWay } from "../../src/_shared-way.js";
import { tempDir } from "../api/_helpers.js";

// The one walk from `/` down (review rev71d F1, F2, F4): every folder a look-up
// of a path passes through, by the path as written and each link on its way.

describe.runIf(process.getuid !== undefined)("sharedOnTheWay", () => {
  function tree() {
    const root = tempDir();
    mkdirSync(join(root, "a", "tools", "bin"), { recursive: true });
    writeFileSync(join(root, "a", "tools", "bin", "git"), "");
    return root;
  }

  it("says a folder others may write above the path, however far up", async () => {
    const root = tree();
    const git = join(root, "a", "tools", "bin", "git");
    expect(await sharedOnTheWay(git)).toBeUndefined();
    chmodSync(join(root, "a"), 0o777);
    expect(await sharedOnTheWay(git)).toBe(
      `${join(root, "a")}: writable by other users (mode 0777)`,
    );
  });

  it("follows each link on the way: a link in a shared folder, and the folders its target passes", async () => {
    const root = tree();
    const share = join(root, "share");
    mkdirSync(share);
    symlinkSync(join(root, "a", "tools", "bin"), join(share, "bin"));
    symlinkSync("../share/bin", join(root, "a", "rel"));
    expect(await sharedOnTheWay(join(share, "bin", "git"))).toBeUndefined();
    chmodSync(share, 0o777);
    expect(await sharedOnTheWay(join(share, "bin", "git"))).toMatch(/share: writable by other/);
    // A relative link whose target passes through the shared folder.
    expect(await sharedOnTheWay(join(root, "a", "rel", "git"))).toMatch(/share: writable by other/);
  });

  it("a sticky folder of yours: passed through, and a folder written in, but no PATH entry", async () => {
    const root = tree();
    chmodSync(join(root, "a"), 0o1777);
    expect(await sharedOnTheWay(join(root, "a", "tools", "bin", "git"))).toBeUndefined();
    expect(await sharedOnTheWay(join(root, "a"), { folder: "written" })).toBeUndefined();
    expect(await sharedOnTheWay(join(root, "a"), { folder: "lookups" })).toMatch(/mode 1777/);
  });

  it("a loop of links is refused, a missing entry ends the walk", async () => {
    const root = tree();
    symlinkSync("y", join(root, "x"));
    symlinkSync("x", join(root, "y"));
    expect(await sharedOnTheWay(join(root, "x", "git"))).toMatch(/too many links/);
    expect(await sharedOnTheWay(join(root, "missing", "git"))).toBeUndefined();
  });
});
