import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import type { ProbeRunner } from "../../src/gather/environment/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NOW, tempDir } from "../api/_helpers.js";

// Review rev60d F4: `explain --simulate` renders in a copy under sysprompt's cache folder, which
// the environment cache took for a folder the project shares with `env.json` (the deepest folder
// holding both): the cache was neither read nor written, and every simulated render ran the GPU
// probe again (7-16 runs; a slow lspci, 5 s cut at 3, made it 22 s and cut 3 of 6 actions). The
// machine is taken once for a simulation now, its probe answer too.

function setUp() {
  const root = tempDir();
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(project, "AGENTS.md"), "# P\n");
  const calls: string[] = [];
  const runProbe: ProbeRunner = async (command) => {
    calls.push(command);
    return { status: "ok", stdout: '00:02.0 "VGA compatible controller" "Real" "GPU"\n' };
  };
  const machine = {
    platform: "linux",
    arch: "x64",
    release: "6.8.0",
    hostname: "runner",
    runProbe,
    findBinary: async (name: string) => `/usr/bin/${name}`,
  };
  return { project, home, machine, calls };
}

describe("hostile-simulate-probe-once: a simulation, and a checkout under ~/.cache, run the GPU probe once", () => {
  it("every simulated render takes the first answer", async () => {
    const s = setUp();
    // A cache folder of $XDG_CACHE_HOME: the copies share it with env.json, the cache unused.
    const report = await simulatePrompt({
      cwd: s.project,
      home: s.home,
      env: { XDG_CACHE_HOME: join(s.home, "..", "xdg") },
      now: NOW,
      machine: s.machine,
    });
    expect(report.actions.length).toBeGreaterThan(3);
    expect(report.diagnostics.map((d) => d.code)).not.toContain("simulate-cut");
    expect(s.calls).toEqual(["/usr/bin/lspci"]);
  });

  it("a checkout under ~/.cache (a pre-commit clone) uses the environment cache; one in the checkout is still refused", async () => {
    const s = setUp();
    const clone = join(s.home, ".cache", "pre-commit", "repoabc");
    mkdirSync(join(clone, ".git"), { recursive: true });
    const options = { cwd: clone, home: s.home, env: {}, now: NOW, machine: s.machine };
    for (let i = 0; i < 3; i++) {
      const result = await renderSystemPrompt(options);
      expect(result.text).toContain("- GPU: Real GPU");
    }
    expect(s.calls).toEqual(["/usr/bin/lspci"]);
    expect(existsSync(join(s.home, ".cache", "sysprompt", "env.json"))).toBe(true);
    // $XDG_CACHE_HOME in the checkout: judged as before, the probe runs each render.
    const xdg = { ...options, cwd: s.project, env: { XDG_CACHE_HOME: join(s.project, ".cache") } };
    await renderSystemPrompt(xdg);
    await renderSystemPrompt(xdg);
    expect(s.calls).toHaveLength(3);
    expect(existsSync(join(s.project, ".cache", "sysprompt", "env.json"))).toBe(false);
  });
});
