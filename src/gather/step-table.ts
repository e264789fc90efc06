import type { StepTiming } from "../types.js";
import type { GatherStep, StepOutcome, StepRunner } from "./deadline.js";

/** One entry of a render's table of gathering steps. */
export interface TableStep<T> {
  step: GatherStep<T>;
  /**
   * False: the step is not bounded by the deadline (the builtin templates,
   * without which there is no prompt at all). Default: true.
   */
  bounded?: boolean;
  /**
   * True: the step starts once every other step has settled (the tree walk,
   * which is long and mostly synchronous: started at once, the short steps'
   * chains of reads would each wait a slice of the walk per link). Its time
   * still counts from the start. Default: false.
   */
  afterOthers?: boolean;
}

/** A table of steps by name; its key order is the order of the timings. */
export type StepTable = Record<string, TableStep<unknown>>;

/** The outcome of each step of a table, by the same names. */
export type TableOutcomes<T extends StepTable> = {
  [K in keyof T]: T[K] extends TableStep<infer V> ? StepOutcome<V> : never;
};

/** Types an entry, so a table can be written as an object literal. */
export function tableStep<T>(step: GatherStep<T>, more: Omit<TableStep<T>, "step"> = {}) {
  return { step, ...more } as TableStep<T>;
}

/**
 * Runs every step of `table` under one deadline: all at once, except those
 * marked `afterOthers`, which start when the rest have settled. Returns each
 * outcome by name and the timings in table order.
 */
export async function runStepTable<T extends StepTable>(
  table: T,
  runner: StepRunner,
  deadline: number,
  clock: () => number,
): Promise<{ outcomes: TableOutcomes<T>; timings: StepTiming[] }> {
  const names = Object.keys(table) as (keyof T & string)[];
  const limit = (entry: TableStep<unknown>) =>
    entry.bounded === false ? Number.POSITIVE_INFINITY : deadline;
  const running = new Map<string, Promise<StepOutcome<unknown>>>();
  for (const name of names) {
    const entry = table[name] as TableStep<unknown>;
    if (!entry.afterOthers) running.set(name, runner(entry.step, limit(entry), clock));
  }
  const others = Promise.allSettled([...running.values()]);
  for (const name of names) {
    const entry = table[name] as TableStep<unknown>;
    if (!entry.afterOthers) continue;
    const run = entry.step.run;
    const step = run ? { ...entry.step, run: () => others.then(run) } : entry.step;
    running.set(name, runner(step, limit(entry), clock));
  }
  const settled = await Promise.all(
    names.map((n) => running.get(n) as Promise<StepOutcome<unknown>>),
  );
  const outcomes = Object.fromEntries(names.map((n, i) => [n, settled[i]])) as TableOutcomes<T>;
  return { outcomes, timings: settled.map((o) => o.timing) };
}
