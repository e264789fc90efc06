import type { HelperDelegate } from "handlebars";
import { hasMark, READS_BLOCK, WALKS_KEYS } from "../../helpers/index.js";
import { locationOf, PartialCallError, TemplateError } from "./_errors.js";
import { type TemplateSize, templateSize } from "./_shape.js";
import {
  MAX_PARTIAL_DEPTH,
  MAX_PROMPT_CALLS,
  MAX_PROMPT_COMPILED_TAGS,
  MAX_PROMPT_COMPILES,
  MAX_PROMPT_INPUT,
  MAX_PROMPT_NAME_READ,
  MAX_PROMPT_OUTPUT,
  MAX_PROMPT_PLACE_PARSE_CHARS,
  MAX_PROMPT_REREAD,
  MAX_PROMPT_TAGS,
  MAX_PROMPT_WORDS,
  MAX_RENDER_CALLS,
  MAX_RENDER_OUTPUT,
  MAX_RENDER_REREAD,
  PARTIAL_CONTEXT_KEY_COST,
  PARTIAL_PRINT_NAME_UNITS,
} from "./limits.js";

// What one render may spend. Templates can multiply work without growing:
// partials that include the next one twice double the output per level, and
// nested `{{#each}}` blocks multiply list sizes. So every partial, helper call
// and block body is metered while it runs, and the render stops with a
// TemplateError as soon as a limit of `limits.ts` is crossed: its cost stays
// proportional to the input and the limits, whatever the template does.

/**
 * The templates one prompt compiles, every render of it (a fit's renders
 * share one): the engine keeps each template the prompt used compiled here
 * for the prompt's life, so a template pushed out of the engine's cache is
 * not compiled again (issue 24, review rev42d F1/F2); and every compile that
 * is still made (in neither) is charged ({@link MAX_PROMPT_COMPILES},
 * {@link MAX_PROMPT_COMPILED_TAGS}), so no route can loop compiles.
 */
export class PromptCompiles {
  /** Templates compiled for this prompt, and their tags. */
  compiled = 0;
  compiledTags = 0;

  /** Charges one compile of a template of `size` (undefined: refused before parsing); throws, before it, past the limits. */
  charge(size: TemplateSize | undefined): void {
    const tags = size?.tags ?? 0;
    if (
      this.compiled + 1 > MAX_PROMPT_COMPILES ||
      this.compiledTags + tags > MAX_PROMPT_COMPILED_TAGS
    ) {
      throw new TemplateError(
        `Template not compiled: the prompt compiled more than ${MAX_PROMPT_COMPILES} templates or ${MAX_PROMPT_COMPILED_TAGS} tags`,
      );
    }
    this.compiled++;
    this.compiledTags += tags;
  }

  /** Characters parsed only to place errors ({@link chargeParse}). */
  parsedChars = 0;

  /**
   * Charges a parse of `chars` characters made to place an error (a template
   * compiled ahead of time, whose tree was never at hand): one compile of
   * `size`, and its characters against {@link MAX_PROMPT_PLACE_PARSE_CHARS},
   * since a parse costs by its text, not its tags (a 1 MB text of five tags
   * takes 150 ms to 1 s; review rev47b F1). Throws, before it, past the limits.
   */
  chargeParse(size: TemplateSize | undefined, chars: number): void {
    if (this.parsedChars + chars > MAX_PROMPT_PLACE_PARSE_CHARS) {
      throw new TemplateError(
        `Template not parsed: the prompt parsed more than ${MAX_PROMPT_PLACE_PARSE_CHARS} characters to place errors`,
      );
    }
    this.charge(size);
    this.parsedChars += chars;
  }
}

/**
 * What every render of one prompt spends together ({@link MAX_PROMPT_CALLS},
 * {@link MAX_PROMPT_OUTPUT}), given to each render of it: a section that
 * fails has done its work all the same. Once spent, every render given it
 * stops at its first call.
 *
 * Every template a prompt uses counts its tags and words once
 * ({@link MAX_PROMPT_TAGS}), compiled now or taken from the engine's cache:
 * counting only the templates compiled now let each render of the same
 * prompt compile two more of a project's 4,800-tag sections, and its text
 * changed from one render to the next (issue 24, review rev41b).
 */
