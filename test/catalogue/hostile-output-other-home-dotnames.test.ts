import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// rev66d F5: `-o` refuses a dot-name below your home folder (`~/.bashrc.d/x.sh`,
// `~/.config/nvim/init.vim`: start-up files no list holds whole), but knew only $HOME: run as
// root (`sudo`, HOME=/root), `-o ~alice/.bashrc.d/x.sh` and `~alice/.config/nvim/init.vim` were
// written with a repository's `:!cmd` line, run when alice opens a shell or Vim. The rule now
// holds in the home folder of every user with a login shell in the system's list, and (as
// root) of the user sudo was run by.

function machine() {
  const root = tempDir();
  const alice = join(root, "users", "alice");
  const service = join(root, "srv", "www");
  for (const dir of ["p/.git", "home", "agent", "users/alice/.bashrc.d", "srv/www/.cache"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n\n:!echo RAN-FROM-REPO\n");
  const passwd = join(root, "passwd");
  writeFileSync(
    passwd,
    [
      "root:x:0:0:root:/root:/bin/bash",
      `alice:x:1000:1000::${alice}:/bin/bash`,
      `www-data:x:33:33:www-data:${service}:/usr/sbin/nologin`,
      "nobody:x:65534:65534:nobody:/:/usr/sbin/nologin",
      "",
    ].join("\n"),
  );
  return { root, alice, service, passwd };
}

async function render(root: string, passwd: string, out: string, env: Record<string, string> = {}) {
  let stderr = "";
  const code = await run(
    ["render", "--agent-dir", join(root, "agent"), "--now", "2026-01-15", "-o", out],
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

describe("catalogue: -o into another user's home folder", () => {
  it.each([".bashrc.d/x.sh", ".config/nvim/init.vim", ".vim/plugin/x.vim"])(
    "~alice/%s is refused (exit 2), nothing written",
    async (rel) => {
      const { root, alice, passwd } = machine();
      const target = join(alice, rel);
      const out = await render(root, passwd, target);
      expect(out.code).toBe(2);
      const name = rel.split("/")[0];
      expect(out.stderr).toBe(
        `sysprompt: --output: ${target}: a file in the folder ${name} in the home folder of alice (${alice}), where such files are programs' configuration (start-up files, rc files, hooks): not written (the prompt holds a repository's text); write the prompt to a file of its own (a path with no dot-name below a home folder)\n`,
      );
      expect(existsSync(target)).toBe(false);
    },
  );

  it("a plain path in alice's home, and a service account's dot folder, are written", async () => {
    const { root, alice, service, passwd } = machine();
    for (const target of [join(alice, "notes", "prompt.md"), join(service, ".cache", "p.md")]) {
      const out = await render(root, passwd, target);
      expect(out.code, out.stderr).toBe(0);
      expect(existsSync(target)).toBe(true);
    }
  });

  it.skipIf(process.getuid?.() !== 0)(
    "as root, the home of the user sudo was run by, whatever its shell",
    async () => {
      const { root, passwd } = machine();
      const bob = join(root, "users", "bob");
      mkdirSync(join(bob, ".config", "nvim"), { recursive: true });
      writeFileSync(passwd, `bob:x:1234:1234::${bob}:/usr/sbin/nologin\n`);
      const target = join(bob, ".config", "nvim", "init.vim");
      const sudo = await render(root, passwd, target, { SUDO_UID: "1234" });
      expect(sudo.code).toBe(2);
      expect(sudo.stderr).toContain(`in the home folder of bob (${bob})`);
      expect(existsSync(target)).toBe(false);
    },
  );
});
