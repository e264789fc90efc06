/**
 * The signal of a reader with no deadline of its own, whose work is bounded
 * some other way (a CLI command run once by you on your own project; a
 * trusted reach, whose private-path checks never run): it never fires. Passed
 * by name, so that the choice is visible at the call
 * (test/repo-files/signal-required.test.ts fails on a reach given no signal).
 */
export const NO_DEADLINE: AbortSignal = new AbortController().signal;
