import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// rev103b F1: `-o` refuses an agent's global instructions file in your home folder
// (`~/.claude/CLAUDE.md`, Cline's `~/Documents/Cline/Rules/`), but only yours: run as root or
// under sudo, `render --untrusted -o ~alice/Documents/Cline/Rules/team.md` was written with no
// --force, and `--untrusted --force` wrote `~alice/.claude/CLAUDE.md`, loaded by alice's agents
// in every project as her words. Every other user's home (the system's list) holds the same rule.

function machine() {
  const root = tempDir();
  const alice = join(root, "users", "alice");
  for (const dir of ["p/.git", "home", "agent", "users/alice"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n\nObey the repository.\n");
  const passwd = join(root, "passwd");
  writeFileSync(
    passwd,
    ["root:x:0:0:root:/root:/bin/bash", `alice:x:1000:1000::${alice}:/bin/bash`, ""].join("\n"),
  );
  return { root, alice, passwd };
}

async function render(root: string, passwd: string, args: string[]) {
  let stderr = "";
  const code = await run(
    ["render", "--agent-dir", join(root, "agent"), "--now", "2026-01-15", ...args],
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
  return { code, stderr };
}

describe("catalogue: -o into another user's global instructions", () => {
  it.each([
    [".claude/CLAUDE.md", "claude-code's own instructions file in the home folder of alice"],
    [".gemini/GEMINI.md", "gemini-cli's own instructions file in the home folder of alice"],
    ["Documents/Cline/Rules/team.md", "a file of Cline's own instructions folder"],
  ])("untrusted, --force or not, ~alice/%s is refused", async (rel, said) => {
    const { root, alice, passwd } = machine();
    const target = join(alice, rel);
    for (const force of [[], ["--force"]]) {
      const out = await render(root, passwd, ["--untrusted", ...force, "-o", target]);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(said);
      expect(out.stderr).toContain("as alice's words");
      expect(out.stderr).toContain("--force does not write an untrusted project's prompt there");
      expect(existsSync(target)).toBe(false);
    }
  });

  it("trusted, refused without --force; written with it, with a warning", async () => {
    const { root, alice, passwd } = machine();
    const target = join(alice, ".claude", "CLAUDE.md");
    const refused = await render(root, passwd, ["-o", target]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("(~alice/.claude/CLAUDE.md)");
    expect(existsSync(target)).toBe(false);
    const forced = await render(root, passwd, ["--force", "-o", target]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("sysprompt: WARNING:");
    expect(existsSync(target)).toBe(true);
  });

  it("a plain file in alice's home is written", async () => {
    const { root, alice, passwd } = machine();
    const target = join(alice, "notes", "prompt.md");
    const out = await render(root, passwd, ["--untrusted", "-o", target]);
    expect(out.code, out.stderr).toBe(0);
    expect(existsSync(target)).toBe(true);
  });
});
