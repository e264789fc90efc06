/** How long `work` took, in ms, and what it gave. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/**
 * The CPU time this process spent on `work` (user and system, in ms), the clock's time, and
 * what it gave. For a bound on work the code does itself: a loaded machine gives it fewer
 * turns, and the clock counts the other processes' turns too (seconds, with a dozen suites on
 * two cores), while the CPU time stays the work done. In a process of its own (vitest's forks;
 * worker threads share their process's CPU time), with nothing else running meanwhile.
 */
export async function cpuTimed<T>(
  work: () => T | Promise<T>,
): Promise<{ cpuMs: number; wallMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const value = await work();
  const { user, system } = process.cpuUsage(cpu);
  return { cpuMs: (user + system) / 1000, wallMs: Math.round(performance.now() - wall), value };
}
