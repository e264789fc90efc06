import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev69b F2: only your home folder's own dot entries' links were followed (rev54b F2), and
// those in ~/.config at depth 1: a dotfiles layout whose folder is real and whose file in it is a
// link (`~/.vim/vimrc -> ../dotfiles/vimrc`, `~/.config/nvim/init.vim -> ../../dotfiles/init.vim`,
// `~/.emacs.d/init.el -> ../dotfiles/init.el`) let `-o ~/dotfiles/vimrc` be written, and Vim ran a
// repository's line, `--untrusted` too; in Markdown, `~/.claude/commands/deploy.md` linked into
// your dotfiles let `-o` replace a Claude Code command (its `!` lines run). The links two levels
// down in your home folder's dot folders are read now, and in another user's home alike.

const LINKS: [string, string][] = [
  [".vim/vimrc", "../dotfiles/vimrc"],
  [".config/nvim/init.vim", "../../dotfiles/init.vim"],
  [".emacs.d/init.el", "../dotfiles/init.el"],
  [".claude/commands/deploy.md", "../../dotfiles/claude/deploy.md"],
];

function homeWithLinks(home: string) {
  for (const [link, target] of LINKS) {
    mkdirSync(join(home, link, ".."), { recursive: true });
    symlinkSync(target, join(home, link));
  }
  mkdirSync(join(home, "dotfiles/claude"), { recursive: true });
}

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n\nsilent !touch /tmp/pwned\n");
  homeWithLinks(join(root, "home"));
  return root;
}

describe("hostile-output-nested-dot-links: links inside your home's dot folders are followed", () => {
  it.each([
    ["dotfiles/vimrc", ".vim/vimrc", "a file in the folder .vim"],
    ["dotfiles/init.vim", ".config/nvim/init.vim", "a file in the folder .config"],
    ["dotfiles/init.el", ".emacs.d/init.el", "a file in the folder .emacs.d"],
  ])("-o ~/%s is refused as ~/%s (exit 2), not written", async (target, link, what) => {
    const root = project();
    const home = join(root, "home");
    const out = await cli(root, join(root, "p"), [
      "render",
      "--untrusted",
      "-o",
      join(home, target),
    ]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      `sysprompt: --output: ${join(home, target)}: ${what} (${join(home, link)} is a link to it) in your home folder,`,
    );
    expect(existsSync(join(home, target))).toBe(false);
  });

  it("a Markdown name: -o ~/dotfiles/claude/deploy.md is refused as Claude Code's command", async () => {
    const root = project();
    const home = join(root, "home");
    const target = join(home, "dotfiles/claude/deploy.md");
    const out = await cli(root, join(root, "p"), ["render", "-o", target]);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      `${target}: claude-code's own configuration (.claude/commands/deploy.md,`,
    );
    expect(existsSync(target)).toBe(false);
  });

  it("another user's home: run as root, -o ~alice/dotfiles/vimrc is refused", async () => {
    const root = project();
    const alice = join(root, "users/alice");
    homeWithLinks(alice);
    const passwd = join(root, "passwd");
    writeFileSync(passwd, `alice:x:1234:1234::${alice}:/bin/bash\n`);
    let stderr = "";
    const code = await run(
      ["render", "--agent-dir", join(root, "agent"), "-o", join(alice, "dotfiles/vimrc")],
      {
        stdout: () => undefined,
        stderr: (t) => {
          stderr += t;
        },
        cwd: join(root, "p"),
        env: {},
        home: join(root, "home"),
        machine: { platform: "linux", arch: "x64" },
        passwd,
      },
    );
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(
      `(${join(alice, ".vim/vimrc")} is a link to it) in the home folder of alice`,
    );
    expect(existsSync(join(alice, "dotfiles/vimrc"))).toBe(false);
  });

  it("a file of your dotfiles no link leads to is written", async () => {
    const root = project();
    const target = join(root, "home/dotfiles/notes.md");
    const out = await cli(root, join(root, "p"), ["render", "-o", target]);
    expect(out.code, out.stderr).toBe(0);
    expect(existsSync(target)).toBe(true);
  });
});
