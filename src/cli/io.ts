import { constants } from "node:os";
import { randomHex } from "../_crypto.js";
import { escapeControls } from "../_text.js";
import type { Machine } from "../gather/environment/index.js";
import type { Diagnostic } from "../types.js";

/** Everything the CLI touches outside itself, injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The folder the command runs in; "" when it was deleted and no absolute $PWD names it (see `settleWorkingFolder`). */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The home folder (`~`, `~/.agents/skills`, the default agent dir). Default: `os.homedir()`. */
  home?: string;
  /** True when stdout is a terminal; colours are used only then, and never with `NO_COLOR`. Default: false. */
  isTTY?: boolean;
  /** The machine the environment section describes. Default: this one (probed). */
  machine?: Machine;
  /** The path of the running `sysprompt` command, for settings that run it (`export --hooks`). Default: `process.argv[1]`. */
  self?: string;
  /** The node binary that settings running `sysprompt` name (`export --hooks`). Default: the running one (`process.execPath`, by its name on PATH where that is the same file). */
  node?: string;
  /** The system's list of users, whose home folders `-o` writes no dot-name in, as it writes none in yours. Default: `/etc/passwd`. */
  passwd?: string;
  /** Standard input, read whole (at most `maxBytes`; more is an error, and no more is read): the hook's input. Default: descriptor 0 (`readInput`). */
  stdin?: (maxBytes: number) => Promise<string>;
  /** Stops `sysprompt watch` and `sysprompt serve` when it aborts. Default: Ctrl-C (SIGINT), SIGTERM, SIGHUP or SIGQUIT (see {@link untilStopped}). */
  signal?: AbortSignal;
  /**
   * Standard output as it is, for the one thing printed byte for byte: the
   * prompt (`render`, `render --section`) and an expanded template
   * (`expand`), given whole in one call. Set by {@link terminalSafe};
   * everything else goes to `stdout`.
   */
  product?: (text: string) => void;
}

/** Colours are on for a terminal, unless `NO_COLOR` is set to anything but "" (https://no-color.org). */
export function colorsOn(io: Pick<CliIo, "isTTY" | "env">): boolean {
  const noColor = io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== "";
  return io.isTTY === true && !noColor;
}

/**
 * The colour codes the palette (colors.ts) writes: bold, dim and their end;
 * red, green, yellow, cyan and the end of a colour. The only escape sequences
 * that pass {@link terminalSafe}, and only while colours are on.
 */
const OUR_COLOUR_FIRST = new RegExp(`^${String.fromCharCode(0x1b)}\\[(?:1|2|22|31|32|33|36|39)m`);

let mark: string | undefined;

/**
 * Written before each colour code the palette writes (colors.ts), and taken
 * out by {@link terminalSafe}: random for each process, so no repository's
 * text carries it, and a repository's own `ESC[31m` is escaped as any other
 * control is. Never printed. Made on first use: loading `node:crypto` for it
 * cost every start some 3 ms, and a render into a pipe paints nothing.
 */
export function paletteMark(): string {
  mark ??= `\u{E000}${randomHex(8)}\u{E000}`;
  return mark;
}

/**
 * `io` with both streams made safe for a terminal: every control character
 * in what a command prints — a path, a name, a quoted line of a repository's
 * file, a diff of a prompt — is written as a visible `\uXXXX` escape (see
 * `escapeControls`), so no file can move the cursor, retitle the window or
 * write the clipboard. JSON passes unchanged in meaning (the escapes are
 * JSON's). The palette's own colour codes pass while colours are on; the
 * prompt itself goes out whole through `product`, unless stdout is a terminal. The CLI applies this once,
 * to the io every command gets.
 */
export function terminalSafe(io: CliIo): CliIo {
  const colours = colorsOn(io);
  const clean = (text: string) => (colours ? keepColours(text) : escapeControls(text));
  return {
    ...io,
    stdout: (text) => io.stdout(clean(text)),
    stderr: (text) => io.stderr(clean(text)),
    // The prompt goes on byte for byte into a pipe or a file; shown on a terminal it is a
    // report too, whose last line ends (so the shell's prompt starts on a line of its own).
    product: io.product ?? (io.isTTY === true ? (text) => io.stdout(shown(text)) : io.stdout),
  };
}

function shown(text: string): string {
  const escaped = escapeControls(text);
  return escaped === "" || escaped.endsWith("\n") ? escaped : `${escaped}\n`;
}

/** `text` escaped, but for the palette's own colour codes, each after a {@link paletteMark}. */
function keepColours(text: string): string {
  const [first = "", ...marked] = text.split(paletteMark());
  let out = escapeControls(first);
  for (const part of marked) {
    const code = OUR_COLOUR_FIRST.exec(part)?.[0] ?? "";
    out += code + escapeControls(part.slice(code.length));
  }
  return out;
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
 * The signals that stop a long-lived command as its own stop: Ctrl-C, and a
 * kill (`kill`, systemd's stop), a closed terminal, or Ctrl-\ (SIGQUIT),
 * after which what the command made for the run goes too (serve's page
 * holding its token: review rev52b F6; before, SIGTERM and SIGHUP ended the
 * process at once, and SIGQUIT until rev54b F3). The CLI ends every other
 * command on the same signals (bin.ts).
 */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/**
 * Runs a long-lived command until `io.signal` aborts or, without one, until
 * one of {@link STOP_SIGNALS}: their handlers live only here, removed at the
 * first of them (a second one ends the process at once: see bin.ts) or when
 * `run` ends. Resolves with the command's exit status: 0 when it was asked to
 * stop (`io.signal`, or Ctrl-C, the stop it tells you of), 128 + the signal's
 * number for SIGTERM (143), SIGHUP (129) and SIGQUIT (131), as a shell
 * reports a process a signal ended and as bin.ts exits every other command
 * on them.
 */
export async function untilStopped(
  io: CliIo,
  run: (signal: AbortSignal) => Promise<void>,
): Promise<number> {
  if (io.signal) {
    await run(io.signal);
    return EXIT_OK;
  }
  const controller = new AbortController();
  let stoppedBy: (typeof STOP_SIGNALS)[number] | undefined;
  const listeners = STOP_SIGNALS.map((name) => {
    const listener = () => {
      stoppedBy = name;
      off();
      controller.abort();
    };
    return [name, listener] as const;
  });
  const off = () => {
    for (const [name, listener] of listeners) process.off(name, listener);
  };
  for (const [name, listener] of listeners) process.on(name, listener);
  try {
    await run(controller.signal);
  } finally {
    off();
  }
  return stoppedBy === undefined || stoppedBy === "SIGINT"
    ? EXIT_OK
    : 128 + constants.signals[stoppedBy];
}

/** A usage problem found by a command after parsing; the CLI prints it and exits 2. */
export class UsageError extends Error {}

/**
 * A refusal of what is on disk, not of the command line (a link where a file
 * is written, a folder swapped for a link while it was written): the CLI
 * prints it on one line and exits 2, with no usage line after it.
 */
export class RefusedError extends Error {}

/**
 * A write that failed (a full disk, EIO, no permission), not a refusal: the
 * CLI prints it on one line and exits 1, as a failed `render > FILE` does.
 */
export class FailedError extends Error {}
