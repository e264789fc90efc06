import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev54b F2: with your dotfiles kept in a plain folder and linked into place
// (`~/.bashrc -> dotfiles/bashrc`, `~/.config/nvim -> ../dotfiles/nvim`,
// `~/.config/git/config -> ../../dotfiles/git/config`), `render -o ~/dotfiles/bashrc` wrote your
// shell's start-up file with the repository's text, and `-o ~/dotfiles/git/config`,
// `-o ~/dotfiles/nvim/init.lua` alike: `-o ~/.bashrc` was refused, its real path was not. The real
// path of each link among your home folder's dot entries (and in ~/.config, the folders programs run
// by name) is now that home path. Also LOW: `XDG_CONFIG_HOME=$HOME` stands for ~/.config by the
// lists of names (`~/fish/conf.d/p.fish` is fish's). Slow tier: a dozen renders.

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of [
    "p/.git",
    "agent",
    "home/.config/git",
    "home/dotfiles/git",
    "home/dotfiles/nvim",
  ])
    mkdirSync(join(root, dir), { recursive: true });
  mkdirSync(join(home, "dotfiles/fish/conf.d"), { recursive: true });
  mkdirSync(join(home, "fish/conf.d"), { recursive: true });
  writeFileSync(join(home, "dotfiles/bashrc"), "# my bashrc\n");
  writeFileSync(join(home, "dotfiles/git/config"), "[user]\n");
  symlinkSync("dotfiles/bashrc", join(home, ".bashrc"));
  symlinkSync("../dotfiles/nvim", join(home, ".config/nvim"));
  symlinkSync("../../dotfiles/git/config", join(home, ".config/git/config"));
  return { root, home };
}

describe("hostile-output-dotfile-links: -o judges the file a home dot entry links to as that dot entry", () => {
  it("the real paths of ~/.bashrc, ~/.config/git/config and what is below ~/.config/nvim are refused (exit 2), unchanged", async () => {
    const { root, home } = setup();
    const cases: [string[], string][] = [
      [["render", "-o", join(home, "dotfiles/bashrc")], "a file named .bashrc"],
      [["render", "-o", join(home, "dotfiles/git/config")], "a file in a .config/git/ folder"],
      [["render", "-o", join(home, "dotfiles/nvim/init.lua")], "a file in the folder .config"],
      [
        ["export", "--agent", "codex", "--out", join(home, "dotfiles/bashrc")],
        "a file named .bashrc",
      ],
    ];
    for (const [argv, said] of cases) {
      const out = await cli(root, join(root, "p"), argv);
      expect([argv, out.code]).toEqual([argv, 2]);
      expect(out.stderr).toContain(said);
    }
    expect(readFileSync(join(home, "dotfiles/bashrc"), "utf8")).toBe("# my bashrc\n");
    expect(readFileSync(join(home, "dotfiles/git/config"), "utf8")).toBe("[user]\n");
    expect(existsSync(join(home, "dotfiles/nvim/init.lua"))).toBe(false);
    const bashrc = await cli(root, join(root, "p"), [
      "render",
      "-o",
      join(home, "dotfiles/bashrc"),
    ]);
    expect(bashrc.stderr).toContain(`(${join(home, ".bashrc")} is a link to it)`);
  });

  it("a file beside them, that no link leads to, is still written", async () => {
    const { root, home } = setup();
    const plain = join(home, "dotfiles/notes.md");
    expect((await cli(root, join(root, "p"), ["render", "-o", plain])).code).toBe(0);
    expect(existsSync(plain)).toBe(true);
  });

  it("XDG_CONFIG_HOME=$HOME: fish's folder there is refused, a plain file of your home folder written", async () => {
    const { root, home } = setup();
    for (const env of [{ XDG_CONFIG_HOME: home }, { XDG_CONFIG_HOME: `${home}/` }]) {
      const fish = join(home, "fish/conf.d/p.fish");
      const out = await cli(root, join(root, "p"), ["render", "-o", fish], { env });
      expect([env, out.code]).toEqual([env, 2]);
      expect(out.stderr).toContain("a file in a .config/fish/ folder ($XDG_CONFIG_HOME");
      expect(existsSync(fish)).toBe(false);
      const notes = join(home, "notes.md");
      expect((await cli(root, join(root, "p"), ["render", "-o", notes], { env })).code).toBe(0);
    }
  });
});