export class PromptWork {
  /** `compiles`: shared by the renders of one fit, which are one prompt's. */
  constructor(readonly compiles: PromptCompiles = new PromptCompiles()) {}

  calls = 0;
  produced = 0;
  given = 0;
  /** Text read again by blocks and partials ({@link RenderBudget.reread}). */
  reread = 0;
  /** Units of the project's texts the element-name reader read ({@link readNames}). */
  namesRead = 0;
  tags = 0;
  words = 0;
  /** Set when a render crossed the prompt's limits: render no more sections. */
  spent = false;
  /**
   * What the failed prints of a trusted project's partials in templates of
   * yours spent ({@link RenderBudget.hold}): charged again to each such print
   * after, in every render of the prompt, never to your templates.
   */
  readonly held: HeldSpending = { calls: 0, produced: 0, given: 0, read: 0 };
  /**
   * Sources of your own and the builtin templates (sections, partials, a
   * custom prompt): they count toward none of the prompt's compile totals
   * (each keeps its own per-template caps), so a repository's templates
   * cannot spend their room (review rev42d F3).
   */
  own: ReadonlySet<string> | undefined;

  /**
   * Counts `n` units the element-name reader read of a trusted project's
   * text ({@link MAX_PROMPT_NAME_READ}); past it, throws and spends the
   * prompt: the project's sections after it are left out unrendered
   * (`prompt-render-work`), yours rendered before them stay.
   */
  readNames(n: number): void {
    this.namesRead += n;
    if (this.namesRead <= MAX_PROMPT_NAME_READ) return;
    this.spent = true;
    throw new TemplateError(
      `Render stopped: the project's texts gave the element-name reader more than ${MAX_PROMPT_NAME_READ / (1024 * 1024)} Mi units of work (tag names and text, each read in its spellings; ${PARTIAL_PRINT_NAME_UNITS} a print of a partial's text not printed before)`,
    );
  }

  /** Whether `source` is one of {@link own}. */
  isOwn(source: string): boolean {
    return this.own?.has(source) === true;
  }
  /** The templates counted so far, by source (a partial that every section calls counts once). */
  private readonly counted = new Set<string>();
  /** The same, in the order counted, with what each counted ({@link CountedTemplate}). */
  private readonly countedList: CountedTemplate[] = [];

  /**
   * Counts a template about to be compiled, or taken compiled from a cache
   * ({@link MAX_PROMPT_TAGS}, {@link MAX_PROMPT_WORDS}); throws, before any
   * compiling, once past them. `known`: its size counted ahead
   * ({@link TemplateSize}, a builtin's at build, or a cached template's),
   * which spares scanning the source again.
   */
  compiling(source: string, known?: TemplateSize): void {
    this.count(source, known ?? templateSize(source));
  }

  /**
   * {@link compiling} with the size given: undefined for a template past its
   * own caps, which is refused before it is parsed and counts nothing.
   */
  count(source: string, size: TemplateSize | undefined): void {
    if (this.spent) throw spentError();
    if (size === undefined || this.isOwn(source)) return;
    this.add({ source, size });
    // Past the total, every template of the project's is refused, counted before or not; the
    // prompt is not spent: your own and the builtin templates after it still render.
    if (this.over) throw overError();
  }

  /**
   * Throws, before its source is scanned, when the project's templates are
   * past the totals already and `source` is one of them: 280 sections refused
   * that way were scanned again in every render (170 ms).
   */
  refuseIfOver(source: string): void {
    if (this.spent) throw spentError();
    if (this.over && !this.isOwn(source)) throw overError();
  }

  private get over(): boolean {
    return this.tags > MAX_PROMPT_TAGS || this.words > MAX_PROMPT_WORDS;
  }

  /** Whether the template of `source` is counted already (it counts once a prompt). */
  hasCounted(source: string): boolean {
    return this.counted.has(source);
  }

  /** How many templates are counted so far; with {@link countedSince}, what a render counted. */
  get countedTemplates(): number {
    return this.countedList.length;
  }

  /** The templates counted after the first `from` ({@link countedTemplates} before a render). */
  countedSince(from: number): readonly CountedTemplate[] {
    return this.countedList.slice(from);
  }

