import { describe, expect, it } from "vitest";
import {
  type GatherStep,
  runStep,
  type StepOutcome,
  type StepRunner,
} from "../../src/gather/deadline.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import type { StepTiming } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

/**
 * Every gathering step of the table, made to throw or to hang: the render
 * still completes, the step gives its partial value (or its fallback),
 * and the diagnostics say which step and why. The step names come from the
 * table itself, so a new step is covered without touching this file.
 */

// Small, so each hanging step costs little; long enough that the other steps
// finish on a loaded machine (their being late too would not break the assertions).
const DEADLINE_MS = 300;

/** Options that give every step of the table work to do (none is skipped). */
const everyStepOn = () =>
  pinned(tempDir(), { workspaceTree: true, git: true, deadlineMs: DEADLINE_MS });

interface Seen {
  step?: GatherStep<unknown>;
  deadline?: number;
  outcome?: StepOutcome<unknown>;
}

/** Runs every step as usual except `target`, whose work throws or never settles. */
function sabotage(target: string, how: "throw" | "hang", seen: Seen): StepRunner {
  return async <T>(step: GatherStep<T>, deadline: number, clock: () => number) => {
    if (step.name !== target) return runStep(step, deadline, clock);
    seen.step = step as GatherStep<unknown>;
    seen.deadline = deadline;
    // An unbounded step would wait forever on work that never settles.
    if (how === "hang" && deadline === Number.POSITIVE_INFINITY)
      return runStep(step, deadline, clock);
    // No cache key: late work must not serve the next case.
    const { cacheKey: _kept, ...rest } = step;
    const broken: GatherStep<T> = {
      ...rest,
      run:
        how === "throw"
          ? () => Promise.reject(new Error("disk on fire"))
          : () => new Promise<never>(() => undefined),
    };
    const outcome = await runStep(broken, deadline, clock);
    seen.outcome = outcome as StepOutcome<unknown>;
    return outcome;
  };
}

async function tableStepNames(): Promise<StepTiming[]> {
  return (await preparePrompt(everyStepOn())).steps;
}

describe("every gathering step falls back instead of crashing", async () => {
  const steps = await tableStepNames();

  it("the options used here turn every step of the table on", () => {
    expect(steps.length).toBeGreaterThanOrEqual(9);
    expect(steps.filter((s) => s.status === "skipped")).toEqual([]);
  });

  for (const { name } of steps) {
    it(`"${name}" throws: its partial value or fallback, one step-failed error, and a rendered prompt`, async () => {
      const seen: Seen = {};
      const prepared = await preparePrompt(everyStepOn(), sabotage(name, "throw", seen));
      const failed = {
        level: "error",
        code: "step-failed",
        message: `gathering step "${name}" failed: disk on fire`,
      };
      // As a late step does, a failed one keeps what it had read (rev50b F8).
      const step = seen.step as GatherStep<unknown>;
      const kept = step.partial ? step.partial() : { value: step.fallback, diagnostics: [] };
      expect(seen.outcome?.value).toEqual(kept.value);
      expect(seen.outcome?.diagnostics).toEqual([...kept.diagnostics, failed]);
      expect(prepared.steps.find((s) => s.name === name)?.status).toBe("failed");
      expect(prepared.diagnostics.filter((d) => d.code === "step-failed")).toEqual([failed]);
      const result = renderPrepared(prepared);
      expect(result.diagnostics).toContainEqual(failed);
    });

    it(`"${name}" passes the deadline: its fallback or partial value, a step-timeout warning, a rendered prompt`, async () => {
      const seen: Seen = {};
      const prepared = await preparePrompt(everyStepOn(), sabotage(name, "hang", seen));
      if (seen.deadline === Number.POSITIVE_INFINITY) {
        // The builtin templates alone are not bounded: without them there is no prompt.
        expect(name).toBe("builtin");
        expect(prepared.steps.find((s) => s.name === name)?.status).toBe("ok");
        return;
      }
      const step = seen.step as GatherStep<unknown>;
      const late = step.partial ? step.partial() : { value: step.fallback, diagnostics: [] };
      expect(seen.outcome?.timing.status).toBe("timeout");
      expect(seen.outcome?.value).toEqual(late.value);
      expect(seen.outcome?.diagnostics).toEqual(late.diagnostics);
      expect(prepared.steps.find((s) => s.name === name)?.status).toBe("timeout");
      const warnings = prepared.diagnostics.filter((d) => d.code === "step-timeout");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain(`"${name}"`);
      expect(() => renderPrepared(prepared)).not.toThrow();
    });
  }
});
