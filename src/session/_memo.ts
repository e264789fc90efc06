import { isDeepStrictEqual } from "node:util";
import { recordReads } from "../_io.js";
import { type Gathered, type GatherStep, runStep, type StepRunner } from "../gather/deadline.js";
import { createReadSet, type ReadSet, readSetChanged } from "./_read-set.js";

/** A step's last value and diagnostics, with the inputs it was computed from and what it read. */
export interface StepMemo {
  inputs: unknown;
  reads: ReadSet;
  gathered: Gathered<unknown>;
}

/**
 * A {@link StepRunner} that keeps each step's value in `memos` (by step name)
 * and, on the next render, gives it again without running the step when the
 * step's `inputs` are equal and nothing it read has changed on disk. Checking
 * is part of the step's work, so it counts against the deadline like the work
 * it saves. Only a value the step computed in time is kept: a late or failed
 * step (or one whose value came from late work of an earlier render) leaves
 * no memo, so the next render runs it afresh.
 */
export function memoizingRunner(memos: Map<string, StepMemo>, settleMs: number): StepRunner {
  return async <T>(step: GatherStep<T>, deadline: number, clock: () => number) => {
    const run = step.run;
    if (!run || step.inputs === undefined) {
      memos.delete(step.name);
      return runStep(step, deadline, clock);
    }
    const kept = memos.get(step.name);
    let produced: StepMemo | undefined;
    const checked: GatherStep<T> = {
      ...step,
      run: async () => {
        if (
          kept &&
          isDeepStrictEqual(kept.inputs, step.inputs) &&
          !(await readSetChanged(kept.reads))
        ) {
          produced = kept;
          return kept.gathered as Gathered<T>;
        }
        const reads = createReadSet(settleMs, kept?.reads);
        const gathered = await recordReads(reads, run);
        produced = { inputs: step.inputs, reads, gathered };
        return gathered;
      },
    };
    const outcome = await runStep(checked, deadline, clock);
    if (
      outcome.timing.status === "ok" &&
      produced &&
      Object.is(produced.gathered.value, outcome.value)
    ) {
      memos.set(step.name, produced);
    } else {
      memos.delete(step.name);
    }
    return outcome;
  };
}
