import { callsAnswered } from "../_io.js";
import { monotonicMs } from "../_pace.js";

/**
 * How long the repository's parts wait for your own with no file-system call answered
 * meanwhile: your files take a few ms alone (hundreds on a cold, loaded start, which still
 * answers calls); a hung disk of yours holds the rest no longer than this.
 */
export const OWN_PART_IDLE_MS = 250;

/** What a loader that reads your files first is given by {@link OwnFirstGate.yoursFirst}. */
export interface OwnPart {
  /**
   * Marks your part read (it is in the loader's `soFar`), then waits at the gate: awaited
   * before the loader's first look at the repository.
   */
  thenProject: () => Promise<void>;
}

/** One gate for loaders that run at once; see {@link ownFirstGate}. */
export interface OwnFirstGate {
  /**
   * Runs a loader that reads your files first: its own part counts as being read from now
   * until it calls `thenProject`, or ends, however it ends.
   */
  yoursFirst: <T>(load: (own: OwnPart) => Promise<T>, label?: string) => Promise<T>;
  /**
   * Resolves once every own part begun is read, when {@link OWN_PART_IDLE_MS} pass with no
   * file-system call answered, at `openAfterMs`, or when `signal` fires. Every part that reads the repository
   * awaits it first.
   */
  gate: () => Promise<void>;
  /**
   * Whether the gate opened at its share of the deadline or at the signal with own parts still
   * being read: how long it held the repository's parts and which of yours it waited for.
   */
  held: () => GateHeld | undefined;
}

/** What {@link OwnFirstGate.held} reports. */
export interface GateHeld {
  /** From the gate's making to its opening, in ms. */
  waitedMs: number;
  /** The own parts still being read then (`yoursFirst`'s labels), in the order begun. */
  parts: string[];
}

/** How long at most the repository's parts wait; see {@link ownFirstGate}. */
export interface OwnFirstOptions {
  /** From the gate's making: your part's share of the deadline (rev51a F3). Default: none. */
  openAfterMs?: number;
  /** In ms; default `monotonicMs`. */
  clock?: () => number;
}

/**
 * The gate that holds every repository part of loaders run at once (a render's gathering
 * steps, `list`'s loaders) until each loader's own part is read: a repository's bulk (dense
 * rule frontmatter, 60 ms of parsing a file, a turn of the event loop between two) started
 * beside your skills folder left the skills step one turn a file, and your skills were out.
 * A loader marks its own part read before it waits, so no loader waits for itself.
 */
export function ownFirstGate(signal?: AbortSignal, options: OwnFirstOptions = {}): OwnFirstGate {
  const clock = options.clock ?? monotonicMs;
  const made = clock();
  // Your part's share: your skills answering calls all along held the repository's parts until
  // the deadline, and a project's AGENTS.md was cut whole at 300-500 ms (rev51a F3).
  const openAt = made + (options.openAfterMs ?? Number.POSITIVE_INFINITY);
  const reading = new Map<Promise<void>, string>();
  let heldAt: GateHeld | undefined;
  const noteHeld = () => {
    if (reading.size === 0 || heldAt) return;
    heldAt = { waitedMs: Math.round(clock() - made), parts: [...new Set(reading.values())] };
  };
  const gate = async () => {
    // Loaders started in the same synchronous pass have begun their own parts by now.
    await Promise.resolve();
    let answered = callsAnswered();
    // A part begun while others were waited for is waited for too.
    while (reading.size > 0 && signal?.aborted !== true) {
      const left = openAt - clock();
      if (left <= 0) return noteHeld();
      const wait = Math.min(OWN_PART_IDLE_MS, Math.ceil(left));
      if (await settledWithin(Promise.all(reading.keys()), wait, signal)) continue;
      // Cut short by the share: the loop's next look opens the gate.
      if (wait < OWN_PART_IDLE_MS) continue;
      // A fixed cap let a cold, loaded start's bulk in before your skills were read (cut48).
      if (callsAnswered() === answered) return;
      answered = callsAnswered();
    }
    if (signal?.aborted === true) noteHeld();
  };
  const yoursFirst = async <T>(
    load: (own: OwnPart) => Promise<T>,
    label = "own files",
  ): Promise<T> => {
    let settle: () => void = () => undefined;
    const part = new Promise<void>((done) => {
      settle = done;
    });
    reading.set(part, label);
    const read = () => {
      reading.delete(part);
      settle();
    };
    try {
      return await load({
        thenProject: () => {
          read();
          return gate();
        },
      });
    } finally {
      read();
    }
  };
  return { yoursFirst, gate, held: () => heldAt };
}

/** Whether `work` settled before `ms` passed or `signal` fired. */
async function settledWithin(
  work: Promise<unknown>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: () => void = () => undefined;
  const waited = new Promise<boolean>((done) => {
    timer = setTimeout(() => done(false), ms);
    onAbort = () => done(false);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work.then(() => true), waited]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
