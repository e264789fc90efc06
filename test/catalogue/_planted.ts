import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { clearStepCache } from "../../src/gather/deadline.js";

// What the cases of a program planted on PATH share: the program, and PATH
// (which they set) put back after each test, with the steps' cache cleared so
// no probe answer found on a planted PATH serves the next test.

/** An executable `name` in `dir` that leaves `ran` behind when it runs. */
export function plant(dir: string, name: string, ran: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\n: > ${ran}\n`);
  chmodSync(join(dir, name), 0o755);
}

/** An executable `name` in `dir` that writes its pid to `pidFile`, then sleeps `seconds` as that same process. */
export function plantSlow(dir: string, name: string, pidFile: string, seconds = 30): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), `#!/bin/sh\necho $$ > ${pidFile}\nexec /bin/sleep ${seconds}\n`);
  chmodSync(join(dir, name), 0o755);
}

/** Whether process `pid` still runs (Linux: a zombie waiting to be reaped does not). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (comm) S …`: the state follows the last `)`.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Puts `process.env.PATH` back after each test of the file, and clears the steps' cache. */
export function restorePathAfterEach(): void {
  let savedPath: string | undefined;
  beforeEach(() => {
    savedPath = process.env.PATH;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    clearStepCache();
  });
}
