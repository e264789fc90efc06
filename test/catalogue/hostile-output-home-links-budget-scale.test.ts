import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev55b F3: `-o` looks at where your home folder's links lead (a dotfile link is the home
// path it stands for), and realpath()ed every link of the folders read, with no budget: a fish
// config cloned into ~/.config/fish holding 4,000 links into a chain of 39 links ~1,800 folders
// deep made `render -o out.md` take 37 s. The look is now one shared budget of names looked up,
// a call at a time; past it a link is taken as written, and a warning says so. Your own dot links,
// in the shallow folders, are looked at first. Slow tier: a tree of a thousand links.

const LEVELS = 900;
const LINKS = 1000;

describe("hostile-output-home-links-budget: a clone's links cannot make -o's look at your home slow", () => {
  it("1,000 links into a deep chain: the look stops at its budget with a warning; your dangling dot link still counts", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const fish = join(home, ".config/fish");
    for (const dir of ["p/.git", "agent", "home/dotfiles"])
      mkdirSync(join(root, dir), { recursive: true });
    const deep = join(fish, ...Array.from({ length: LEVELS }, () => "d"));
    mkdirSync(deep, { recursive: true });
    let previous = deep;
    for (let i = 1; i <= 39; i++) {
      symlinkSync(previous, join(deep, `c${i}`));
      previous = join(deep, `c${i}`);
    }
    for (let i = 1; i <= LINKS; i++) symlinkSync(previous, join(fish, `l${i}`));
    symlinkSync("dotfiles/bash_aliases", join(home, ".bash_aliases"));

    const started = Date.now();
    const out = join(root, "out.md");
    const got = await cli(root, join(root, "p"), ["render", "-o", out]);
    const took = Date.now() - started;
    expect(got.code).toBe(0);
    expect(got.stderr).toMatch(
      /warning: --output: \d+ link\(s\) in your home folder's configuration folders were not followed/,
    );
    expect(existsSync(out)).toBe(true);
    expect(took).toBeLessThan(5000);

    const aliases = join(home, "dotfiles/bash_aliases");
    const refused = await cli(root, join(root, "p"), ["render", "-o", aliases]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("a file named .bash_aliases");
    expect(existsSync(aliases)).toBe(false);
  });
});
