import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";

// Review rev54b F5: `-o` leaves sysprompt's own folders (the agent dir, the cache) to their own
// judges, and `--agent-dir ~` (or `SYSPROMPT_AGENT_DIR=$HOME`) made your whole home folder one of
// them: `-o ~/.config/nvim/init.lua` and `-o ~/.config/autostart2/x.desktop` were written with the
// repository's text. An own folder that is your home folder, holds it, or is `/` exempts nothing.
// Slow tier: eight renders.

async function render(root: string, args: string[], env: Record<string, string> = {}) {
  let stderr = "";
  const code = await run(["render", "--now", NOW, ...args], {
    stdout: () => undefined,
    stderr: (text) => {
      stderr += text;
    },
    cwd: join(root, "p"),
    env,
    home: join(root, "home"),
    machine: { platform: "linux", arch: "x64" },
  });
  return { code, stderr };
}

describe("hostile-output-agent-dir-home: an agent dir that is your home folder exempts no dot path from -o", () => {
  it("--agent-dir ~, ~/, / and SYSPROMPT_AGENT_DIR=$HOME: the home dot paths are refused (exit 2), nothing written", async () => {
    const root = tempDir();
    const home = join(root, "home");
    for (const dir of ["p/.git", "home/.config/nvim"])
      mkdirSync(join(root, dir), { recursive: true });
    const targets = [
      join(home, ".config/nvim/init.lua"),
      join(home, ".config/autostart2/x.desktop"),
    ];
    const ways: [string[], Record<string, string>][] = [
      [["--agent-dir", home], {}],
      [["--agent-dir", `${home}/`], {}],
      [["--agent-dir", "/"], {}],
      [[], { SYSPROMPT_AGENT_DIR: home }],
    ];
    for (const [args, env] of ways) {
      for (const target of targets) {
        const out = await render(root, [...args, "-o", target], env);
        expect([args, env, target, out.code]).toEqual([args, env, target, 2]);
        expect(out.stderr).toContain("in your home folder");
        expect(existsSync(target)).toBe(false);
      }
    }
  });

  it("an agent dir of its own under your home folder still takes its instructions file", async () => {
    const root = tempDir();
    mkdirSync(join(root, "p/.git"), { recursive: true });
    const agent = join(root, "home/.myagent");
    mkdirSync(agent, { recursive: true });
    // The render reads it: written with --force (rev92d F2).
    const out = await render(root, [
      "--agent-dir",
      agent,
      "-o",
      join(agent, "AGENTS.md"),
      "--force",
    ]);
    expect(out.code).toBe(0);
    expect(existsSync(join(agent, "AGENTS.md"))).toBe(true);
  });
});
