import { readFileSync } from "node:fs";

/**
 * True while a process with this id runs. A killed process whose parent died
 * first may stay a zombie (PID 1 in a container need not reap it): it no
 * longer runs, so it counts as gone.
 */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    // No /proc entry: gone on Linux; elsewhere ask the kernel.
  }
  try {
    process.kill(pid, 0);
    return process.platform !== "linux";
  } catch {
    return false;
  }
}

/** Waits up to `ms` for the process to stop running; true when it did. */
export async function stopsWithin(pid: number, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (!running(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !running(pid);
}
