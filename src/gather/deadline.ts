import pTimeout, { TimeoutError } from "p-timeout";
import { type Diagnostic, type StepTiming, SyspromptError } from "../types.js";
import type { GateHeld } from "./own-first.js";

/** Default for the whole gathering stage, in milliseconds. */
export const DEFAULT_DEADLINE_MS = 5000;

/**
 * What a gathering step gives: its value, and what it has to say about the
 * files and folders it read (a file it could not read, a cut, a refusal).
 */
export interface Gathered<T> {
  value: T;
  diagnostics: Diagnostic[];
}

/**
 * One gathering step. Every step has this contract, and every step's
 * diagnostics reach the render through its outcome alone.
 */
export interface GatherStep<T> {
  name: string;
  /** Undefined: the step does not run at all (status "skipped"). */
  run: (() => Promise<Gathered<T>>) | undefined;
  /** Used, with no diagnostic of its own, when the step is skipped, or late or failed and has no `partial`. */
  fallback: T;
  /**
   * Called once when the step is late or fails: what it has so far (the environment
   * without its GPU line, the context files read before the deadline).
   * Default: `fallback`. It must not throw; if it does, `fallback` is used.
   */
  partial?: () => Gathered<T>;
  /**
   * Names the step's work *and every input it depends on* (two renders whose
   * steps share a key must want the same value). With a key, work that
   * settles after its render gave up on it is kept in this process and given
   * to the next render with the same key instead of running the step again;
   * while that work is still running, the next render waits on it rather than
   * starting a second copy (a second GPU probe, a second tree walk). A kept
   * result is used once, so it is at most one render old.
   */
  cacheKey?: string;
  /**
   * Every value `run` depends on besides the file system (folders, options),
   * compared with `util.isDeepStrictEqual`. A prompt session reuses the step's
   * last value while these are equal and nothing `run` read has changed on
   * disk; a step without `inputs` runs every time.
   */
  inputs?: unknown;
}

/** A loader's result that carries its own diagnostics, in the step contract's shape. */
export function lifted<T extends { diagnostics: Diagnostic[] }>(result: T): Gathered<T> {
  return { value: result, diagnostics: result.diagnostics };
}

/** A step's value and diagnostics (its own, or why it failed), with its timing. */
export interface StepOutcome<T> extends Gathered<T> {
  timing: StepTiming;
}

/** How `preparePrompt` runs each step: {@link runStep}, or a prompt session's runner that reuses unchanged results. */
export type StepRunner = <T>(
  step: GatherStep<T>,
  deadline: number,
  clock: () => number,
) => Promise<StepOutcome<T>>;

/**
 * The reason a render's gathering signal fires with once its deadline has
 * passed: a step whose work stops on it is late (its partial value), not failed.
 */
export class DeadlinePassed extends Error {
  constructor() {
    super("the render's deadline has passed");
    this.name = "DeadlinePassed";
  }
}

/** `error` is {@link DeadlinePassed}, or an abort (of fs, a child process) caused by it. */
function isDeadlinePassed(error: unknown): boolean {
  return (
    error instanceof DeadlinePassed ||
    (error instanceof Error && error.cause instanceof DeadlinePassed)
  );
}

/**
 * Fires `controller` with {@link DeadlinePassed} once `deadline` (on `clock`)
 * is reached: the moment the steps' own timers give up on them, not once the
 * slowest of them has been waited for. Returns how to cancel it.
 */
export function abortAtDeadline(
  controller: AbortController,
  deadline: number,
  clock: () => number,
): () => void {
  const left = Math.max(0, deadline - clock());
  if (left > MAX_TIMER_MS) return () => undefined;
  const timer = setTimeout(() => controller.abort(new DeadlinePassed()), left);
  timer.unref();
  return () => clearTimeout(timer);
}

/** Work that outlived its render, by cache key. */
type LateWork = { state: "running"; promise: Promise<unknown> } | { state: "done"; value: unknown };

const lateWork = new Map<string, LateWork>();

/** Forgets every kept late result and running late work (tests; a harness that wants a cold start). */
export function clearStepCache(): void {
  lateWork.clear();
}

/** The longest delay a Node timer takes (2^31-1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A signal that fires `deadlineMs` from now (none past {@link MAX_TIMER_MS}): the deadline of
 * work a render does before its gathering starts (a file you name, the preset's project root).
 */
