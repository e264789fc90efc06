import { describe, expect, it } from "vitest";
import { HOOK_DEADLINE_MS } from "../../src/hook/deadline.js";
import { runHook } from "../../src/hook/run.js";
import { readSession, sessionLocation } from "../../src/hook/state.js";
import { slowProject } from "./_slow-touch.js";

// Your sysprompt.yaml's deadline bounds the hook's look at a call's paths, never past the
// hook's own limit. That it stops a slow path (6,000 rule files linked from 60 folders, timed)
// is hostile-hook-deadline-scale.test.ts, in the slow tier.

describe("hostile repository: a slow touched path, under your own shorter deadline", () => {
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
