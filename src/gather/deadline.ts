import pTimeout, { TimeoutError } from "p-timeout";
import { type Diagnostic, type StepTiming, SyspromptError } from "../types.js";

/** Default for the whole gathering stage, in milliseconds. */
export const DEFAULT_DEADLINE_MS = 5000;

export interface GatherStep<T> {
  name: string;
  /** Undefined: the step does not run at all (status "skipped"). */
  run: (() => Promise<T>) | undefined;
  /** Used when the step is skipped, late or fails. */
  fallback: T;
}

export interface StepOutcome<T> {
  value: T;
  timing: StepTiming;
  diagnostics: Diagnostic[];
}

/**
 * Runs one step under the shared deadline (an absolute time on `clock`). A late
 * step gives its fallback now; its promise keeps running in the background.
 * Misuse errors ({@link SyspromptError}) are rethrown: they are the caller's
 * to see, not a step failure to paper over.
 */
export async function runStep<T>(
  step: GatherStep<T>,
  deadline: number,
  clock: () => number,
): Promise<StepOutcome<T>> {
  const started = clock();
  const timing = (status: StepTiming["status"]): StepTiming => ({
    name: step.name,
    status,
    ms: Math.round((clock() - started) * 10) / 10,
  });
  if (!step.run) return { value: step.fallback, timing: timing("skipped"), diagnostics: [] };
  const work = step.run();
  try {
    // p-timeout refuses 0 ms (a TypeError, reported as a failed step). A step
    // that starts at or after the deadline gets 1 ms: already-done work still
    // counts, anything else times out.
    const value = await pTimeout(work, { milliseconds: Math.max(1, deadline - started) });
    return { value, timing: timing("ok"), diagnostics: [] };
  } catch (error) {
    if (error instanceof SyspromptError) throw error;
    if (error instanceof TimeoutError) {
      // Keep the late promise from surfacing as an unhandled rejection later.
      work.catch(() => undefined);
      return {
        value: step.fallback,
        timing: timing("timeout"),
        diagnostics: [
          {
            level: "warning",
            code: "step-timeout",
            message: `gathering step "${step.name}" missed the deadline; its fallback was used`,
          },
        ],
      };
    }
    return {
      value: step.fallback,
      timing: timing("failed"),
      diagnostics: [
        {
          level: "error",
          code: "step-failed",
          message: `gathering step "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    };
  }
}
