import type { HelperDelegate } from "handlebars";
import { locationOf, PartialCallError, TemplateError } from "./_errors.js";
import { MAX_PARTIAL_DEPTH, MAX_RENDER_CALLS, MAX_RENDER_OUTPUT } from "./limits.js";

// What one render may spend. Templates can multiply work without growing:
// partials that include the next one twice double the output per level, and
// nested `{{#each}}` blocks multiply list sizes. So every partial, helper call
// and block body is metered while it runs, and the render stops with a
// TemplateError as soon as a limit of `limits.ts` is crossed: its cost stays
// proportional to the input and the limits, whatever the template does.

/** The budget of one render; `begin`/`end` bracket every metered call. */
export class RenderBudget {
  private calls = 0;
  private produced = 0;
  /** For each call running now (and the render itself at [0]), the output length of the calls it made. */
  private readonly childOutput: number[] = [0];
  /** The partials running now, outermost first. */
  private readonly partials: string[] = [];

  /** Counts one call; throws once there are too many. */
  begin(): void {
    this.calls++;
    if (this.calls > MAX_RENDER_CALLS) {
      throw new TemplateError(
        `Render stopped after ${MAX_RENDER_CALLS} helper calls, blocks and partials: nested loops or partials multiply the work`,
      );
    }
    this.childOutput.push(0);
  }

  /**
   * Ends the call begun last with its result. The text it produced itself (its
   * result less what the calls inside it returned) is counted, so a text
   * nested in ten blocks counts once, not ten times.
   */
  end(result: unknown): void {
    const fromCalls = this.childOutput.pop() ?? 0;
    const length = typeof result === "string" ? result.length : 0;
    const own = length - fromCalls;
    if (own > 0) {
      this.produced += own;
      if (this.produced > MAX_RENDER_OUTPUT) {
        throw new TemplateError(
          `Render stopped: it produced more than ${MAX_RENDER_OUTPUT / (1024 * 1024)} MiB of text`,
        );
      }
    }
    const parent = this.childOutput.length - 1;
    this.childOutput[parent] = (this.childOutput[parent] ?? 0) + length;
  }

  /** Enters partial `name`; throws when that nests partials deeper than MAX_PARTIAL_DEPTH. */
  enterPartial(name: string): void {
    if (this.partials.length >= MAX_PARTIAL_DEPTH) {
      throw new TemplateError(
        this.partials.includes(name)
          ? `Partial "${name}" includes itself: partials nested more than ${MAX_PARTIAL_DEPTH} deep`
          : `Partials nested more than ${MAX_PARTIAL_DEPTH} deep, at "${name}"`,
      );
    }
    this.partials.push(name);
  }

  leavePartial(): void {
    this.partials.pop();
  }

  /** Runs `fn` as one metered call. Not balanced when `fn` throws: that ends the render. */
  run<T>(fn: () => T): T {
    this.begin();
    const result = fn();
    this.end(result);
    return result;
  }
}

type Program = (...args: unknown[]) => unknown;

/** Marks a block body already metered: `blockHelperMissing` hands its options on to `each`. */
const METERED = Symbol("metered");

/** `program` (a block's body or its `{{else}}`) metered as one call per run. */
function meterProgram(budget: RenderBudget, program: unknown, noop: unknown): unknown {
  if (
    typeof program !== "function" ||
    program === noop ||
    (program as { [METERED]?: true })[METERED]
  ) {
    return program;
  }
  const run = program as Program;
  // Handlebars calls a body with (context, options). No `finally`: an error here ends the whole render.
  const metered = function meteredProgram(this: unknown, context: unknown, options: unknown) {
    budget.begin();
    const result = run.call(this, context, options);
    budget.end(result);
    return result;
  };
  (metered as { [METERED]?: true })[METERED] = true;
  return metered;
}

/**
 * Wraps a helper so that each call, and each run of its block and `{{else}}`,
 * is metered against the budget of the render in progress (`current()`).
 * Outside a render (no budget) it calls the helper as it is. An error it
 * throws goes through `guard` (when given), then gets the helper's place if
 * it has none.
 */
export function meterHelper(
  helper: HelperDelegate,
  current: () => RenderBudget | undefined,
  noop: unknown,
  guard?: (error: unknown, options: unknown) => unknown,
): HelperDelegate {
  return function meteredHelper(this: unknown, ...args: unknown[]): unknown {
    const budget = current();
    const options = args[args.length - 1] as { fn?: unknown; inverse?: unknown } | undefined;
    try {
      if (budget === undefined) return (helper as Program).apply(this, args);
      if (options !== null && typeof options === "object") {
        if ("fn" in options) options.fn = meterProgram(budget, options.fn, noop);
        if ("inverse" in options) options.inverse = meterProgram(budget, options.inverse, noop);
      }
      budget.begin();
      const result = (helper as Program).apply(this, args);
      budget.end(result);
      return result;
    } catch (error) {
      throw locateAtHelper(guard ? guard(error, options) : error, options);
    }
  };
}

/**
 * An error without a place (the budget ran out inside this helper's block)
 * gets the helper's place, the innermost one known. Located errors and
 * partial failures (located later, at their call) pass through.
 */
function locateAtHelper(error: unknown, options: unknown): unknown {
  if (!(error instanceof TemplateError) || error instanceof PartialCallError) return error;
  if (error.line !== undefined) return error;
  const at = locationOf(options);
  if (at.line === undefined) return error;
  return new TemplateError(error.reason, {
    ...at,
    cause: error.cause,
    partialChain: error.partialChain,
  });
}
