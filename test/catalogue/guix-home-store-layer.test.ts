import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { yourPrivateRefusal } from "../../src/repo-files/own-private.js";
import { tempDir } from "../api/_helpers.js";

// Review rev108b F7 (low): Guix Home links the files of your home it manages into /gnu/store, as
// home-manager does into /nix/store, but only Nix's store was a read-only store a layer file of
// yours may lead into: `~/.pi/agent/SYSTEM.md -> /gnu/store/…-home-files/.pi/agent/SYSTEM.md` was
// refused as a link out of your home and agent dir. Both stores are now one list (READ_ONLY_STORES
// in src/repo-files/own-private.ts); any other place out of both stays refused. The store itself
// cannot be made here (it is at the root): its real path is given.

describe("your agent dir managed by Guix Home, its files linked into /gnu/store", () => {
  const home = join(tempDir(), "home");
  const agentDir = join(home, ".pi/agent");
  mkdirSync(agentDir, { recursive: true });
  const at = { home, agentDir };
  const one = { dev: 1, ino: 1, nlink: 1 };

  it("reads a layer file leading into /gnu/store as yours, and refuses one leading beside it", () => {
    const named = join(agentDir, "APPEND_SYSTEM.md");
    const store = "/gnu/store/0abc-home-files/.pi/agent/APPEND_SYSTEM.md";
    expect(yourPrivateRefusal(store, one, at, named)).toBeUndefined();
    expect(yourPrivateRefusal("/gnu/stored/APPEND_SYSTEM.md", one, at, named)?.code).toBe(
      "file-outside-project",
    );
  });
});
