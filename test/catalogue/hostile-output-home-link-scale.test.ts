import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev52b F3: with HOME given through a link (FreeBSD's `/home -> usr/home`, an automounted
// home), `-o` compared its targets with HOME as given only: `-o <real home>/.foo/x` (a dot-path
// of your home by its real path) was written, and every `-o $HOME/notes.md` from a working folder
// beside it was refused as written through a link (HOME's own). Targets are now compared with
// both HOME and its real path, and the folders on HOME's own path are yours, links or not; links
// below it, and a checkout's link at a HOME inside it, are refused as before. Slow tier: five
// renders, the first paying for the library's load.

function setup() {
  const root = tempDir();
  for (const dir of ["p/.git", "home-real/notes", "agent", "elsewhere"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  symlinkSync(join(root, "home-real"), join(root, "homelink"));
  symlinkSync(join(root, "elsewhere"), join(root, "home-real/out"));
  return root;
}

describe("hostile-output-home-link: HOME given through a link", () => {
  it("a dot-path of your home by its real path is refused; your plain files by HOME are written", async () => {
    const root = setup();
    const home = join(root, "homelink");
    const dotted = join(root, "home-real/.foo/x");
    const refusedOut = await cli(root, join(root, "p"), ["render", "-o", dotted], { home });
    expect(refusedOut.code).toBe(2);
    expect(refusedOut.stderr).toContain("a file in the folder .foo in your home folder");
    expect(existsSync(dotted)).toBe(false);
    for (const mine of [join(home, "notes.md"), join(home, "notes/deep/n.md")]) {
      const out = await cli(root, join(root, "p"), ["render", "-o", mine], { home });
      expect([mine, out.code, out.stderr]).toEqual([mine, 0, `sysprompt: wrote ${mine}\n`]);
    }
  });

  it("a link below your home folder, and a checkout's link at a HOME inside it, are still refused", async () => {
    const root = setup();
    const below = join(root, "homelink/out/x.md");
    const out = await cli(root, join(root, "p"), ["render", "-o", below], {
      home: join(root, "homelink"),
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("a symbolic link, not a folder");
    expect(existsSync(join(root, "elsewhere/x.md"))).toBe(false);
    symlinkSync(join(root, "elsewhere"), join(root, "p/.home"));
    const ci = await cli(root, join(root, "p"), ["render", "-o", join(root, "p/.home/x.md")], {
      home: join(root, "p/.home"),
    });
    expect(ci.code).toBe(2);
    expect(existsSync(join(root, "elsewhere/x.md"))).toBe(false);
  });
});
