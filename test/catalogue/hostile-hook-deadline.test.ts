import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_DEADLINE_MS } from "../../src/hook/deadline.js";
import { runHook } from "../../src/hook/run.js";
import { readSession, sessionLocation } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

// `sysprompt hook AGENT` loaded the touched path's instructions with the
// default 5,000 ms deadline whatever your sysprompt.yaml said: a deadline
// of 100 there was not passed on (touchOptions has no deadline), so a
// repository that makes on-touch slow held every tool call of the agent
// for the hook's whole limit. Your file's deadline bounds the look at the
// call's paths now, never past the hook's own limit.

const DEPTH = 60;
/** Far above the 5 ms deadline plus loading on a loaded machine, far below the 5 s the call took. */
const BOUND_MS = 3000;

/** A project whose touched path is 60 folders deep, each folder's `.claude/rules` a link to `subfolders` x 1,999 files. */
function slowProject(userConfig: string, subfolders: number) {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
  for (let s = 0; s < subfolders; s++) {
    const dir = join(root, ".big", `s${s}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 1999; f++) writeFileSync(join(dir, `r${f}.txt`), "");
  }
  let dir = root;
  let up = "";
  for (let i = 0; i < DEPTH; i++) {
    dir = join(dir, `d${i}`);
    up = `../${up}`;
    mkdirSync(join(dir, ".claude"), { recursive: true });
    symlinkSync(`${up}../.big`, join(dir, ".claude", "rules"));
  }
  writeFileSync(join(dir, "x.ts"), "");
  const agentDir = join(base, "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "sysprompt.yaml"), userConfig);
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  const env = { XDG_CACHE_HOME: join(base, "cache"), SYSPROMPT_AGENT_DIR: agentDir };
  const input = JSON.stringify({
    session_id: "s-1",
    cwd: root,
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(dir, "x.ts") },
  });
  return { root, home, env, input };
}

describe("hostile repository: a slow touched path, under your own shorter deadline", () => {
  it("the hook stops at your sysprompt.yaml's deadline, and says so", async () => {
    const p = slowProject("deadline: 5\n", 3);
    const started = performance.now();
    const out = await runHook("claude-code", p.input, { env: p.env, home: p.home });
    const took = performance.now() - started;
    expect(out.note).toMatch(/the \d+ ms deadline passed/);
    expect(took).toBeLessThan(BOUND_MS);
  }, 60_000);

  it("a longer deadline of yours is held to the hook's own limit", async () => {
    const p = slowProject("deadline: 600000\n", 0);
    await runHook("claude-code", p.input, { env: p.env, home: p.home });
    const location = sessionLocation("claude-code", "s-1", {
      agentDir: p.env.SYSPROMPT_AGENT_DIR,
      env: p.env,
      home: p.home,
    });
    const kept = readSession(location).snapshot as { options: { deadlineMs?: number } };
    expect(kept.options.deadlineMs).toBe(HOOK_DEADLINE_MS);
  }, 60_000);
});
