import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";
import { usageHint } from "./_run.js";

async function hook(argv: string[], stdin: string | Error, root: string) {
  let stdout = "";
  let stderr = "";
  const code = await run(["hook", ...argv], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd: root,
    env: { XDG_CACHE_HOME: join(root, "cache") },
    home: join(root, "home"),
    stdin: async () => {
      if (stdin instanceof Error) throw stdin;
      return stdin;
    },
  });
  return { code, stdout, stderr };
}

describe("sysprompt hook", () => {
  it("prints the agent's reply with the instructions, exit 0", async () => {
    const root = tempDir();
    const cwd = join(root, "p");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    mkdirSync(join(cwd, "pkg"), { recursive: true });
    writeFileSync(join(cwd, "pkg", "AGENTS.md"), "Pkg rules.\n");
    const input = JSON.stringify({
      session_id: "s",
      cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls pkg/AGENTS.md" },
    });
    const first = await hook(["codex"], input, root);
    expect(first).toEqual({
      code: 0,
      stdout: `${JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PostToolUse",
          additionalContext:
            'An instruction file applies to what this call touched (given once per session):\n<instructions path="pkg/AGENTS.md">\nPkg rules.\n\n</instructions>',
        },
      })}\n`,
      stderr: "",
    });
    expect(await hook(["codex"], input, root)).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("bad input or stdin that fails: exit 0, the empty reply, one line on stderr", async () => {
    const root = tempDir();
    expect(await hook(["gemini-cli"], "nope", root)).toEqual({
      code: 0,
      stdout: "{}\n",
      stderr: "sysprompt hook: the hook input is not JSON\n",
    });
    expect(await hook(["claude-code"], new Error("stdin closed"), root)).toEqual({
      code: 0,
      stdout: "",
      stderr: "sysprompt hook: stdin closed\n",
    });
  });

  it("an agent it has no hook for is a usage error, exit 2", async () => {
    const root = tempDir();
    const out = await hook(["opencode"], "{}", root);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr).toBe(
      'sysprompt: hook: no hook for "opencode"; the agents are claude-code, codex, gemini-cli (opencode takes the plugin: sysprompt export --agent opencode --hooks)\n' +
        usageHint("hook", "[options] <agent>"),
    );
  });
});
