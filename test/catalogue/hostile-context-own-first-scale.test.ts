import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// rev46b L2: the context step reads your AGENTS.md first and keeps it for a render that gives up
// on the step, but the project's steps started with it: a trusted project's 300 partials of
// 20 KB filled the reads' queue and the event loop, and at `deadlineMs: 400` the step's fallback
// was still empty, your AGENTS.md out of the prompt (3 runs of 3). The steps that read the
// repository now start once your context file is read. Here the project layer's loading holds
// the event loop for 500 ms once it starts, as those partials did, past a 400 ms deadline.

const BUSY_MS = 500;
const busy = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/locate/load-layer.js", async (importOriginal) => {
  const layers = await importOriginal<typeof import("../../src/locate/load-layer.js")>();
  return {
    ...layers,
    loadLayer: async (...args: Parameters<typeof layers.loadLayer>) => {
      if (args[1] === "project" && busy.on) {
        // Its first reads come back, then its parsing holds the loop.
        await new Promise((done) => setImmediate(done));
        const until = performance.now() + BUSY_MS;
        while (performance.now() < until) {
          // the repository's partials, parsed
        }
      }
      return layers.loadLayer(...args);
    },
  };
});

function fixture() {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.pi/agent/AGENTS.md": "USER-AGENTS-MD-MARKER: always be careful.\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/partials/p0.md": "partial\n",
  };
  writeFiles(root, files);
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
  };
}

describe("hostile repository: a project whose layer holds the loop does not push your AGENTS.md out", () => {
  it("your AGENTS.md is in the prompt when the context step misses a short deadline", async () => {
    const paths = fixture();
    // Warm: modules loaded and the builtin templates compiled, as in a session's later render.
    await renderSystemPrompt(paths);
    busy.on = true;
    const r = await renderSystemPrompt({ ...paths, deadlineMs: 400 }).finally(() => {
      busy.on = false;
    });
    expect(r.diagnostics.map((d) => d.code)).toContain("step-timeout");
    expect(r.text).toContain("USER-AGENTS-MD-MARKER");
  }, 10_000);
});
