/**
 * The status a shell reports for a command that a closed pipe ended: 128 +
 * SIGPIPE (13). `set -o pipefail` scripts see it for `git log | head -1`; they
 * see it for `sysprompt sections | head -4` too.
 */
export const EXIT_CLOSED_PIPE = 141;
/** Output that cannot be written for another reason (a full disk, `> /dev/full`). */
export const EXIT_OUTPUT_FAILED = 1;

/**
 * What a write error on stdout or stderr does: it ends the process the way it
 * ends a Unix tool, instead of as an unhandled `Error: write EPIPE` stack trace.
 *
 * A reader that went away (EPIPE) ends it quietly with {@link EXIT_CLOSED_PIPE}:
 * a C tool is killed by SIGPIPE at its next write, but Node ignores that signal,
 * so the writes fail and the error comes here. Any other error is said once on
 * stderr (unless stderr is the output that failed) and ends it with
 * {@link EXIT_OUTPUT_FAILED}. Either way nothing else runs: the rest of the
 * output has nowhere to go.
 */
export function onOutputError(
  name: "stdout" | "stderr",
  writeStderr: (text: string) => unknown,
  exit: (code: number) => never,
): (error: NodeJS.ErrnoException) => never {
  return (error) => {
    if (error.code === "EPIPE") exit(EXIT_CLOSED_PIPE);
    // stderr is written synchronously (to a pipe or file), so this is out before the exit.
    if (name === "stdout") writeStderr(`sysprompt: cannot write to stdout: ${error.message}\n`);
    return exit(EXIT_OUTPUT_FAILED);
  };
}
