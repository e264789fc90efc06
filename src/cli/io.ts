import type { Machine } from "../gather/_machine.js";
import type { Diagnostic } from "../types.js";

/** Everything the CLI touches outside itself, injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The home folder (`~`, `~/.agents/skills`, the default agent dir). Default: `os.homedir()`. */
  home?: string;
  /** True when stdout is a terminal; colours are used only then, and never with `NO_COLOR`. Default: false. */
  isTTY?: boolean;
  /** The machine the environment section describes. Default: this one (probed). */
  machine?: Machine;
  /** Stops `sysprompt watch` and `sysprompt serve` when it aborts. Default: Ctrl-C (SIGINT). */
  signal?: AbortSignal;
}

/**
 * Exit codes: 0 success (diagnostics, if any, on stderr), 1 the command found
 * problems (under `--strict`: an error-level diagnostic was reported), 2 bad
 * usage or an unusable argument.
 */
export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** 1 under `--strict` when any reported diagnostic is an error, else 0. */
export function exitCodeFor(
  diagnostics: readonly Diagnostic[],
  strict: boolean | undefined,
): number {
  return strict && diagnostics.some((d) => d.level === "error") ? EXIT_PROBLEMS : EXIT_OK;
}

/**
 * Runs a long-lived command until `io.signal` aborts or, without one, until
 * Ctrl-C: the SIGINT handler lives only here and is removed when `run` ends.
 */
export async function untilStopped(
  io: CliIo,
  run: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  if (io.signal) return run(io.signal);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    await run(controller.signal);
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** A usage problem found by a command after parsing; the CLI prints it and exits 2. */
export class UsageError extends Error {}
