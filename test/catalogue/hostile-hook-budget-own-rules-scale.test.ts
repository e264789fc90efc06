import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { run } from "../../src/cli/main.js";
import { HOOK_DEADLINE_MS } from "../../src/hook/deadline.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev78b F2's recorded limit (fx79c): a hook call whose project part
// (its context files and rules, read folder by folder among the repository's
// files) passed the hook's 5 s answered "took more than 5000 ms: nothing
// added", and your own glob rule (~/.pi/agent/rules, which needs no repository
// reading) never arrived. Your glob rules are now matched first, alone, and the
// answer at the budget sends them, saying the project's part was cut. The
// project's part is held here past the budget by a pass made slow on purpose
// (the real one, called after a wait): what a repository that costs seconds does.

const slow = { on: true };
vi.mock("../../src/gather/context/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/gather/context/index.js")>();
  return {
    ...real,
    loadContextForPathsSince: async (
      ...args: Parameters<typeof real.loadContextForPathsSince>
    ): ReturnType<typeof real.loadContextForPathsSince> => {
      // Only the full pass (context files on) waits; the pass of your own rules alone does not.
      if (slow.on && args[1].contextFiles !== false) {
        await new Promise((done) => setTimeout(done, HOOK_DEADLINE_MS + 1500).unref());
      }
      return real.loadContextForPathsSince(...args);
    },
  };
});

function project(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, { "p/.git/HEAD": "ref: refs/heads/main\n", ...files });
  const cwd = join(root, "p");
  let n = 0;
  const hook = async (agent: string, command: string) => {
    let stdout = "";
    let stderr = "";
    n++;
    const input = JSON.stringify({
      session_id: `b${n}`,
      cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command },
    });
    await run(["hook", agent], {
      stdout: (t) => {
        stdout += t;
      },
      stderr: (t) => {
        stderr += t;
      },
      cwd,
      env: { XDG_CACHE_HOME: join(root, "cache") },
      home: join(root, "home"),
      stdin: async () => input,
    });
    return { stdout, stderr };
  };
  return { hook };
}

describe("hostile repository: past the hook's budget, your own glob rules still arrive", () => {
  it("hook-budget-own-rules: your rule for sub/g.txt is sent at the budget, the project's part said cut", async () => {
    const { hook } = project({
      "home/.pi/agent/rules/txt.md":
        '---\nglobs: "**/*.txt"\n---\nMINE-RULE: txt files are UTF-8.\n',
      "p/sub/AGENTS.md": "THEIRS: the repository's folder notes.\n",
      "p/sub/g.txt": "y\n",
    });
    slow.on = true;
    const late = await hook("codex", "cat sub/g.txt");
    expect(late.stdout).toContain("MINE-RULE: txt files are UTF-8.");
    expect(late.stdout).not.toContain("THEIRS");
    expect(JSON.parse(late.stdout).hookSpecificOutput.hookEventName).toBe("PostToolUse");
    expect(late.stderr).toBe(
      `sysprompt hook: took more than ${HOOK_DEADLINE_MS} ms: only your own glob rules are given; the project's part (its context files and rules) was cut, and comes with a later call\n`,
    );
    // Not recorded as given: a call in time gives both.
    slow.on = false;
    const next = await hook("codex", "cat sub/g.txt");
    expect(next.stdout).toContain("MINE-RULE");
    expect(next.stdout).toContain("THEIRS");
  }, 60_000);

  it("with no rule of yours for the call, nothing is added, as before", async () => {
    const { hook } = project({
      "home/.pi/agent/rules/ts.md": '---\nglobs: "**/*.ts"\n---\nTS-RULE\n',
      "p/sub/AGENTS.md": "THEIRS\n",
      "p/sub/g.txt": "y\n",
    });
    slow.on = true;
    const late = await hook("codex", "cat sub/g.txt");
    expect(late.stdout).toBe("");
    expect(late.stderr).toBe(
      `sysprompt hook: took more than ${HOOK_DEADLINE_MS} ms: nothing added\n`,
    );
  }, 60_000);
});
