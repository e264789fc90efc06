import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import * as trustedPlugin from "../../src/integrations/opencode/plugin.js";
import * as untrustedPlugin from "../../src/integrations/opencode/plugin-untrusted.js";
import { tempDir } from "../api/_helpers.js";

// Review rev107a F1: `sysprompt hook AGENT` always treated the project as trusted. A
// repository's nested `sub/AGENTS.md` importing `@../.env` and `@../creds.json` (git-ignored)
// gave your keys to the model on a `cat sub/x.ts`, with its `.pi/rules` glob rule; and
// `export --untrusted --hooks` printed `hook codex` without the flag, for ~/.codex/config.toml,
// where it runs in every project. Now `hook AGENT --untrusted` is render --untrusted's trust,
// and `export --untrusted --hooks` prints that command (opencode: its untrusted plugin file).

const MARKS = /SECRET-DOTENV-MARKER|SECRET-IGNORED-MARKER|PI-RULE-OF-UNTRUSTED-PROJECT/g;

function layout() {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  const proj = join(root, "proj");
  execFileSync("git", ["init", "-q", proj]);
  writeFileSync(join(proj, "AGENTS.md"), "# p\n");
  writeFileSync(join(proj, ".env"), "OPENAI_API_KEY=SECRET-DOTENV-MARKER\n");
  writeFileSync(join(proj, "creds.json"), "SECRET-IGNORED-MARKER\n");
  writeFileSync(join(proj, ".gitignore"), "creds.json\n");
  mkdirSync(join(proj, "sub"));
  writeFileSync(join(proj, "sub", "AGENTS.md"), "# sub rules\n@../.env\n@../creds.json\n");
  writeFileSync(join(proj, "sub", "x.ts"), "x\n");
  mkdirSync(join(proj, ".pi", "rules"), { recursive: true });
  writeFileSync(
    join(proj, ".pi", "rules", "x.md"),
    "---\nglobs: sub/**\n---\nPI-RULE-OF-UNTRUSTED-PROJECT\n",
  );
  return { root, home, proj };
}

async function cli(argv: string[], root: string, home: string, stdin = "") {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: root,
    env: { HOME: home, XDG_CACHE_HOME: join(root, "cache") },
    home,
    stdin: async () => stdin,
    self: "/opt/sysprompt/dist/src/cli/sysprompt.cjs",
    node: "/usr/bin/node",
  });
  return { code, stdout, stderr };
}

function shellCall(agent: string, session: string, cwd: string): string {
  const command = { command: "cat sub/x.ts" };
  return JSON.stringify(
    agent === "gemini-cli"
      ? {
          session_id: session,
          cwd,
          hook_event_name: "AfterTool",
          tool_name: "run_shell_command",
          tool_input: command,
          tool_response: { llmContent: "x" },
        }
      : {
          session_id: session,
          cwd,
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: command,
          tool_response: "x",
        },
  );
}

const savedCache = process.env.XDG_CACHE_HOME;
afterEach(() => {
  if (savedCache === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedCache;
});

describe("hostile repository: the hook of an untrusted project (review rev107a F1)", () => {
  it("hook AGENT --untrusted: the nested file without its private imports, no .pi rule", async () => {
    const { root, home, proj } = layout();
    for (const agent of ["codex", "gemini-cli"]) {
      const out = await cli(
        ["hook", agent, "--untrusted"],
        root,
        home,
        shellCall(agent, `u-${agent}`, proj),
      );
      expect(out.code).toBe(0);
      expect((out.stdout + out.stderr).match(MARKS) ?? []).toEqual([]);
      expect(out.stdout).toContain("# sub rules");
      expect(out.stderr).toContain("the project is not trusted");
    }
    // Without the flag the hook is the trusted one, as a render without --untrusted (documented).
    const trusted = await cli(["hook", "codex"], root, home, shellCall("codex", "t", proj));
    expect(trusted.stdout).toContain("SECRET-DOTENV-MARKER");
    expect(trusted.stdout).toContain("PI-RULE-OF-UNTRUSTED-PROJECT");
  });

  it("a session's snapshot is of one trust: the trusted hook after the untrusted one gives the .pi rule", async () => {
    const { root, home, proj } = layout();
    const call = shellCall("codex", "mixed", proj);
    const first = await cli(["hook", "codex", "--untrusted"], root, home, call);
    expect(first.stdout).toContain("# sub rules");
    const second = await cli(["hook", "codex"], root, home, call);
    expect(second.stdout).toContain("PI-RULE-OF-UNTRUSTED-PROJECT");
  });

  it("export --untrusted --hooks prints the untrusted hook, and says which one it printed", async () => {
    const { root, home } = layout();
    for (const agent of ["claude-code", "codex", "gemini-cli"]) {
      const out = await cli(["export", "--agent", agent, "--untrusted", "--hooks"], root, home);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(`hook ${agent} --untrusted`);
      expect(out.stderr).toContain("treats every project it runs in as untrusted");
      const trusted = await cli(["export", "--agent", agent, "--hooks"], root, home);
      expect(trusted.stdout).not.toContain("--untrusted");
      expect(trusted.stderr).toContain("treats the project it runs in as trusted");
    }
    const plugin = await cli(
      ["export", "--agent", "opencode", "--untrusted", "--hooks"],
      root,
      home,
    );
    expect(plugin.stdout).toContain("/integrations/opencode/plugin-untrusted.js");
    expect(plugin.stderr).toContain("treats every project it runs in as untrusted");
  });

  it("opencode's untrusted plugin file: no .pi rule of the project; the trusted one gives it", async () => {
    const { root, proj } = layout();
    process.env.XDG_CACHE_HOME = join(root, "cache");
    expect(Object.keys(untrustedPlugin)).toEqual(["SyspromptPlugin"]);
    const read = async (p: typeof trustedPlugin) => {
      const hooks = await p.SyspromptPlugin({ directory: proj });
      const output = { title: "", output: "x", metadata: {} };
      const args = { filePath: join(proj, "sub", "x.ts") };
      const input = { tool: "read", sessionID: `ses-${p === trustedPlugin}`, callID: "c", args };
      await hooks["tool.execute.after"](input, output);
      return output.output;
    };
    expect((await read(untrustedPlugin)).match(MARKS) ?? []).toEqual([]);
    expect(await read(trustedPlugin)).toContain("PI-RULE-OF-UNTRUSTED-PROJECT");
  });
});
