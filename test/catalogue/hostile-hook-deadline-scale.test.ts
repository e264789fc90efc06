import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { slowProject } from "./_slow-touch.js";

// `sysprompt hook AGENT` loaded the touched path's instructions with the
// default 5,000 ms deadline whatever your sysprompt.yaml said: a deadline
// of 100 there was not passed on (touchOptions has no deadline), so a
// repository that makes on-touch slow held every tool call of the agent
// for the hook's whole limit. Your file's deadline bounds the look at the
// call's paths now, never past the hook's own limit.

/** Far above the 5 ms deadline plus loading on a loaded machine, far below the 5 s the call took. */
const BOUND_MS = 3000;

describe("hostile repository: a slow touched path, under your own shorter deadline", () => {
  it("the hook stops at your sysprompt.yaml's deadline, and says so", async () => {
    const p = slowProject("deadline: 5\n", 3);
    const started = performance.now();
    const out = await runHook("claude-code", p.input, { env: p.env, home: p.home });
    const took = performance.now() - started;
    expect(out.note).toMatch(/the \d+ ms deadline passed/);
    expect(took).toBeLessThan(BOUND_MS);
  }, 60_000);
});
