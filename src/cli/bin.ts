#!/usr/bin/env node
import { statSync } from "node:fs";
import { constants } from "node:os";
import { isAbsolute } from "node:path";
import { openOutput } from "./_fd-output.js";
import { onOutputError } from "./_output-errors.js";
import { STOP_SIGNALS } from "./io.js";
import { run } from "./main.js";

const exit = (code: number): never => process.exit(code);
const stderr = openOutput(
  2,
  () => process.stderr,
  onOutputError("stderr", () => undefined, exit),
);
const stdout = openOutput(
  1,
  () => process.stdout,
  onOutputError("stdout", (text) => stderr.write(text), exit),
);

/**
 * The folder the command runs in, or "" when there is none. When it was deleted
 * under the shell, Node cannot tell it (ENOENT), and an absolute $PWD names it
 * only while it is still the process's folder (the same device and inode as
 * `.`): a deleted one is not, and a relative `-o x.md` made the deleted folder
 * again at $PWD and wrote there (rev66d F2). dash exports an empty $PWD then,
 * and a relative one names nothing. "" makes every relative path refused
 * (`resolveUserPath`), so `--cwd /abs` still works and a command without it
 * says that folder is gone.
 */
function workingFolder(): string {
  try {
    return process.cwd();
  } catch {
    const pwd = process.env.PWD;
    return pwd !== undefined && isAbsolute(pwd) && sameFolder(pwd, ".") ? pwd : "";
  }
}

/** Whether `a` and `b` are one folder (device and inode); false when either cannot be looked at. */
function sameFolder(a: string, b: string): boolean {
  try {
    const one = statSync(a, { throwIfNoEntry: false });
    const two = statSync(b, { throwIfNoEntry: false });
    return one !== undefined && two !== undefined && one.dev === two.dev && one.ino === two.ino;
  } catch {
    return false;
  }
}

const cwd = workingFolder();

// Ctrl-C or a kill (SIGTERM, SIGHUP, SIGQUIT) ends the command with the usual status,
// 128 + the signal's number, through process.exit, whose "exit" hook kills
// the programs this process started and still waits for (git, the probes:
// see runProbe). Each runs in its own process group, so the terminal's
// Ctrl-C does not reach it and Node's default end on a signal left it
// running with no parent: git reading a FIFO `.gitignore` waited forever.
// Only here, in the CLI: a host of the library owns its signals. A command
// that handles them itself (watch, serve: see untilStopped) keeps them.
for (const name of STOP_SIGNALS) {
  const number = constants.signals[name];
  process.on(name, () => {
    if (process.listenerCount(name) > 1) return;
    process.exit(128 + number);
  });
}

// No top-level await: the published CLI is this file bundled as CommonJS
// (see scripts/bundle-cli.mjs), which starts faster than a tree of ES modules.
run(process.argv.slice(2), {
  stdout: (text) => stdout.write(text),
  stderr: (text) => stderr.write(text),
  cwd,
  env: process.env,
  isTTY: stdout.isTTY(),
}).then((code) => {
  process.exitCode = code;
  // The command is done and its output written: end now. A gathering step
  // that missed the deadline may still be working on a hostile tree (20,000
  // rule files, a slow mount), and `$(sysprompt render)` would wait for it.
  // Both outputs are flushed first (a stream's writes to a pipe are
  // asynchronous on macOS). A stream that failed (EPIPE from `| head -1`) is
  // not flushed: its error handler above ends the process with that
  // failure's status instead.
  let open = 2;
  const done = (error?: Error | null) => {
    if (!error && --open === 0) process.exit(code);
  };
  stdout.flush(done);
  stderr.flush(done);
});
