import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev51a F2: the list of files a program runs by name missed many: `render -o` replaced
// ~/.gdbinit, ~/.config/nvim/init.vim, ~/.bashrc.d/x.sh (sourced by Fedora's ~/.bashrc),
// ~/.config/environment.d/x.conf, ~/.pam_environment, ~/.tmux.conf, ~/.emacs.d/init.el, ~/.Renviron,
// and a project's .husky/pre-commit and .yarnrc.yml, with a prompt holding the repository's text.
// Under the home folder any dot-name is refused now (but sysprompt's cache folder and the agents'
// folders, judged as before); in a project, hook folders and package-manager rc files.

const HOME_FILES = [
  ".gdbinit",
  ".config/nvim/init.vim",
  ".bashrc.d/x.sh",
  ".config/environment.d/x.conf",
  ".pam_environment",
  ".xprofile",
  ".xsessionrc",
  ".tmux.conf",
  ".emacs.d/init.el",
  ".Renviron",
  ".local/bin/notes.md",
];
const PROJECT_FILES = [".husky/pre-commit", ".yarnrc.yml", ".git/hooks/pre-push"];

function setup() {
  const root = tempDir();
  for (const dir of ["p/.git/hooks", "p/.husky", "home", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  for (const f of HOME_FILES) mkdirSync(join(root, "home", f, ".."), { recursive: true });
  return root;
}

describe("hostile-output-home-dot-names: -o never writes a dot-name under your home folder, nor a project's hooks or rc files", () => {
  it("each is refused (exit 2), nothing written", async () => {
    const root = setup();
    const targets = [
      ...HOME_FILES.map((f) => join(root, "home", f)),
      ...PROJECT_FILES.map((f) => join(root, "p", f)),
    ];
    for (const target of targets) {
      const out = await cli(root, join(root, "p"), ["render", "-o", target]);
      expect([target, out.code]).toEqual([target, 2]);
      expect(existsSync(target)).toBe(false);
    }
    const out = await cli(root, join(root, "p"), [
      "export",
      "--agent",
      "codex",
      "--out",
      join(root, "home/.config/nvim/init.vim"),
    ]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("a file in the folder .config in your home folder");
  });

  it("a plain file in your home folder, the default export folder and an agent's prompt folder (with --force: yours, rev107d F2) are still written", async () => {
    const root = setup();
    const plain = join(root, "home/notes/prompt.md");
    mkdirSync(join(root, "home/notes"));
    expect((await cli(root, join(root, "p"), ["render", "-o", plain])).code).toBe(0);
    expect(readFileSync(plain, "utf8")).not.toBe("");
    expect((await cli(root, join(root, "p"), ["export", "--agent", "codex"])).code).toBe(0);
    const prompts = join(root, "home/.codex/prompts/p.md");
    mkdirSync(join(root, "home/.codex/prompts"), { recursive: true });
    expect(
      (
        await cli(root, join(root, "p"), [
          "export",
          "--agent",
          "codex",
          "--out",
          prompts,
          "--force",
        ])
      ).code,
    ).toBe(0);
    expect(existsSync(prompts)).toBe(true);
  });
});
