import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
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
