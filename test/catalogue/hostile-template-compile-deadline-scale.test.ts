import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { renderWithRoom } from "../../src/budget/fit.js";
import { createEngine } from "../../src/engine/index.js";
import { preparePrompt } from "../../src/index.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev93g F1: a trusted project's template within every cap (tags, partial
// calls, characters), made of 1,663 copies of `{{#if a}}{{../../../a.b}}{{/if}}` (4,989
// tags), takes 0.5-1.2 s of CPU to compile, and nothing read the render's stop time
// (`renderStop`) during a compile: `late()` was read before each project section and at each
// print of a project partial only, so a compile begun just before the stop ran to its end,
// and a project partial your section calls (compiled lazily, in your template, where `late()`
// never stops) compiled whole past it. Now the engine asks the render's stop before each
// compile of a template not yours and between small pieces of it (tokens, syntax nodes,
// opcodes): a project's section stops with a `template` error, the prompt's work spent; a
// project partial printed in your section fails alone, your section kept.

const MARKER = "USER-RULE-MARKER: be careful.";
const MINE = "MY-SECTION-MARKER";
/** 4,989 tags: within a template's 5,000, its words and its partial calls. */
const HEAVY = "{{#if a}}{{../../../a.b}}{{/if}}".repeat(1_663);

/** A project with two heavy sections, or (`partials`) your section printing two heavy project partials. */
function project(partials: boolean): string {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.pi/agent/AGENTS.md": `${MARKER}\n`,
    "project/.git/HEAD": "ref: refs/heads/main\n",
  };
  if (partials) {
    files["home/.pi/agent/sections/mine.md"] =
      `---\norder: 90\n---\n${MINE} before\n\n{{> big0}}\n\n{{> big1}}\n\n${MINE} after\n`;
    for (const p of [0, 1]) files[`project/.pi/partials/big${p}.md`] = `BIG${p}\n${HEAVY}\n`;
  } else {
    for (const s of [0, 1])
      files[`project/.pi/sections/s${s}.md`] = `---\norder: ${100 + s}\n---\nS${s}\n${HEAVY}\n`;
  }
  writeFiles(root, files);
  return root;
}

function options(root: string) {
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs: 60_000,
  };
}

type Stop = { at: number; clock: () => number };

async function renderAt(partials: boolean, stopAt: () => Stop) {
  const prepared = await preparePrompt(options(project(partials)));
  const engine = createEngine();
  // The compiler loaded before the clock starts: its load is no part of the compile.
  engine.check("{{x}}");
  return cpuTimed(() =>
    withCheckBudget(() => renderWithRoom({ ...prepared, stopAt: stopAt() }, engine, new Set())),
  );
}

describe("hostile repository: a project's templates within every cap, slow to compile", () => {
  it("stops a project's section mid-compile at the render's stop time", async () => {
    // A clock past the stop at its 5th reading: before the section (1), before its compile (2),
    // then every few milliseconds of the compile (3, 4, 5).
    let readings = 0;
    const { value: out } = await renderAt(false, () => ({ at: 5, clock: () => ++readings }));
    const stop = out.diagnostics.find((d) => d.code === "template");
    expect(stop?.message).toContain("deadline passed while the project's templates compiled");
    expect(stop?.path).toContain("s0.md");
    expect(out.stopped).toEqual(["s0"]);
    expect(out.unworked).toEqual(["s1"]);
    expect(out.text).not.toContain("S0");
    expect(out.text).toContain(MARKER);
    expect(readings).toBe(5);
  }, 60_000);

  it("stops a project partial's lazy compile in your section: that print alone is left out", async () => {
    // Past the stop at every reading: your section still renders, the partials it prints do not compile.
    let readings = 0;
    const { value: out } = await renderAt(true, () => ({ at: 0, clock: () => ++readings }));
    const failed = out.diagnostics.filter((d) => d.code === "template");
    expect(failed.map((d) => d.path)).toEqual([".pi/partials/big0.md", ".pi/partials/big1.md"]);
    for (const d of failed) {
      expect(d.level).toBe("warning");
      expect(d.message).toContain("deadline passed while the project's templates compiled");
    }
    expect(out.text).toContain(`${MINE} before`);
    expect(out.text).toContain(`${MINE} after`);
    expect(out.text).not.toContain("BIG");
    expect(out.text).toContain(MARKER);
    // Asked once before each compile: neither began.
    expect(readings).toBe(2);
  }, 60_000);

  it("spends little CPU past a stop that passes mid-compile (real clock)", async () => {
    // The stop 30 ms after the clock's first reading (the first project template's render, or
    // compile): before, the sections' first compiled whole and the partials both (1.0-2.4 s of
    // CPU at a load of 12); now each compile stops within a few ms of it.
    const stopSoon = () => {
      let first: number | undefined;
      const clock = () => {
        first ??= performance.now();
        return performance.now() - first;
      };
      return { at: 30, clock };
    };
    for (const partials of [true, false]) {
      const { cpuMs, value: out } = await renderAt(partials, stopSoon);
      // Idle: 20-120 ms (the 30 ms to the stop, the rest of the render); before, 0.7-1.4 s.
      expect(cpuMs).toBeLessThan(450);
      expect(out.text).toContain(MARKER);
      expect(out.text).not.toContain(partials ? "BIG" : "S0");
    }
  }, 120_000);
});
