import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// `eject --user` writes in the agent dir, `~/.pi/agent`, through the user's own links
// (`~/.pi` into a dotfiles checkout). With the home folder inside a checkout (`HOME=p/.home`,
// as a CI job sets it), `~/.pi` is the checkout's: a `.home/.pi` it made a link to a folder
// outside was followed, and the sections (with --force, over the files there) were written
// where it led, the folders made when missing. Such an agent dir is now held as a project
// target: no folder from the checkout's root down may be a link.

/** A checkout `p` (a git root unless `git` is false) with `p/.home/.pi` a link to `victim`. */
function checkoutWithHome(git = true) {
  const root = tempDir();
  for (const dir of ["p/src", "p/.home", "victim/agent/sections"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  if (git) mkdirSync(join(root, "p/.git"));
  symlinkSync(join(root, "victim"), join(root, "p/.home/.pi"));
  return root;
}

const eject = (root: string, home: string, ...argv: string[]) =>
  cli(root, join(root, "p/src"), ["eject", "--user", ...argv, "preamble"], {
    pinned: false,
    home,
  });

describe("hostile-eject-user-home-in-checkout: an agent dir inside the checkout", () => {
  it.each([
    ["a checkout", true],
    ["a tarball (no .git)", false],
  ])("in %s, a .home/.pi link is refused, even with --force; nothing written", async (_, git) => {
    const root = checkoutWithHome(git);
    const home = join(root, "p/.home");
    writeFileSync(join(root, "victim/agent/sections/preamble.md"), "USER-OWN\n");
    for (const flags of [[], ["--force"]]) {
      const out = await eject(root, home, ...flags);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(
        `${join(root, "p/.home/.pi")} [unsafe-target] a symbolic link, not a folder: nothing is written through it (the agent dir ${join(home, ".pi/agent")} lies in the project around ${join(root, "p")}`,
      );
    }
    expect(readdirSync(join(root, "victim/agent/sections"))).toEqual(["preamble.md"]);
    // Missing where the link leads: not made there either.
    rmSync(join(root, "victim/agent"), { recursive: true });
    expect((await eject(root, home)).code).toBe(1);
    expect(readdirSync(join(root, "victim"))).toEqual([]);
  });

  it("an agent dir you name with --agent-dir is yours: written through the link", async () => {
    const root = checkoutWithHome();
    const home = join(root, "p/.home");
    const out = await eject(root, home, "--agent-dir", join(home, ".pi/agent"));
    expect(out.code).toBe(0);
    expect(existsSync(join(root, "victim/agent/sections/preamble.md"))).toBe(true);
  });

  it("a home folder around the project keeps its own links (~/.pi into dotfiles)", async () => {
    const root = tempDir();
    for (const dir of ["home/code/p/.git", "home/code/p/src", "dotfiles/pi/agent"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    symlinkSync(join(root, "dotfiles/pi"), join(root, "home/.pi"));
    const out = await cli(root, join(root, "home/code/p/src"), ["eject", "--user", "preamble"], {
      pinned: false,
      home: join(root, "home"),
    });
    expect(out.code).toBe(0);
    expect(existsSync(join(root, "dotfiles/pi/agent/sections/preamble.md"))).toBe(true);
  });
});