  /**
   * What counting `templates` again would add to the tags and words (those
   * not counted yet), without counting them.
   */
  wouldAdd(templates: readonly CountedTemplate[]): TemplateSize {
    let tags = 0;
    let words = 0;
    for (const t of templates) {
      if (this.hasCounted(t.source)) continue;
      tags += t.size.tags;
      words += t.size.words;
    }
    return { tags, words };
  }

  /**
   * Counts `templates` again, as a render that uses them would (a render
   * given back by a fit's reuse), without the check: the caller checked
   * ({@link wouldAdd}), or replays a render that crossed the limits.
   */
  recount(templates: readonly CountedTemplate[]): void {
    for (const t of templates) this.add(t);
  }

  /** Counts `t` unless counted already; whether it was added. */
  private add(t: CountedTemplate): boolean {
    if (this.counted.has(t.source)) return false;
    this.counted.add(t.source);
    this.countedList.push(t);
    this.tags += t.size.tags;
    this.words += t.size.words;
    return true;
  }
}

/** A template a prompt counted, with its size. */
export interface CountedTemplate {
  source: string;
  size: TemplateSize;
}

function overError(): TemplateError {
  return new TemplateError(
    `Template not compiled: the prompt's templates hold more than ${MAX_PROMPT_TAGS} tags or ${MAX_PROMPT_WORDS} words inside tags together`,
  );
}

function spentError(): TemplateError {
  return new TemplateError("Render stopped: the sections before this one spent the prompt's work");
}

/** A render's own counts, of calls, output, what helpers were given and text read again ({@link RenderBudget}). */
export interface HeldSpending {
  calls: number;
  produced: number;
  given: number;
  read: number;
}

/** Where a held print began ({@link RenderBudget.hold}): the render's counts and stacks then, and what was held then. */
export interface HeldMark extends HeldSpending {
  partials: number;
  children: number;
  added: HeldSpending;
}

/** The budget of one render; `begin`/`end` bracket every metered call. */
export class RenderBudget {
  /** `compiles`: the prompt's ({@link PromptWork.compiles}), or this render's own when it is no prompt's. */
  constructor(
    readonly work?: PromptWork,
    readonly compiles: PromptCompiles = work?.compiles ?? new PromptCompiles(),
  ) {
    this.held = work?.held ?? { calls: 0, produced: 0, given: 0, read: 0 };
  }

  /** What held prints that failed spent, the prompt's ({@link PromptWork.held}) or this render's own. */
  private readonly held: HeldSpending;

  /**
   * Begins a print whose failure is its own (a trusted project's partial
   * printed in a template of yours, rev91a F2): it starts from this render's
   * counts plus what the held prints that failed before it spent
   * ({@link PromptWork.held}), so no such print gets a fresh limit.
   * {@link release} ends it.
   */
  hold(): HeldMark {
    const added = { ...this.held };
    const mark: HeldMark = {
      calls: this.calls,
      produced: this.produced,
      given: this.given,
      read: this.read,
      partials: this.partials.length,
      children: this.childOutput.length,
      added,
    };
    this.calls += added.calls;
    this.produced += added.produced;
    this.given += added.given;
    this.read += added.read;
    return mark;
  }

  /**
   * Ends a print begun by {@link hold}. Printed: what it spent stays this
   * render's, as any call's. `failed`: the render's counts and stacks are put
   * back as they were at `mark` (the template around it goes on as if it had
   * not been called), and what the print spent is held against the next
   * ({@link PromptWork.held}); the prompt's totals keep it all (never given back).
   */
  release(mark: HeldMark, failed: boolean): void {
    const { added } = mark;
    const spent: HeldSpending = {
      calls: this.calls - mark.calls - added.calls,
      produced: this.produced - mark.produced - added.produced,
      given: this.given - mark.given - added.given,
      read: this.read - mark.read - added.read,
    };
    if (!failed) {
      this.calls = mark.calls + spent.calls;
      this.produced = mark.produced + spent.produced;
      this.given = mark.given + spent.given;
      this.read = mark.read + spent.read;
      return;
    }
    const held = this.held;
    held.calls += spent.calls;
    held.produced += spent.produced;
    held.given += spent.given;
    held.read += spent.read;
    this.calls = mark.calls;
    this.produced = mark.produced;
    this.given = mark.given;
    this.read = mark.read;
    this.partials.length = mark.partials;
    this.childOutput.length = mark.children;
  }

