import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { yourPrivateRefusal } from "../../src/repo-files/own-private.js";
import { tempDir } from "../api/_helpers.js";

// Lead (fx106a): home-manager (Nix) links your layer's files into /nix/store (world-readable,
// read-only, never a place for secrets); such a link out of your home and agent dir is read, while
// any other place out of both stays refused (review rev104a F2).

describe("a layer file of yours linked into /nix/store", () => {
  const home = join(tempDir(), "home");
  const agentDir = join(home, ".pi/agent");
  mkdirSync(agentDir, { recursive: true });
  const at = { home, agentDir };
  const one = { dev: 1, ino: 1, nlink: 1 };
  const named = join(agentDir, "SYSTEM.md");

  it("is read when its real path lies in /nix/store", () => {
    const real = "/nix/store/0abc-home-manager-files/.pi/agent/SYSTEM.md";
    expect(yourPrivateRefusal(real, one, at, named)).toBeUndefined();
  });

  it("is read when its real path lies in Guix's /gnu/store (Guix Home; review rev108b F7)", () => {
    const real = "/gnu/store/0abc-home-files/.pi/agent/SYSTEM.md";
    expect(yourPrivateRefusal(real, one, at, named)).toBeUndefined();
  });

  it("is refused when it leads elsewhere out of your home and agent dir", () => {
    for (const real of [
      "/run/secrets/db_password",
      "/nix/storex/SYSTEM.md",
      "/nix/SYSTEM.md",
      "/gnu/storex/SYSTEM.md",
      "/gnu/SYSTEM.md",
    ]) {
      expect(yourPrivateRefusal(real, one, at, named)?.message).toContain(
        "out of your home folder and your agent dir",
      );
    }
  });
});
