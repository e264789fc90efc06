/**
 * The CPU time (user + system, in ms) this process spends running `fn`. A
 * bound on a synchronous scan asserts this, not the wall clock: on a loaded
 * machine shared by other test runs, the wall clock counts their time too.
 * Only in a process of its own (vitest's forks pool, "unit"): in a thread pool
 * the process's CPU is every thread's.
 */
export function cpuMs<T>(fn: () => T): { result: T; ms: number } {
  const since = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(since);
  return { result, ms: (used.user + used.system) / 1000 };
}
