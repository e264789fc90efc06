// `npm test` after the lint: the type check and the unit tiers of vitest side by side.
//
// Why: tsc checks on one core (about 16 s of CPU here). Run before vitest, it leaves the
// second core of a 2-core machine idle for that long; run beside it, it takes the time
// vitest's two workers spend waiting on git, timers and the disk, and shares the rest.
// tsc's report is held and printed after vitest's, so the two never interleave.
// Arguments go to vitest (`npm test -- test/cli`), as when vitest ran last in the chain.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const from = (path) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

const tscOutput = [];
const tsc = spawn(
  process.execPath,
  [from("typescript/bin/tsc"), "-p", "tsconfig.json", "--noEmit"],
  {
    stdio: ["ignore", "pipe", "pipe"],
  },
);
tsc.stdout.on("data", (chunk) => tscOutput.push(chunk));
tsc.stderr.on("data", (chunk) => tscOutput.push(chunk));

const vitest = spawn(
  process.execPath,
  [
    from("vitest/vitest.mjs"),
    "run",
    "--project",
    "unit",
    "--project",
    "unit-isolated",
    "--project",
    "unit-timed",
    ...process.argv.slice(2),
  ],
  { stdio: "inherit" },
);

/** The exit code of a child: its code, or 1 when a signal ended it. */
const exited = (child) =>
  new Promise((resolve) => {
    child.on("error", (error) => {
      console.error(error.message);
      resolve(1);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });

const [vitestCode, tscCode] = await Promise.all([exited(vitest), exited(tsc)]);
process.stdout.write(Buffer.concat(tscOutput));
console.log(tscCode === 0 ? "typecheck: no errors" : `typecheck: failed (exit ${tscCode})`);
process.exitCode = vitestCode !== 0 ? vitestCode : tscCode;