export function deadlineSignal(deadlineMs: number): AbortSignal | undefined {
  return deadlineMs <= MAX_TIMER_MS ? AbortSignal.timeout(deadlineMs) : undefined;
}

/**
 * Runs one step under the shared deadline (an absolute time on `clock`). A late
 * or failed step gives its partial value or fallback now; its promise keeps running in
 * the background (and, with a `cacheKey`, serves the next render). A late step
 * adds no diagnostic of its own: {@link lateStepsWarning} names all late steps
 * of a render in one. Misuse errors ({@link SyspromptError}) are rethrown: they
 * are the caller's to see, not a step failure to paper over.
 */
export async function runStep<T>(
  step: GatherStep<T>,
  deadline: number,
  clock: () => number,
): Promise<StepOutcome<T>> {
  const started = clock();
  const timing = (status: StepTiming["status"]): StepTiming => ({
    name: step.name,
    status,
    ms: Math.round((clock() - started) * 10) / 10,
  });
  if (!step.run) return { value: step.fallback, timing: timing("skipped"), diagnostics: [] };

  const key = step.cacheKey;
  const kept = key === undefined ? undefined : lateWork.get(key);
  if (key !== undefined && kept?.state === "done") {
    lateWork.delete(key);
    return { ...(kept.value as Gathered<T>), timing: timing("ok") };
  }
  const joined = kept?.state === "running";
  const work = joined ? (kept.promise as Promise<Gathered<T>>) : step.run();
  // When the work settled, on `clock`: work that settles past the deadline
  // may have settled because the render's signal fired then (a walk that
  // gives up, a killed git), before this step's own timer had its turn.
  let settledAt = Number.NEGATIVE_INFINITY;
  const timed = work.then((value) => {
    settledAt = clock();
    return value;
  });
  try {
    // p-timeout refuses 0 ms (a TypeError, reported as a failed step). A step
    // that starts at or after the deadline gets 1 ms: already-done work still
    // counts, anything else times out. p-timeout clears its timer when the
    // work settles first, so no timer outlives the render.
    // A timer longer than 2^31-1 ms fires after 1 ms in Node (a warning on
    // stderr): a deadline that far off is no deadline at all.
    const left = Math.max(1, deadline - started);
    const milliseconds = left > MAX_TIMER_MS ? Number.POSITIVE_INFINITY : left;
    const gathered = await pTimeout(timed, { milliseconds });
    // A step that started past the deadline keeps its 1 ms: already-done work counts.
    if (settledAt > deadline && started < deadline) throw new DeadlinePassed();
    if (joined && key !== undefined) lateWork.delete(key);
    return { value: gathered.value, diagnostics: gathered.diagnostics, timing: timing("ok") };
  } catch (error) {
    if (error instanceof SyspromptError) throw error;
    if (error instanceof TimeoutError || isDeadlinePassed(error)) {
      if (key !== undefined && !joined) keepLateWork(key, work);
      // Keep the late promise from surfacing as an unhandled rejection later.
      else work.catch(() => undefined);
      return { ...partialValue(step), timing: timing("timeout") };
    }
    if (joined && key !== undefined) lateWork.delete(key);
    // A failed step keeps what it had read, as a late one does: your own part, read first.
    const partial = partialValue(step);
    return {
      value: partial.value,
      timing: timing("failed"),
      diagnostics: [
        ...partial.diagnostics,
        {
          level: "error",
          code: "step-failed",
          message: `gathering step "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
    };
  }
}

function keepLateWork(key: string, work: Promise<unknown>): void {
  const entry: LateWork = { state: "running", promise: work };
  lateWork.set(key, entry);
  work.then(
    (value) => {
      if (lateWork.get(key) === entry) lateWork.set(key, { state: "done", value });
    },
    () => {
      // Failed late work leaves nothing behind: the next render runs the step afresh.
      if (lateWork.get(key) === entry) lateWork.delete(key);
    },
  );
}

function partialValue<T>(step: GatherStep<T>): Gathered<T> {
  const fallback = { value: step.fallback, diagnostics: [] };
  if (!step.partial) return fallback;
  try {
    return step.partial();
  } catch {
    // The contract says partial never throws; if one does, the fallback is still a value.
    return fallback;
  }
}

/**
 * One warning naming every step that missed the deadline (in step order), or
 * none. One per render, not one per step: a slow disk makes several steps late
 * at once, and that is one event for the reader.
 */
export function lateStepsWarning(
  timings: readonly StepTiming[],
  budgetMs: number,
  held?: GateHeld,
): Diagnostic[] {
  const late = timings.filter((t) => t.status === "timeout").map((t) => `"${t.name}"`);
  if (late.length === 0) return [];
  const [what, their] =
    late.length === 1 ? ["step", "its fallback was"] : ["steps", "their fallbacks were"];
  // The cause a user can act on: the repository's parts waited for yours (rev51a F3).
  const gate = held
    ? `; the repository's parts waited ${held.waitedMs} ms at the own-first gate for ${held.parts.join(", ")} to be read first: raise --deadline to keep both`
    : "";
  return [
    {
      level: "warning",
      code: "step-timeout",
      message: `gathering ${what} ${late.join(", ")} missed the ${budgetMs} ms deadline; ${their} used${gate}`,
    },
  ];
}

/**
 * A loader that runs outside a render's steps (`list`, `expand`, the
 * templates `explain` and `watch` count), given a signal that fires after
 * `leftMs` (of a deadline of `deadlineMs`): its value, or once that signal
 * stopped it, `nothing` and a warning that names `what` was cut. Each such
 * loader parses a repository's thousands of frontmatter blocks
 * synchronously, a file at a time.
 */
export async function loadWithin<T>(
  deadlineMs: number,
  what: string,
  load: (signal: AbortSignal) => Promise<T>,
  nothing: T | SoFar<T>,
  leftMs = deadlineMs,
): Promise<{ value: T; diagnostics: Diagnostic[] }> {
  const signal = signalAfter(leftMs);
  try {
    return { value: await load(signal), diagnostics: [] };
  } catch (error) {
    if (!signal?.aborted) throw error;
    return { value: stoppedValue(nothing), diagnostics: [loadDeadline(what, deadlineMs)] };
  }
}

/** The warning of a load stopped at its deadline: `what` was read in part, or not at all. */
export function loadDeadline(what: string, deadlineMs: number): Diagnostic {
  return {
    level: "warning",
    code: "load-deadline",
    message: `stopped reading the ${what} at the ${deadlineMs} ms deadline; the rest are left out`,
  };
}

/**
 * A signal that fires after `ms` (at once when `ms` is not positive), or one
 * that never fires when `ms` is past what a timer takes: never none, which a
 * public loader takes for "bound me by default" ({@link boundedByDefault}).
 */
export function signalAfter(ms: number): AbortSignal {
  const after = Math.max(0, Math.floor(ms));
  return after > MAX_TIMER_MS ? new AbortController().signal : AbortSignal.timeout(after);
}

/**
 * A public loader's bound when its caller passes no signal (`loadSkills`,
 * `loadRules`…): `load` runs with one that fires at a render's default
 * deadline, and past it gives `nothing` with a `load-deadline` warning naming
 * `what`, so a library caller is never held by a repository's thousands of
 * files. A caller's own signal is used as given.
 */
export async function boundedByDefault<T extends { diagnostics: Diagnostic[] }>(
  signal: AbortSignal | undefined,
  what: string,
  load: (signal: AbortSignal) => Promise<T>,
  nothing: T | SoFar<T>,
): Promise<T> {
  if (signal !== undefined) return load(signal);
  const bound = AbortSignal.timeout(DEFAULT_DEADLINE_MS);
  try {
    return await load(bound);
  } catch (error) {
    if (!bound.aborted) throw error;
    const kept = stoppedValue(nothing);
    return { ...kept, diagnostics: [...kept.diagnostics, loadDeadline(what, DEFAULT_DEADLINE_MS)] };
  }
}

/**
 * What a loader stopped at its deadline had already done, asked for only once
 * it stopped ({@link loadWithin}, {@link boundedByDefault}): the user's own
 * files, read before the repository's, are kept.
 */
export interface SoFar<T> {
  soFar: () => T;
}

function stoppedValue<T>(nothing: T | SoFar<T>): T {
  return typeof nothing === "object" && nothing !== null && "soFar" in nothing
    ? (nothing as SoFar<T>).soFar()
    : (nothing as T);
}
