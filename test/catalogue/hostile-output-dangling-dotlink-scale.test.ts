import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev55b F2: a dotfile link whose target is not made yet (`~/.bash_aliases ->
// dotfiles/bash_aliases`, which Ubuntu's ~/.bashrc sources once it exists; `~/.config/fish/config.fish
// -> ../../dotfiles/fish/config.fish`; `~/.config/nvim -> ../dotfiles/nvim`) was no spelling of its
// home path (its realpath failed): `render -o ~/dotfiles/bash_aliases` wrote the file the shell then
// runs. A link now spells where it leads, followed name by name, the missing rest taken as names to
// be made. Slow tier: four CLI runs.

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of ["p/.git", "agent", "home/.config/fish", "home/dotfiles/fish"])
    mkdirSync(join(root, dir), { recursive: true });
  symlinkSync("dotfiles/bash_aliases", join(home, ".bash_aliases"));
  symlinkSync("../../dotfiles/fish/config.fish", join(home, ".config/fish/config.fish"));
  symlinkSync("../dotfiles/nvim", join(home, ".config/nvim"));
  return { root, home };
}

describe("hostile-output-dangling-dotlink: -o judges the missing file a home dot link leads to as that dot path", () => {
  it("the targets of dangling ~/.bash_aliases, fish's config.fish and ~/.config/nvim are refused, not made", async () => {
    const { root, home } = setup();
    const cases: [string, string][] = [
      [
        join(home, "dotfiles/bash_aliases"),
        `a file named .bash_aliases (${join(home, ".bash_aliases")} is a link to it)`,
      ],
      [join(home, "dotfiles/fish/config.fish"), "a file in a .config/fish/ folder"],
      [join(home, "dotfiles/nvim/init.lua"), "a file in the folder .config"],
    ];
    for (const [out, said] of cases) {
      const got = await cli(root, join(root, "p"), ["render", "-o", out]);
      expect([out, got.code]).toEqual([out, 2]);
      expect(got.stderr).toContain(said);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("a file beside them, that no link leads to, is still written", async () => {
    const { root, home } = setup();
    const plain = join(home, "dotfiles/notes.md");
    expect((await cli(root, join(root, "p"), ["render", "-o", plain])).code).toBe(0);
    expect(existsSync(plain)).toBe(true);
  });
});
