import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SIMULATED_ACTIONS, simulatePrompt } from "../../src/author/simulate/simulate.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

// Attack review rev91b F2: `explain --simulate` read its 20 s budget for the renders together
// (`maxRenderMs`, MAX_SIMULATE_RENDER_MS) only before each action, and an action is three renders
// (a session's before, the fresh one, the session's after): on a project whose renders took 2.3 s
// of CPU each, 24.7 s wall past the 20 s. It is read before each render now, so the renders run
// past it by one render at most; the action a render was refused in is not simulated (no row),
// and the `simulate-cut` warning names it.

// Each render's start on the simulation's clock, which jumps a long way at each render: the
// budget is passed by the renders' count, not by this machine's speed.
const JUMP_MS = 100_000;
const starts: number[] = [];
let offset = 0;
vi.mock("../../src/render-system-prompt.js", async (original) => {
  const real = await original<typeof import("../../src/render-system-prompt.js")>();
  return {
    ...real,
    preparePrompt: async (...args: Parameters<typeof real.preparePrompt>) => {
      starts.push(performance.now());
      try {
        return await real.preparePrompt(...args);
      } finally {
        offset += JUMP_MS;
      }
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("hostile repository: explain --simulate's budget for its renders together", () => {
  it("is read before each render: none starts past it, and the action it cut is named", async () => {
    const realNow = performance.now.bind(performance);
    vi.spyOn(performance, "now").mockImplementation(() => realNow() + offset);
    const root = tempDir();
    const dir = join(root, "project");
    cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
    mkdirSync(join(dir, ".git"));
    starts.length = 0;
    offset = 0;
    // Passed during the first action: after the baseline's render and the session's first.
    const budget = 2.5 * JUMP_MS;
    const started = performance.now();
    const report = await simulatePrompt(pinned(root), {
      sandboxDir: join(root, "sandboxes"),
      maxRenderMs: budget,
    });
    // No render started past the budget (before: the action's last two did).
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (const at of starts) expect(at - started).toBeLessThan(budget);
    // The first action was cut mid-way: no row of half its renders, and it is named.
    expect(report.actions).toEqual([]);
    const cut = report.diagnostics.find((d) => d.code === "simulate-cut");
    expect(cut?.message).toContain(
      `${SIMULATED_ACTIONS.length} of ${SIMULATED_ACTIONS.length} actions were not simulated`,
    );
  }, 120_000);
});