  private calls = 0;
  private produced = 0;
  private given = 0;
  private read = 0;
  /** For each call running now (and the render itself at [0]), the output length of the calls it made. */
  private readonly childOutput: number[] = [0];
  /** The partials running now, outermost first. */
  private readonly partials: string[] = [];

  /** Counts one call; throws once there are too many. */
  begin(): void {
    this.count(1);
    this.childOutput.push(0);
  }

  /**
   * Counts the words a call is given, its parameters and key=value pairs, as
   * that many calls more: Handlebars looks each parameter up and builds the
   * pairs into an object at each call (and copies them for a partial), so
   * one tag of 9,000 pairs in nested loops cost 12-16 ms a call, 38 s of CPU
   * for 4,096 counted calls (issue 24, review rev44d F2), and one of 19,000
   * parameters ~4.7 ms a call, 58 s at the default deadline (review rev45b F2).
   */
  words(n: number): void {
    if (n > 0) this.count(n);
  }

  /**
   * Counts a run of a program of `tags` tags (a block's body, a template's
   * main body) as that many calls more: each pass of a loop ran its body's
   * tags, up to 5,000, for one counted call (issue 24, review rev44d F2).
   */
  weigh(tags: number): void {
    this.count(tags);
  }

  /** Counts `n` calls; throws once there are too many. */
  private count(n: number): void {
    this.calls += n;
    if (this.calls > MAX_RENDER_CALLS) {
      throw new TemplateError(
        `Render stopped after ${MAX_RENDER_CALLS} helper calls, blocks, partials and tags run: nested loops or partials multiply the work`,
      );
    }
    const work = this.work;
    if (work && !work.spent) work.calls += n;
    if (work && (work.spent || work.calls > MAX_PROMPT_CALLS)) {
      work.spent = true;
      throw new TemplateError(
        `Render stopped: the prompt's sections made more than ${MAX_PROMPT_CALLS} helper calls, blocks, partials and tags run together`,
      );
    }
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
      const work = this.work;
      if (work) work.produced += own;
      if (work && work.produced > MAX_PROMPT_OUTPUT) {
        work.spent = true;
        throw new TemplateError(
          `Render stopped: the prompt's sections produced more than ${MAX_PROMPT_OUTPUT / (1024 * 1024)} MiB of text together`,
        );
      }
    }
    const parent = this.childOutput.length - 1;
    this.childOutput[parent] = (this.childOutput[parent] ?? 0) + length;
  }

  /**
   * Counts what a helper call is given: the length of each text and list
   * among `args` and in its hash (the options object, last). Throws once
   * the render's, or the prompt's, {@link MAX_PROMPT_INPUT} is passed.
   */
  give(args: readonly unknown[]): void {
    let n = 0;
    for (let i = 0; i < args.length - 1; i++) n += sizeGiven(args[i]);
    const hash = (args.at(-1) as { hash?: unknown } | undefined)?.hash;
    if (hash !== null && typeof hash === "object") {
      for (const value of Object.values(hash)) n += sizeGiven(value);
    }
    this.charge(
      n,
      "helpers were given more than %s Mi characters and list items together (a long text compared or a list searched again and again)",
    );
  }

  /**
   * Counts, before Handlebars copies it, the context of a partial called
   * with key=value pairs: `keys` keys, each {@link PARTIAL_CONTEXT_KEY_COST}
   * toward the same total as {@link give}.
   */
  copyContext(keys: number): void {
    this.charge(
      keys * PARTIAL_CONTEXT_KEY_COST,
      `partials called with key=value pairs copied their contexts' keys past %s Mi (${PARTIAL_CONTEXT_KEY_COST} a key) together with what helpers were given (a long list passed to a partial again and again)`,
    );
  }

  /** Counts `n` toward {@link MAX_PROMPT_INPUT}; throws past it with `why` (`%s`: the total in Mi). */
  private charge(n: number, why: string): void {
    if (n === 0) return;
    this.given += n;
    const work = this.work;
    if (work) work.given += n;
    if (this.given > MAX_PROMPT_INPUT || (work && work.given > MAX_PROMPT_INPUT)) {
      if (work && work.given > MAX_PROMPT_INPUT) work.spent = true;
      throw new TemplateError(
        `Render stopped: ${why.replace("%s", String(MAX_PROMPT_INPUT / (1024 * 1024)))}`,
      );
    }
  }

  /**
   * Counts `n` characters of text produced already that a block helper or a
   * partial's finishing reads again ({@link MAX_RENDER_REREAD},
   * {@link MAX_PROMPT_REREAD}); throws, before the reading, past them.
   */
  reread(n: number): void {
    if (n <= 0) return;
    this.read += n;
    const work = this.work;
    if (work) work.reread += n;
    if (this.read > MAX_RENDER_REREAD || (work && work.reread > MAX_PROMPT_REREAD)) {
      if (work && work.reread > MAX_PROMPT_REREAD) work.spent = true;
      const limit = this.read > MAX_RENDER_REREAD ? MAX_RENDER_REREAD : MAX_PROMPT_REREAD;
      throw new TemplateError(
        `Render stopped: blocks and partials read their text again past ${limit / (1024 * 1024)} MiB (a {{#xml}} block or a partial nested around a long text, each level reading it all)`,
      );
    }
  }

  /** Counts one piece of work as a call (an inline partial defined again), with no output. */
  tick(): void {
    this.begin();
    this.end("");
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

/** What a helper's work on one argument grows with: a text's length, a list's. */
function sizeGiven(value: unknown): number {
  if (typeof value === "string" || Array.isArray(value)) return value.length;
  return 0;
}

/**
 * The keys of the objects among a helper call's arguments (the options
 * object, last, aside): what a helper that walks them ({@link WALKS_KEYS},
 * `len`) does. Counted as calls, as an object counts nothing toward what
 * helpers are given: `{{len vars}}` walked the project's 1,150 vars for one
 * counted call, two sections of 194,000 such calls 11 s of CPU at the
 * default deadline (issue 24, review rev45b F5).
 */
function objectKeys(args: readonly unknown[]): number {
  let n = 0;
  for (let i = 0; i < args.length - 1; i++) {
    const value = args[i];
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      n += value instanceof Set || value instanceof Map ? 0 : Object.keys(value).length;
    }
  }
  return n;
}

