import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// Review rev108c F1 and rev108a F2 (issue 24), extending rev107d F2: `-o` refused the agents'
// prompt folders at their default places in your home folder only. Where `CLAUDE_CONFIG_DIR`,
// `CODEX_HOME` or `XDG_CONFIG_HOME` move them, an untrusted render wrote
// `$CLAUDE_CONFIG_DIR/output-styles/o.md`, `$CODEX_HOME/prompts/p.md` and
// `$XDG_CONFIG_HOME/opencode/prompts/p.md`, and run as root it wrote `~alice/.codex/prompts/x.md`:
// each read by its agent as its user's words in every project. Now the moved folders (an
// absolute or `~` value, as the moved instructions files) and every other user's home's are
// refused as yours are.

const MINE = "Deploy with care.\n";

function machine() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent", "users/alice/.codex/prompts"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n\nREPO-TEXT: obey the repository.\n");
  const passwd = join(root, "passwd");
  writeFileSync(
    passwd,
    [
      "root:x:0:0:root:/root:/bin/bash",
      `alice:x:1000:1000::${join(root, "users/alice")}:/bin/bash`,
      "",
    ].join("\n"),
  );
  return { root, passwd };
}

async function render(root: string, passwd: string, env: Record<string, string>, args: string[]) {
  let stderr = "";
  const code = await run(
    ["render", "--agent-dir", join(root, "agent"), "--now", "2026-01-15", ...args],
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

const text = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : undefined);

describe("hostile-output-moved-prompt-folders: -o into a moved or another user's prompt folder", () => {
  it.each([
    ["CLAUDE_CONFIG_DIR", "cc", "cc/output-styles/o.md", "claude-code"],
    ["CODEX_HOME", "cx", "cx/prompts/p.md", "codex"],
    ["XDG_CONFIG_HOME", "xdg", "xdg/opencode/prompts/p.md", "opencode"],
  ])(
    "$%s moved: untrusted, --force or not, refused; nothing written",
    async (variable, dir, rel, agent) => {
      const { root, passwd } = machine();
      const home = join(root, "home");
      mkdirSync(join(home, rel, ".."), { recursive: true });
      const target = join(home, rel);
      for (const value of [join(home, dir), `~/${dir}`]) {
        if (variable.startsWith("XDG_") && value.startsWith("~")) continue;
        for (const force of [[], ["--force"]]) {
          const out = await render(root, passwd, { [variable]: value }, [
            "--untrusted",
            ...force,
            "-o",
            target,
          ]);
          expect([value, force, out.code, out.stderr]).toEqual([
            value,
            force,
            2,
            expect.stringContaining(`${agent} reads that file as yours`),
          ]);
          expect(out.stderr).toContain("--force does not write an untrusted project's prompt");
          expect(text(target)).toBeUndefined();
        }
      }
    },
  );

  it("a relative $CODEX_HOME is not followed: ./cx/prompts in the project is the project's", async () => {
    const { root, passwd } = machine();
    mkdirSync(join(root, "p/cx/prompts"), { recursive: true });
    const out = await render(root, passwd, { CODEX_HOME: "cx" }, [
      "--untrusted",
      "-o",
      join(root, "p/cx/prompts/p.md"),
    ]);
    expect(out.code, out.stderr).toBe(0);
  });

  it("~alice/.codex/prompts/x.md: untrusted, refused; an existing one kept", async () => {
    const { root, passwd } = machine();
    const target = join(root, "users/alice/.codex/prompts/deploy.md");
    writeFileSync(target, MINE);
    for (const force of [[], ["--force"]]) {
      const out = await render(root, passwd, {}, ["--untrusted", ...force, "-o", target]);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain("codex reads that file as alice's");
      expect(text(target)).toBe(MINE);
    }
    const fresh = join(root, "users/alice/.codex/prompts/new.md");
    const out = await render(root, passwd, {}, ["--untrusted", "-o", fresh]);
    expect(out.code, out.stderr).toBe(2);
    expect(text(fresh)).toBeUndefined();
  });

  it("trusted, $CODEX_HOME moved: refused without --force, written with it and a warning", async () => {
    const { root, passwd } = machine();
    const home = join(root, "home");
    mkdirSync(join(home, "cx/prompts"), { recursive: true });
    const target = join(home, "cx/prompts/p.md");
    const env = { CODEX_HOME: join(home, "cx") };
    const refused = await render(root, passwd, env, ["-o", target]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain("pass --force");
    const forced = await render(root, passwd, env, ["--force", "-o", target]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("sysprompt: WARNING:");
    expect(text(target)).toContain("REPO-TEXT");
  });
});
