import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProbe } from "../../src/gather/environment/probe.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { plantSlow, restorePathAfterEach, running } from "./_planted.js";

// The GPU probe (`lspci` on Linux) did not hear the render's signal: a render
// that gave up on the environment step at its deadline returned, and the
// probe ran on until its own 3 s timeout (in a long-lived host, a child
// process per render that stops waiting). The probe now gets the render's
// signal and is killed when the render returns, and its answer, which says
// nothing, is neither cached nor kept for the next render.

restorePathAfterEach();

describe("hostile-probe: a GPU probe that never answers", () => {
  it("is killed when the render returns at its deadline, and caches nothing", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const home = join(root, "home");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(home);
    // A system folder (outside the project, not writable by others): the probe is found there.
    const sys = join(root, "sys");
    const pidFile = join(root, "lspci.pid");
    plantSlow(sys, "lspci", pidFile);
    process.env.PATH = sys;
    const deadlineMs = 1500;
    const started = performance.now();
    const result = await renderSystemPrompt({
      cwd: project,
      home,
      env: { PATH: sys },
      now: NOW,
      machine: { platform: "linux", arch: "x64", runProbe },
      deadlineMs,
    });
    const took = performance.now() - started;
    expect(result.steps.find((s) => s.name === "environment")?.status).toBe("timeout");
    // Returned at the deadline: 0.74 s past it here at a load of 8 (this file's first render),
    // 4 s of slack with CI machines up to 2x slower and loaded. What tells a probe left running
    // apart is the kill below, not this bound.
    expect(took).toBeLessThan(deadlineMs + 4000);
    const pid = Number(readFileSync(pidFile, "utf8"));
    // The kill is sent as the render returns; the child is reaped within a few ms. Without
    // it, the probe ran until its own timeout, 3 s after it started.
    const until = performance.now() + 1000;
    while (running(pid) && performance.now() < until) {
      await new Promise((done) => setTimeout(done, 20));
    }
    expect(running(pid)).toBe(false);
    expect(existsSync(join(home, ".cache", "sysprompt", "env.json"))).toBe(false);
  });
});
