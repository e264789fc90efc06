import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// Review rev109e F2 (medium): with a dotfiles home (the home folder a git work tree),
// `hook AGENT --untrusted` (and opencode's plugin-untrusted.js) gave none of your glob rules
// in a folder with no repository of its own (~/scratch), exit 0, with no note, and nothing
// brought them back: the home's repository is the project there, so ~/.pi/agent inside it is
// left out (rev58a F1), whose remedy, --agent-dir, the hook does not take, and an agent dir
// named by $SYSPROMPT_AGENT_DIR was left out as well. Now $SYSPROMPT_AGENT_DIR names the agent
// dir as --agent-dir does (render and hook alike), the hook says on stderr why your layer is
// left out, and `export --untrusted --hooks` says so when your home folder is a git work tree.

function dotfilesHome() {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(join(home, ".pi", "agent", "rules"), { recursive: true });
  mkdirSync(join(home, "scratch"));
  execFileSync("git", ["init", "-q", home]);
  writeFileSync(join(home, ".bashrc"), "x\n");
  writeFileSync(
    join(home, ".pi", "agent", "rules", "ts.md"),
    '---\nglobs: "**/*.ts"\n---\nUSER TS RULE\n',
  );
  writeFileSync(join(home, "scratch", "a.ts"), "x\n");
  return { root, home, scratch: join(home, "scratch") };
}

async function cli(
  argv: string[],
  where: { root: string; home: string; cwd: string; env?: Record<string, string> },
  stdin = "",
) {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: where.cwd,
    env: { HOME: where.home, XDG_CACHE_HOME: join(where.root, "cache"), ...where.env },
    home: where.home,
    stdin: async () => stdin,
    self: "/opt/sysprompt/dist/src/cli/sysprompt.cjs",
    node: "/usr/bin/node",
  });
  return { code, stdout, stderr };
}

const call = (session: string, cwd: string) =>
  JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "cat a.ts" },
    tool_response: "x",
  });

const OWN = /USER TS RULE/;

describe("hostile setup: a dotfiles home and the untrusted hook in a folder with no repository", () => {
  it("SYSPROMPT_AGENT_DIR names your agent dir for the untrusted hook, as --agent-dir does for a render", async () => {
    const d = dotfilesHome();
    const where = { ...d, cwd: d.scratch };
    const trusted = await cli(["hook", "codex"], where, call("s1", d.scratch));
    expect(trusted.stdout).toMatch(OWN);
    for (const [i, value] of [join(d.home, ".pi", "agent"), "~/.pi/agent"].entries()) {
      const env = { SYSPROMPT_AGENT_DIR: value };
      const named = await cli(
        ["hook", "codex", "--untrusted"],
        { ...where, env },
        call(`s-env-${i}`, d.scratch),
      );
      expect(named.stdout, value).toMatch(OWN);
      // Its session file in the agent dir the variable names, `~` read as the home folder.
      expect(named.stderr, value).not.toContain("cannot keep");
      expect(JSON.parse(named.stdout).hookSpecificOutput.additionalContext).toContain(
        'rule="ts" owner="user"',
      );
      const render = await cli(["render", "--untrusted"], { ...where, env });
      expect(render.stderr, value).not.toContain("agent-dir-in-project");
    }
  });

  it("without it, the untrusted hook says why your rules are left out, and how to read them", async () => {
    const d = dotfilesHome();
    const out = await cli(
      ["hook", "codex", "--untrusted"],
      { ...d, cwd: d.scratch },
      call("s2", d.scratch),
    );
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(OWN);
    expect(out.stderr).toContain("the agent dir lies inside the project");
    expect(out.stderr).toContain("SYSPROMPT_AGENT_DIR=~/.pi/agent");
  });

  it("an agent dir SYSPROMPT_AGENT_DIR names inside the untrusted working folder stays left out", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const proj = join(root, "proj");
    mkdirSync(home, { recursive: true });
    execFileSync("git", ["init", "-q", proj]);
    mkdirSync(join(proj, ".pi", "agent", "rules"), { recursive: true });
    writeFileSync(
      join(proj, ".pi", "agent", "rules", "ts.md"),
      '---\nglobs: "**/*.ts"\n---\nUSER TS RULE\n',
    );
    writeFileSync(join(proj, "a.ts"), "x\n");
    const env = { SYSPROMPT_AGENT_DIR: join(proj, ".pi", "agent") };
    const out = await cli(
      ["hook", "codex", "--untrusted"],
      { root, home, cwd: proj, env },
      call("s3", proj),
    );
    expect(out.stdout).not.toMatch(OWN);
    expect(out.stderr).toContain("the agent dir lies inside the project");
  });

  it("export --untrusted --hooks says so when your home folder is a git work tree", async () => {
    const d = dotfilesHome();
    for (const agent of ["codex", "claude-code", "gemini-cli", "opencode"]) {
      const out = await cli(["export", "--agent", agent, "--untrusted", "--hooks"], {
        ...d,
        cwd: d.scratch,
      });
      expect(out.code, out.stderr).toBe(0);
      expect(out.stderr, agent).toContain("is a git work tree");
      expect(out.stderr, agent).toContain("SYSPROMPT_AGENT_DIR=~/.pi/agent");
      const set = await cli(["export", "--agent", agent, "--untrusted", "--hooks"], {
        ...d,
        cwd: d.scratch,
        env: { SYSPROMPT_AGENT_DIR: "~/.pi/agent" },
      });
      expect(set.stderr).not.toContain("is a git work tree");
      const trusted = await cli(["export", "--agent", agent, "--hooks"], { ...d, cwd: d.scratch });
      expect(trusted.stderr).not.toContain("is a git work tree");
    }
    const plain = tempDir();
    mkdirSync(join(plain, "home", "scratch"), { recursive: true });
    const out = await cli(["export", "--agent", "codex", "--untrusted", "--hooks"], {
      root: plain,
      home: join(plain, "home"),
      cwd: join(plain, "home", "scratch"),
    });
    expect(out.stderr).not.toContain("is a git work tree");
  });
});