/** How many key=value pairs a helper call's options hold. */
function hashSize(options: unknown): number {
  const hash = (options as { hash?: unknown } | null | undefined)?.hash;
  return hash !== null && typeof hash === "object" ? Object.keys(hash).length : 0;
}

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
 * `program`, with the text each run of it produces counted as read again
 * ({@link RenderBudget.reread}): its helper ({@link READS_BLOCK}, `xml`)
 * reads it all, at every level it nests.
 */
function rereadBlock(budget: RenderBudget, program: unknown): unknown {
  if (typeof program !== "function") return program;
  const run = program as Program;
  return function rereadProgram(this: unknown, context: unknown, options: unknown) {
    const result = run.call(this, context, options);
    if (typeof result === "string") budget.reread(result.length);
    return result;
  };
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
  const walksKeys = hasMark(helper, WALKS_KEYS);
  const readsBlock = hasMark(helper, READS_BLOCK);
  return function meteredHelper(this: unknown, ...args: unknown[]): unknown {
    const budget = current();
    const options = args[args.length - 1] as { fn?: unknown; inverse?: unknown } | undefined;
    try {
      if (budget === undefined) return (helper as Program).apply(this, args);
      if (options !== null && typeof options === "object") {
        if ("fn" in options) {
          options.fn = meterProgram(budget, options.fn, noop);
          if (readsBlock) options.fn = rereadBlock(budget, options.fn);
        }
        if ("inverse" in options) options.inverse = meterProgram(budget, options.inverse, noop);
      }
      budget.begin();
      // Its parameters (the options object is last) and its key=value pairs.
      budget.words(args.length - 1 + hashSize(options));
      budget.give(args);
      if (walksKeys) budget.words(objectKeys(args));
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
