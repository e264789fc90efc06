// Types of bench/_plan.mjs for the test that imports it (test/misc/bench-plan.test.ts).
export interface Suite {
  name: string;
  slow?: boolean;
}
export interface Plan<S extends Suite = Suite> {
  suites: S[];
  partial: boolean;
  write: boolean;
}
export function plan<S extends Suite>(
  args: readonly string[],
  suites: readonly S[],
  env?: { BENCH_TREE?: string },
): Plan<S>;
export function afterRun(
  rows: readonly { id: string; skipped?: string }[],
  chosen: Plan,
  args: readonly string[],
): { write: boolean; messages: string[] };
