// Long walks over a repository (the workspace tree, the skills folders) call
// the file system synchronously or loop over many entries with no I/O in
// between. Either way the event loop does not turn, so the deadline's timer
// cannot fire and no abort can be heard. Such a walk calls `pace()` between
// calls and every few entries of a loop: within a slice it costs one clock
// read; past the slice's end the walk waits one turn of the event loop, and
// `checkpoint` then throws when the walk has been told to stop.

/**
 * The clock a render's deadline is kept on, in milliseconds: `process.hrtime`,
 * not `performance.now()`, whose global loads ten modules of perf_hooks, a
 * millisecond of a CLI start.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * Longest stretch of synchronous work before the event loop gets a turn, in
 * nanoseconds. Short, because another step waiting on a read gets one turn
 * per slice: its chain of reads would otherwise wait a slice per link.
 */
const SLICE_NS = 500_000n;
let sliceEnd = 0n;
let yielding: Promise<void> | undefined;

/** Resolves at once within a slice (undefined: nothing to await); past its end, after one turn of the event loop. */
export function pace(): Promise<void> | undefined {
  if (yielding) return yielding;
  if (process.hrtime.bigint() < sliceEnd) return undefined;
  yielding = new Promise((done) => {
    setImmediate(() => {
      yielding = undefined;
      sliceEnd = process.hrtime.bigint() + SLICE_NS;
      done();
    });
  });
  return yielding;
}

/**
 * {@link pace}, then stops the caller (throws the signal's reason) once
 * `signal` has fired. The way every per-entry loop of a walk checks the deadline.
 */
export async function checkpoint(signal: AbortSignal | undefined): Promise<void> {
  await nextTurn(signal);
}

/**
 * {@link checkpoint} without a promise when none is needed: undefined within
 * the slice (having thrown at once if `signal` has fired); past its end, a
 * promise of the turn that rejects if the signal fired meanwhile. A loop that
 * awaits only what this returns costs no microtask per call in a slice.
 */
export function nextTurn(signal: AbortSignal | undefined): Promise<void> | undefined {
  if (signal?.aborted) throw signal.reason;
  const turn = pace();
  if (!turn) return undefined;
  return turn.then(() => {
    if (signal?.aborted) throw signal.reason;
  });
}
