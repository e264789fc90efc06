/**
 * The status a shell reports for a command that a closed pipe ended: 128 +
 * SIGPIPE (13). `set -o pipefail` scripts see it for `git log | head -1`; they
 * see it for `sysprompt sections | head -4` too.
 */
export const EXIT_CLOSED_PIPE = 141;
/** Output that cannot be written for another reason (a full disk, `> /dev/full`). */
export const EXIT_OUTPUT_FAILED = 1;

interface Stream {
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
}

/**
 * Makes a write error on stdout or stderr end the process the way it ends a
 * Unix tool, instead of as an unhandled `Error: write EPIPE` stack trace.
 *
 * A reader that went away (EPIPE) ends it quietly with {@link EXIT_CLOSED_PIPE}:
 * a C tool is killed by SIGPIPE at its next write, but Node ignores that signal,
 * so the writes fail and the error comes here. Any other error is said once on
 * stderr (unless stderr is the stream that failed) and ends it with
 * {@link EXIT_OUTPUT_FAILED}. Either way nothing else runs: the rest of the
 * output has nowhere to go.
 */
export function endOnOutputError(
  streams: { stdout: Stream; stderr: Stream & { write(text: string): unknown } },
  exit: (code: number) => never,
): void {
  const onError = (name: "stdout" | "stderr") => (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") exit(EXIT_CLOSED_PIPE);
    // stderr writes to a pipe or file synchronously, so this is out before the exit.
    if (name === "stdout")
      streams.stderr.write(`sysprompt: cannot write to stdout: ${error.message}\n`);
    exit(EXIT_OUTPUT_FAILED);
  };
  streams.stdout.on("error", onError("stdout"));
  streams.stderr.on("error", onError("stderr"));
}
