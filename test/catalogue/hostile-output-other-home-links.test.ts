import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// Review rev68d F2: run as root, `-o` refused a dot-name in another user's home folder (rev66d
// F5) but did not follow her dot entries' links as it follows yours (rev54b F2): with alice's
// stow layout `~/.vimrc -> dotfiles/vimrc`, `~/.config/nvim -> ../dotfiles/nvim`,
// `-o ~alice/dotfiles/vimrc` and `~alice/dotfiles/nvim/init.vim` were written with a
// repository's `:call …` line, and Vim ran it. Under sudo your own home is another user's, so
// `sudo … -o ~you/dotfiles/vimrc` was written while the same command without sudo was refused.

function machine(shell = "/bin/bash") {
  const root = tempDir();
  const alice = join(root, "users", "alice");
  for (const dir of [
    "p/.git",
    "home",
    "agent",
    "users/alice/dotfiles/nvim",
    "users/alice/.config",
  ]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(alice, "dotfiles/vimrc"), '" alice\n');
  symlinkSync("dotfiles/vimrc", join(alice, ".vimrc"));
  symlinkSync("../dotfiles/nvim", join(alice, ".config/nvim"));
  writeFileSync(join(root, "p/AGENTS.md"), '# P\n\n:call writefile(["pwned"], "/tmp/x")\n');
  const passwd = join(root, "passwd");
  writeFileSync(
    passwd,
    ["root:x:0:0:root:/root:/bin/bash", `alice:x:1234:1234::${alice}:${shell}`, ""].join("\n"),
  );
  return { root, alice, passwd };
}

async function render(root: string, passwd: string, out: string, env: Record<string, string> = {}) {
  let stderr = "";
  const code = await run(
    ["render", "--untrusted", "--agent-dir", join(root, "agent"), "--now", "2026-01-15", "-o", out],
    {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      cwd: join(root, "p"),
      env,
      home: join(root, "home"),
      machine: { platform: "linux", arch: "x64" },
      passwd,
    },
  );
  return { code, stderr };
}

describe("hostile-output-other-home-links: another user's dot-file links are followed", () => {
  it("~alice/dotfiles/vimrc, where her ~/.vimrc leads, is refused (exit 2), left as it was", async () => {
    const { root, alice, passwd } = machine();
    const target = join(alice, "dotfiles/vimrc");
    const out = await render(root, passwd, target);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      `sysprompt: --output: ${target}: a file named .vimrc (${join(alice, ".vimrc")} is a link to it) in the home folder of alice (${alice}), where such files are programs' configuration (start-up files, rc files, hooks): not written (the prompt holds a repository's text); write the prompt to a file of its own (a path with no dot-name below a home folder)\n`,
    );
    expect(readFileSync(target, "utf8")).toBe('" alice\n');
  });

  it("~alice/dotfiles/nvim/init.vim, through her ~/.config/nvim link, is refused", async () => {
    const { root, alice, passwd } = machine();
    const target = join(alice, "dotfiles/nvim/init.vim");
    const out = await render(root, passwd, target);
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(`(${join(alice, ".config/nvim")} is a link to it)`);
    expect(existsSync(target)).toBe(false);
  });

  it("a path in her home no link leads to is written", async () => {
    const { root, alice, passwd } = machine();
    const target = join(alice, "dotfiles/notes.md");
    const out = await render(root, passwd, target);
    expect(out.code, out.stderr).toBe(0);
    expect(existsSync(target)).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "as root under sudo, your own home's links (a nologin shell too)",
    async () => {
      const { root, alice, passwd } = machine("/usr/sbin/nologin");
      const target = join(alice, "dotfiles/vimrc");
      const out = await render(root, passwd, target, { SUDO_UID: "1234" });
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain(`(${join(alice, ".vimrc")} is a link to it)`);
      expect(readFileSync(target, "utf8")).toBe('" alice\n');
    },
  );
});
