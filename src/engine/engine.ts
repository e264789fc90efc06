import type Handlebars from "handlebars";
import type { HelperDelegate, RuntimeOptions, TemplateDelegate } from "handlebars";
import { registerBuiltinHelpers } from "../../helpers/index.js";
import { meterHelper, type PromptCompiles, type PromptWork, RenderBudget } from "./_budget.js";
import { PRINTED_HOOK, useStringAppends } from "./_compat.js";
import { countCompilePieces, withCompileStop } from "./_compile-stop.js";
import {
  helperErrorGuard,
  PartialCallError,
  type Places,
  parseSource,
  placeMap,
  placesFrom,
  TemplateError,
  toTemplateError,
} from "./_errors.js";
import { loadCompiler, loadRuntime } from "./_handlebars.js";
import { type TemplateSize, templateSize } from "./_shape.js";
import { walkSyntax } from "./_syntax.js";
import { precompileWeighed, weighedSpec } from "./_weights.js";
import {
  MAX_INLINE_FRAMES,
  MAX_PROMPT_COMPILED_TAGS,
  MAX_PROMPT_COMPILES,
  MAX_PROMPT_TAGS,
} from "./limits.js";

export { type CountedTemplate, PromptCompiles, PromptWork } from "./_budget.js";
export { TemplateError } from "./_errors.js";
export { capMessage } from "./message.js";

/**
 * A partial given as a function: called with the current context, its result
 * is inserted as it is (never rendered again), e.g. an already rendered `base`.
 */
export type PartialFunction = (context: unknown) => string;

export interface RenderOptions {
  /**
   * Partials for this render only, e.g. `{ base: "<source of the section this
   * one overrides>" }`: template source, or a function whose text is inserted
   * literally. They win over registered partials of the same name.
   */
  partials?: Record<string, string | PartialFunction>;
  /** What this render spends counts toward the prompt it is part of (one object for all its renders). */
  work?: PromptWork;
  /**
   * What a partial given as source inserts, from its rendered text: the
   * render of a trusted project's partial closes what it leaves open. Absent:
   * the text as it is. `indented`: the call stands alone on its line after
   * blanks (`  {{> name}}`), and Handlebars writes those blanks before each
   * line of what this returns.
   */
  partialText?: (name: string, source: string, text: string, indented: boolean) => string;
  /**
   * What a value a template prints becomes (not the template's own text):
   * each value the render prints is given to it. Absent: the value as it is.
   */
  printed?: (value: unknown) => unknown;
  /**
   * A print of the partial `name` (template `source`) that no held print of
   * this render is around: "hold" runs it with its failure its own (the
   * render's budget put back as before it, {@link RenderBudget.hold}, and
   * {@link partialFailed}'s text printed in its place), "skip" prints nothing
   * and runs nothing; undefined runs it as any (its failure the template's).
   */
  holdPartial?: (name: string, source: string) => "hold" | "skip" | undefined;
  /** What a held print that failed prints instead, told its error (located in the partial). */
  partialFailed?: (name: string, error: TemplateError) => string;
  /**
   * Asked before each compile of a template that is not your own (not in
   * `work`'s own sources), this render's or a partial's it calls, and between
   * small pieces of it (`PIECES_PER_READ`: 0.2-0.5 ms of CPU apart on average): what it throws
   * ends that compile, which is not kept, and is that template's error (review
   * rev93g F1: one compile within every cap took 0.5-1.2 s of CPU unasked).
   */
  compileStop?: () => void;
  /**
   * Asked at each run of a partial block's body (`{{#> name}}body{{/name}}`,
   * run by the partial's `{{> @partial-block}}`, or in place of a partial
   * that is missing), told the source of the template the block is written in
   * (`writer`: undefined for the render's own template) and the sources of
   * the partials given as source running around the run (`within`, outermost
   * first): undefined runs it as Handlebars does; a function runs it with the
   * context and data of the block's own call, whatever the partial passes it
   * (`{{> @partial-block cwd="…"}}`, inside its `{{#each}}`), and makes its
   * print that function's result. The render marks so the text a block of
   * yours prints inside a project's partial, which the partial's
   * {@link partialText} leaves as you wrote it (fx96b, review rev93g F2).
   */
  blockText?: (
    writer: string | undefined,
    within: readonly string[],
  ) => ((text: string, indent: string) => string) | undefined;
  /**
   * What a partial block's body gives when it is called as a value, not
   * printed by a partial call (`{{#with @partial-block}}`, `{{#if}}`,
   * `{{#each}}`, `{{@partial-block}}`): the template reads that text, so the
   * render removes every mark of its own from it (fx99a, review rev98b F1: a
   * project's partial read the marks' nonce with `{{lookup this 0}}` … and
   * forged them). Such a call is never {@link blockText}'s. Absent: the text
   * as it is.
   */
  blockValue?: (text: string) => string;
}

export interface Engine {
  /**
   * Compile (cached by source) and render. Throws TemplateError for syntax
   * errors, unknown block helpers, a missing partial, a helper that throws,
   * and a template or render over a limit of `limits.ts` (nesting, size,
   * partial depth, output, calls).
   */
  render(source: string, data: unknown, options?: RenderOptions): string;
  /** Parse/compile only (no data). Returns the error instead of throwing; undefined when fine. */
  check(source: string): TemplateError | undefined;
  /** Adds or replaces a helper; templates compiled before are compiled again. */
  registerHelper(name: string, fn: HelperDelegate): void;
  /** Adds or replaces a partial (template source) available to every render. */
  registerPartial(name: string, source: string): void;
  /** Compiles ahead of time (a build step); `preload` in another process takes the result. */
  precompile(source: string): PrecompiledTemplate;
  /** Templates compiled ahead of time; ignored unless compiled against this engine's helpers. */
  preload(templates: readonly PrecompiledTemplate[]): void;
}

interface Compiled {
  template: TemplateDelegate;
  /** Where a partial or decorator is called, to place a run-time failure; parsed only then, the tree never kept. */
  places: Places;
}

/**
 * A template in the engine's cache: compiled, or the error compiling it gave,
 * and its size, which every prompt that uses it counts again (undefined past
 * a template's own caps: refused before parsing, it counts nothing).
 */
interface CacheEntry {
  result: Compiled | TemplateError;
  size: TemplateSize | undefined;
}

/** A template compiled ahead of time (at build) for the given helper set. */
export interface PrecompiledTemplate {
  source: string;
  /**
   * `Handlebars.precompile` output: its source text, or that text already
   * evaluated (the builtins' specs, loaded as code with the CLI bundle).
   */
  spec: string | object;
  /** The helper names it was compiled against (see {@link Engine.precompile}). */
  helpers: string;
  /**
   * Its tags and the words inside them, as the prompt's compile totals count
   * them, counted when it was precompiled: a render charges these instead of
   * scanning the source again. Absent (and then scanned) past a template's own caps.
   */
  size?: TemplateSize;
}

/** A whole count, as a size holds. */
const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** `size` when it is a size (two whole counts), else undefined: the source is scanned instead. */
function knownSize(size: unknown): TemplateSize | undefined {
  if (typeof size !== "object" || size === null) return undefined;
  const { tags, words } = size as { tags?: unknown; words?: unknown };
  return isCount(tags) && isCount(words) ? { tags, words } : undefined;
}

/**
 * The runtime (helpers, partials, running templates) loads with the engine;
 * the compiler (parser, code generator, source-map) costs about as much again
 * and is loaded on the first template that was not compiled ahead of time.
 */
const Runtime = loadRuntime();

function createCompiler(): HandlebarsInstance {
  const full = loadCompiler();
  const compiler = full.create();
  useStringAppends(compiler);
  countCompilePieces(compiler);
  return compiler;
}

/** Compiled templates kept per engine. */
const MAX_CACHED_TEMPLATES = 512;

/**
 * Characters of template source kept compiled per engine, together: a count
 * alone let a long-lived session re-rendering edited 1 MiB sections keep 512
 * of them (and their compiled code, longer than the source) alive.
 */
export const MAX_CACHED_TEMPLATE_CHARS = 32 * 1024 * 1024;

/**
 * Tags of the templates kept compiled per engine, together: their compiled
 * code and syntax trees grow with their tags (3 MB of heap for a section of
 * 4,800 tags), and by count and characters alone a long-lived session whose
 * project's sections changed between turns could keep some 300 of those.
 * Four prompts' worth ({@link MAX_PROMPT_TAGS}); the builtins hold about 60.
 */
export const MAX_CACHED_TEMPLATE_TAGS = 4 * MAX_PROMPT_TAGS;

/**
 * Templates one prompt keeps compiled ({@link PromptCompiles}), at most: the
 * prompt's own tags ({@link MAX_PROMPT_COMPILED_TAGS}, a fit's renders
 * together), and this many templates and characters, so that tag-less
 * partials by the thousand are not kept without bound either.
 */
const MAX_KEPT_TEMPLATES = MAX_PROMPT_COMPILES;
const MAX_KEPT_CHARS = MAX_CACHED_TEMPLATE_CHARS;

/** The templates one prompt used, compiled, with their characters and tags together. */
interface Kept {
  entries: Map<string, CacheEntry>;
  chars: number;
  tags: number;
}

/** Partial functions an engine keeps made ({@link Engine.render}'s partials); past it they are made again. */
const MAX_KEPT_WRAPPERS = 4096;

/** Characters of partial sources those functions hold, together (the cache's bound). */
const MAX_KEPT_WRAPPER_CHARS = MAX_CACHED_TEMPLATE_CHARS;

/** A partial's characters: its source's length (a function holds none that are counted). */
const charsOf = (source: string | PartialFunction): number =>
  typeof source === "string" ? source.length : 0;

/** Handlebars builtins that templates may not use: `log` writes to the console. */
const DISABLED_BUILTINS = ["log"] as const;

/**
 * How many arguments each Handlebars builtin takes, with an example. Given
 * another number, each threw its own text with no place (`#if requires
 * exactly one argument`; `{{lookup}}` a TypeError from inside Handlebars);
 * checked first, the error is ours and located at the call.
 */
const BUILTIN_ARGUMENTS: Readonly<Record<string, { count: number; example: string }>> = {
  if: { count: 1, example: "{{#if tools}}" },
  unless: { count: 1, example: "{{#unless tools}}" },
  with: { count: 1, example: "{{#with git}}" },
  each: { count: 1, example: "{{#each tools}}" },
  lookup: { count: 2, example: '{{lookup vars "name"}}' },
};

/** `helper` behind a check of its argument count, when {@link BUILTIN_ARGUMENTS} has one. */
function checkedBuiltin(name: string, helper: HelperDelegate): HelperDelegate {
  const usage = BUILTIN_ARGUMENTS[name];
  if (usage === undefined) return helper;
  return function builtin(this: unknown, ...args: unknown[]): unknown {
    // The last argument is Handlebars' options; key=value pairs are in it.
    const given = args.length - 1;
    if (given !== usage.count) {
      const takes = usage.count === 1 ? "one argument" : `${usage.count} arguments`;
      throw new Error(`takes ${takes} (${usage.example}), got ${given}`);
    }
    return (helper as (...a: unknown[]) => unknown).apply(this, args);
  };
}

/**
 * Creates an engine with its own Handlebars instance and all helpers from
 * `helpers/` registered. Templates compile with `noEscape` (a prompt is not
 * HTML) and `knownHelpersOnly`, so a misspelt block helper is a compile error
 * rather than a silently empty section.
 */
export function createEngine(): Engine {
  const hb = Runtime.create();
  for (const name of DISABLED_BUILTINS) hb.unregisterHelper(name);
  /** The budget of the render in progress; a render inside a partial function gets its own. */
  let budget: RenderBudget | undefined;
  /** The render in progress's `partialText`: what a partial's text becomes where it is inserted. */
  let finishing: RenderOptions["partialText"] | undefined;
  /** The render in progress's `printed`. */
  let printing: RenderOptions["printed"] | undefined;
  /** The render in progress's `holdPartial` and `partialFailed`, and whether a held print of it runs now. */
  let holding: Pick<RenderOptions, "holdPartial" | "partialFailed" | "compileStop"> | undefined;
  let inHeld = false;
  /** The render in progress's `blockText`. */
  let blocking: RenderOptions["blockText"] | undefined;
  /** The render in progress's `blockValue`. */
  let valuing: RenderOptions["blockValue"] | undefined;
  /** The source of the template whose code runs now (undefined: the render's own), and the partials given as source running around it. */
  let writing: string | undefined;
  let within: string[] = [];
  const blocks: BlockPrints = {
    writer: () => writing,
    enter: (writer) => {
      const outer = writing;
      writing = writer;
      return outer;
    },
    leave: (outer) => {
      writing = outer;
    },
    own: (writer) => blocking?.(writer, within),
    value: (text) => (valuing === undefined ? text : valuing(text)),
  };
  const printedHook = (value: unknown) => (printing === undefined ? value : printing(value));
  const currentBudget = () => budget;
  const noop = (hb as unknown as { VM?: { noop?: unknown } }).VM?.noop;
  // Handlebars' own helpers (each, if, with, …) are metered and their argument errors located like ours.
  for (const [name, fn] of Object.entries(hb.helpers)) {
    hb.registerHelper(
      name,
      meterHelper(checkedBuiltin(name, fn), currentBudget, noop, helperErrorGuard(hb, name)),
    );
  }
  meterInlinePartials(hb, currentBudget);
  meterPartialBlocks(hb, currentBudget, noop, blocks);
  hb.registerHelper(PARTIAL_CONTEXT, partialContext(currentBudget));
  let compilerInstance: HandlebarsInstance | undefined;
  const compiler = () => {
    compilerInstance ??= createCompiler();
    return compilerInstance;
  };
  const cache = new Map<string, CacheEntry>();
  /** What each prompt in progress used, kept compiled for its life; dropped with it, or when a helper or partial changes. */
  let kept = new WeakMap<PromptCompiles, Kept>();
  /** Characters of the sources `cache` holds, and their tags. */
  let cachedChars = 0;
  let cachedTags = 0;
  const precompiled = new Map<string, { spec: string | object; size?: TemplateSize }>();
  const partialSources = new Map<string, string>();

  /** Which helpers templates were compiled against; a precompiled spec must match it. */
  function helperKey(): string {
    return Object.keys(hb.helpers)
      .filter((name) => !(DISABLED_BUILTINS as readonly string[]).includes(name))
      .sort()
      .join(",");
  }

  function fromSpec(spec: string | object): TemplateDelegate {
    // Evaluating generated code is what Handlebars' own compile does internally.
    const evaluated = typeof spec === "string" ? new Function(`return ${spec}`)() : spec;
    return hb.template(
      weighedSpec(evaluated, currentBudget) as Parameters<HandlebarsInstance["template"]>[0],
    );
  }

  function precompileAst(instance: HandlebarsInstance, ast: unknown): string {
    meterPartialContexts(ast);
    return precompileWeighed(instance, ast, compileOptions());
  }

  /**
   * Where a template compiled ahead of time has its calls ({@link placesFrom}):
   * its text parsed on the first error that needs a place, once, and only
   * the places kept, never the tree (a one-tag template of 9,900 pairs,
   * 110 KB, that failed once kept a 4.2 MB tree; review rev45b F3). The parse
   * is charged to the prompt's compiles by its characters
   * ({@link PromptCompiles.chargeParse}): past their total the error has no place.
   */
  function placesOf(source: string, size: TemplateSize | undefined): Places {
    return placesFrom(() => {
      try {
        budget?.compiles.chargeParse(size, source.length);
      } catch {
        return undefined;
      }
      return compiler().parseWithoutProcessing(source);
    });
  }

  function compileOptions(): CompileOptions {
    const knownHelpers: Record<string, boolean> = {};
    for (const name of Object.keys(hb.helpers)) knownHelpers[name] = true;
    // Handlebars treats its builtins as known unless told otherwise.
    for (const name of DISABLED_BUILTINS) knownHelpers[name] = false;
    return { noEscape: true, knownHelpersOnly: true, knownHelpers, strict: false };
  }

  /**
   * `work`, when given, is charged for the template, compiled now or cached
   * (it throws past its total, before compiling): what a prompt may use does
   * not depend on what earlier renders left in the cache. A template the
   * prompt compiled is kept for it ({@link Kept}), never compiled again in
   * it though the cache drops it; each compile is charged to the prompt's
   * ({@link PromptCompiles}) first.
   */
  function compile(
    source: string,
    work?: PromptWork,
    compiles = work?.compiles,
    stop?: () => void,
  ): Compiled {
    // What the prompt compiled is kept from its compile on: compiled at most once in it.
    const mine = compiles === undefined ? undefined : kept.get(compiles);
    const cached = cache.get(source) ?? mine?.entries.get(source);
    if (cached !== undefined) {
      work?.count(source, cached.size);
      if (cached.result instanceof TemplateError) throw cached.result;
      return cached.result;
    }
    const own = work?.isOwn(source) === true;
    // Not yours: stopped before it starts, and between its pieces (rev93g F1); a compile stopped is not kept.
    const stopping = own ? undefined : stop;
    stopping?.();
    work?.refuseIfOver(source);
    const ahead = precompiled.get(source);
    const size = ahead?.size ?? templateSize(source);
    work?.count(source, size);
    if (!own) compiles?.charge(size);
    let entry: Compiled | TemplateError | undefined;
    if (ahead !== undefined) {
      try {
        entry = { places: placesOf(source, size), template: fromSpec(ahead.spec) };
      } catch {
        // A spec from another Handlebars version: compile from source below.
        precompiled.delete(source);
      }
    }
    if (entry === undefined) {
      entry = withCompileStop(stopping, () => {
        try {
          const ast = parseSource(compiler(), source);
          // Its places from this parse, before code generation changes the tree: never parsed again to place an error.
          const places = placesFrom(placeMap(ast));
          // One parse and one code generation, done now rather than lazily on
          // the first call (as hb.compile would), so an unknown helper is a
          // compile error that `check` sees without data.
          const template = fromSpec(precompileAst(compiler(), ast));
          return { places, template };
        } catch (error) {
          // Stopped: thrown by withCompileStop as the stop threw it, never kept.
          return toTemplateError(compiler(), error, undefined);
        }
      });
    }
    const made = { result: entry, size };
    keep(source, made);
    if (compiles !== undefined) remember(mine ?? keptFor(compiles), source, made, own);
    if (entry instanceof TemplateError) throw entry;
    return entry;
  }

  function keptFor(compiles: PromptCompiles): Kept {
    let mine = kept.get(compiles);
    if (mine === undefined) {
      mine = { entries: new Map(), chars: 0, tags: 0 };
      kept.set(compiles, mine);
    }
    return mine;
  }

  /**
   * Keeps `entry` for the prompt of `mine` while there is room (nothing is
   * dropped: what is not kept is charged again); your own and the builtin
   * templates (`own`, a set of their own) always.
   */
  function remember(mine: Kept, source: string, entry: CacheEntry, own = false): void {
    if (mine.entries.has(source)) return;
    const tags = entry.size?.tags ?? 0;
    if (
      (!own && mine.entries.size >= MAX_KEPT_TEMPLATES) ||
      (!own &&
        (mine.chars + source.length > MAX_KEPT_CHARS ||
          mine.tags + tags > MAX_PROMPT_COMPILED_TAGS))
    ) {
      return;
    }
    mine.entries.set(source, entry);
    mine.chars += source.length;
    mine.tags += tags;
  }

  /**
   * Caches a template. Oldest first: a long-lived harness re-rendering edited
   * files must not grow without bound, by count, size or tags. A source longer
   * than the whole room is compiled but not kept.
   */
  function keep(source: string, entry: CacheEntry): void {
    if (source.length > MAX_CACHED_TEMPLATE_CHARS) return;
    const tags = entry.size?.tags ?? 0;
    while (
      cache.size > 0 &&
      (cache.size >= MAX_CACHED_TEMPLATES ||
        cachedChars + source.length > MAX_CACHED_TEMPLATE_CHARS ||
        cachedTags + tags > MAX_CACHED_TEMPLATE_TAGS)
    ) {
      const [oldest, dropped] = cache.entries().next().value as [string, CacheEntry];
      cache.delete(oldest);
      cachedChars -= oldest.length;
      cachedTags -= dropped.size?.tags ?? 0;
    }
    cache.set(source, entry);
    cachedChars += source.length;
    cachedTags += tags;
  }

  /** Bumped when a helper changes: what was compiled before is compiled again. */
  let helperGeneration = 0;

  /**
   * `source` compiled ({@link compile}) for the render spending `spending`,
   * looked up once a prompt and then taken from `mine`: the engine's maps
   * are keyed by source, and V8 hashes a text longer than 16,383 characters
   * by its length alone, so a lookup compares it with every kept text of
   * that length, to the first character that differs. Eight 1 MB partials
   * of one length that differ only at their end cost 0.3 ms a call: 20,000
   * calls took 5.7 s of CPU (issue 24, found with review rev47b F1).
   */
  function compiledFor(
    mine: WeakMap<
      PromptCompiles,
      { work: PromptWork | undefined; helpers: number; compiled: Compiled }
    >,
    source: string,
    spending: RenderBudget | undefined,
    stop: (() => void) | undefined,
  ): Compiled {
    const compiles = spending?.compiles;
    const work = spending?.work;
    const known = compiles === undefined ? undefined : mine.get(compiles);
    if (known !== undefined && known.work === work && known.helpers === helperGeneration) {
      return known.compiled;
    }
    const compiled = compile(source, work, compiles, stop);
    if (compiles !== undefined) mine.set(compiles, { work, helpers: helperGeneration, compiled });
    return compiled;
  }

  /**
   * A partial as a function, so it compiles through the same cache, its
   * errors are located, and its depth and output count against the render's
   * budget.
   */
  function partial(name: string, source: string | PartialFunction): TemplateDelegate {
    // What this partial compiled to in each prompt (its compiles), for the render's work and the engine's helpers.
    const mine = new WeakMap<
      PromptCompiles,
      { work: PromptWork | undefined; helpers: number; compiled: Compiled }
    >();
    return (context: unknown, options?: RuntimeOptions) => {
      const spending = budget;
      // The render's, not the wrapper's: wrappers are kept across renders ({@link wrapperOf}).
      const finish = finishing;
      const holder = holding;
      // A trusted project's partial in a template of yours: its failure is its own (rev91a F2).
      const hold =
        inHeld || typeof source !== "string" ? undefined : holder?.holdPartial?.(name, source);
      if (hold === "skip") return "";
      const mark = hold === "hold" && spending !== undefined ? spending.hold() : undefined;
      if (mark !== undefined) inHeld = true;
      let compiled: Compiled | undefined;
      let result: string;
      // Who writes the code running now, and the partials around it: put back on return or failure.
      const outerWriting = writing;
      const depth = within.length;
      // No `finally`: an error here ends the whole render, budget and all (a held print's, only the print).
      try {
        spending?.enterPartial(name);
        spending?.begin();
        if (options !== undefined) blockScope(options);
        if (typeof source === "function") {
          result = String(source(context) ?? "");
        } else {
          compiled = compiledFor(mine, source, spending, holder?.compileStop);
          writing = source;
          within.push(source);
          result = compiled.template(context, options);
          writing = outerWriting;
          within.length = depth;
          if (finish) {
            // Read whole, callees' text included, at each partial level (review rev45b F6).
            spending?.reread(result.length);
            const indent = (options as { indent?: unknown } | undefined)?.indent;
            result = finish(name, source, result, typeof indent === "string" && indent !== "");
          }
        }
        spending?.end(result);
      } catch (error) {
        writing = outerWriting;
        within.length = depth;
        const failure = toTemplateError(hb, error, compiled?.places);
        if (mark === undefined || spending === undefined) {
          // Located by the caller at its `{{> name}}`.
          throw new PartialCallError(name, failure);
        }
        inHeld = false;
        spending.release(mark, true);
        // Past the prompt's totals the prompt is spent: the template stops as before.
        if (spending.work?.spent === true) throw new PartialCallError(name, failure);
        return holder?.partialFailed?.(name, failure) ?? "";
      }
      spending?.leavePartial();
      if (mark !== undefined) {
        inHeld = false;
        spending?.release(mark, false);
      }
      return result;
    };
  }

  /**
   * Each partial's function, made once for its name and source (a function
   * source: that function) and kept while the engine's partials stay: made
   * again for every render, 999 sections calling 999 partials made a million
   * of them per prompt, 2-4 s of a render's CPU (issue 24, review rev43b F1).
   */
  let wrappers = new Map<string, { source: string | PartialFunction; fn: TemplateDelegate }>();

  /** Characters of the sources `wrappers` holds. */
  let wrapperChars = 0;

  function wrapperOf(name: string, source: string | PartialFunction): TemplateDelegate {
    const made = wrappers.get(name);
    if (made?.source === source) return made.fn;
    if (made !== undefined) wrapperChars -= charsOf(made.source);
    const chars = charsOf(source);
    // Names and sources of every project a long-lived host rendered: kept to a
    // bound by count and by characters, as the cache is (4,096 names alone let
    // 1 MB partials under new names keep 2 GB; review rev44d F5).
    if (wrappers.size >= MAX_KEPT_WRAPPERS || wrapperChars + chars > MAX_KEPT_WRAPPER_CHARS) {
      wrappers = new Map();
      wrapperChars = 0;
    }
    const fn = partial(name, source);
    if (chars <= MAX_KEPT_WRAPPER_CHARS) {
      wrappers.set(name, { source, fn });
      wrapperChars += chars;
    }
    return fn;
  }

  /** The partial function of `name` for a render given `extra`: its own partial, or the engine's. */
  function partialNamed(
    extra: RenderOptions["partials"],
    name: string,
  ): TemplateDelegate | undefined {
    const source =
      extra !== undefined && Object.hasOwn(extra, name) ? extra[name] : partialSources.get(name);
    return source === undefined ? undefined : wrapperOf(name, source);
  }

  /** The partials of the render in progress (a render inside a partial function has its own). */
  let rendering: RenderPartials | undefined;

  /**
   * What every render's partials look names up through, the prototype of
   * each ({@link partialsFor}): one for the engine, so that those objects
   * share their shape; it answers for the render in progress.
   */
  const lookups = new Proxy(Object.create(null) as object, {
    get: (_, key, receiver) => {
      const target = rendering;
      if (target === undefined || typeof key !== "string") return undefined;
      const fn = partialNamed(target.extra, key);
      // Kept on the render's object, where Handlebars reads it next time without this trap.
      if (fn !== undefined && receiver === target.found) {
        Object.defineProperty(receiver, key, {
          value: fn,
          writable: false,
          enumerable: true,
          configurable: true,
        });
        target.names.push(key);
      }
      return fn;
    },
    has: (_, key) =>
      typeof key === "string" &&
      rendering !== undefined &&
      partialNamed(rendering.extra, key) !== undefined,
    getOwnPropertyDescriptor: (_, key) => {
      const fn =
        typeof key === "string" && rendering !== undefined
          ? partialNamed(rendering.extra, key)
          : undefined;
      return fn === undefined
        ? undefined
        : { value: fn, writable: false, enumerable: true, configurable: true };
    },
    ownKeys: () => [...new Set([...partialSources.keys(), ...Object.keys(rendering?.extra ?? {})])],
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });

  /**
   * A render's partials, its own (`extra`) over the engine's, as Handlebars
   * looks them up (own properties), without building an object of them:
   * each render made one of 999 partials for each of 999 sections, and a
   * function for each, 2-4 s of a prompt's CPU (issue 24, review rev43b
   * F1). An object whose prototype looks a name up ({@link lookups})
   * and keeps what it found on the object: a proxy's traps at each call made
   * a partial call some 3 times slower. Nothing else writes into it: inline
   * partials get frames over it ({@link frameOver}); {@link forget} empties
   * it when the render returns.
   */
  function partialsFor(target: RenderPartials): Record<string, TemplateDelegate> {
    const found = Object.create(lookups) as Record<string, TemplateDelegate>;
    target.found = found;
    return found;
  }

  /**
   * Lets a render's partials go when it returns: Handlebars keeps the
   * partials of a template's last call on it (its container's), and so every
   * partial source of that render (130 renders of an edited section kept 130
   * sets of 8 MB of partials, 1 GB; issue 24, review rev44d F5).
   */
  function forget(target: RenderPartials): void {
    const found = target.found;
    if (found !== undefined) for (const name of target.names) delete found[name];
    target.names = [];
    target.found = undefined;
    target.extra = undefined;
  }

  let setup: RuntimeSetup | undefined;

  const engine: Engine = {
    render(source, data, options = {}) {
      const spending = new RenderBudget(options.work);
      const compiled = compile(source, options.work, spending.compiles, options.compileStop);
      const outer = budget;
      const outerFinish = finishing;
      const outerPrinting = printing;
      const outerPartials = rendering;
      const outerHolding = holding;
      const outerInHeld = inHeld;
      const outerBlocking = blocking;
      const outerValuing = valuing;
      const outerWriting = writing;
      const outerWithin = within;
      budget = spending;
      finishing = options.partialText;
      blocking = options.blockText;
      valuing = options.blockValue;
      writing = undefined;
      within = [];
      printing = options.printed;
      holding = options;
      inHeld = false;
      setup ??= captureSetup(hb, printedHook);
      // Emptied when the render returns ({@link forget}).
      const own: RenderPartials = { extra: options.partials, names: [], found: undefined };
      rendering = own;
      try {
        return spending.run(() => compiled.template(data, setup?.options(data, partialsFor(own))));
      } catch (error) {
        throw toTemplateError(hb, error, compiled.places);
      } finally {
        forget(own);
        rendering = outerPartials;
        budget = outer;
        finishing = outerFinish;
        printing = outerPrinting;
        holding = outerHolding;
        inHeld = outerInHeld;
        blocking = outerBlocking;
        valuing = outerValuing;
        writing = outerWriting;
        within = outerWithin;
      }
    },
    check(source) {
      try {
        compile(source);
        return undefined;
      } catch (error) {
        return toTemplateError(hb, error, undefined);
      }
    },
    registerHelper(name, fn) {
      hb.registerHelper(name, meterHelper(fn, currentBudget, noop, helperErrorGuard(hb, name)));
      helperGeneration++;
      setup = undefined;
      cache.clear();
      kept = new WeakMap();
      cachedChars = 0;
      cachedTags = 0;
      precompiled.clear();
    },
    precompile(source) {
      const ast = parseSource(compiler(), source);
      const size = templateSize(source);
      return {
        source,
        spec: precompileAst(compiler(), ast),
        helpers: helperKey(),
        ...(size ? { size } : {}),
      };
    },
    preload(templates) {
      const key = helperKey();
      for (const t of templates) {
        if (t.helpers !== key || cache.has(t.source)) continue;
        const size = knownSize(t.size);
        precompiled.set(t.source, size ? { spec: t.spec, size } : { spec: t.spec });
      }
    },
    registerPartial(name, source) {
      partialSources.set(name, source);
      wrappers = new Map();
      wrapperChars = 0;
      cache.clear();
      kept = new WeakMap();
      cachedChars = 0;
      cachedTags = 0;
    },
  };
  registerBuiltinHelpers(engine);
  return engine;
}

type HandlebarsInstance = typeof Handlebars;

/** What a render's partials are made of ({@link Engine.render}): its own, and the names looked up so far. */
interface RenderPartials {
  extra: RenderOptions["partials"];
  /** The object Handlebars is given; each partial looked up is kept on it. */
  found: Record<string, TemplateDelegate> | undefined;
  /** The names kept on {@link found}, taken off when the render returns. */
  names: string[];
}

/** What Handlebars sets up for a top-level call, made once and given to every render. */
interface RuntimeSetup {
  options(data: unknown, partials: Record<string, TemplateDelegate>): RuntimeOptions;
}

interface Container {
  helpers: Record<string, unknown>;
  decorators: Record<string, unknown>;
  hooks: Record<string, unknown>;
  protoAccessControl: unknown;
}

/**
 * A top-level template call makes Handlebars merge and wrap every helper,
 * build its prototype-access rules and move the missing-helper hooks, a tenth
 * of a render with a dozen sections. A partial call takes all of that from
 * its caller instead. So the set-up is made once, by running a template whose
 * only work is to hand back its container, and each section then runs the way
 * Handlebars runs a partial, with that set-up, its own partials and a fresh
 * `@root` frame. Redone when a helper changes.
 */
function captureSetup(hb: HandlebarsInstance, printed: (value: unknown) => unknown): RuntimeSetup {
  let container: Container | undefined;
  const { COMPILER_REVISION: revision, REVISION_CHANGES: changes } = hb as unknown as {
    COMPILER_REVISION: number;
    REVISION_CHANGES: Record<number, string>;
  };
  const spec = {
    compiler: [revision, changes[revision]],
    main: (c: Container) => {
      container = c;
      return "";
    },
    // So that Handlebars sets up partials and decorators too.
    usePartial: true,
    useData: true,
  };
  // Prototype access denied by default, not logged: Handlebars would print each name it
  // refuses to the console (`{{valueOf}}`, `{{tools.map}}`) from inside the library.
  hb.template(spec as unknown as Parameters<HandlebarsInstance["template"]>[0])(
    {},
    { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false },
  );
  const c = container as Container;
  c.hooks[PRINTED_HOOK] = printed;
  return {
    options: (data, partials) =>
      ({
        partial: true,
        helpers: c.helpers,
        decorators: c.decorators,
        hooks: c.hooks,
        protoAccessControl: c.protoAccessControl,
        partials,
        data: { root: data },
      }) as RuntimeOptions,
  };
}

type CompileOptions = NonNullable<Parameters<HandlebarsInstance["compile"]>[1]>;

type DecoratorProgram = (context: unknown, options?: unknown) => string;

/** Partials by name: a render's (`container.partials`), or a frame over them. */
type Partials = Record<string, unknown>;

/** The inline partials one run of a block defines, by name. */
type Scope = Map<string, DecoratorProgram>;

/**
 * Where a block's inline partials go on the block's program, for Handlebars
 * to copy there (it copies a decorator's `props` onto the program). Not
 * `partials`: for a partial block with that, Handlebars copied every partial
 * in scope into a new object at each call (999 file partials: 1.3 s for
 * 1,024 calls; issue 24, review rev43b F2).
 */
const SCOPE_KEY = "inlinePartialScope";

/** What a frame ({@link frameOver}) is over: its scope, the frame or partials below, how many scopes deep. */
interface Frame {
  scope: Scope;
  below: Frame | undefined;
  base: Partials;
  depth: number;
}

/** The key under which a frame gives its {@link Frame} (a symbol: no template can name it). */
const FRAME = Symbol("inline partials frame");

/** The scope of `frame` or one below it that defines `key`, innermost first. */
function scopeOf(frame: Frame, key: string | symbol): Scope | undefined {
  if (typeof key !== "string") return undefined;
  for (let f: Frame | undefined = frame; f !== undefined; f = f.below) {
    if (f.scope.has(key)) return f.scope;
  }
  return undefined;
}

/** One handler for every frame: a frame's target is its {@link Frame}. */
const frameHandler: ProxyHandler<Frame> = {
  get: (frame, key) => {
    if (key === FRAME) return frame;
    const found = scopeOf(frame, key);
    return found === undefined ? Reflect.get(frame.base, key) : found.get(key as string);
  },
  has: (frame, key) => scopeOf(frame, key) !== undefined || Reflect.has(frame.base, key),
  getOwnPropertyDescriptor: (frame, key) => {
    const found = scopeOf(frame, key);
    if (found === undefined) {
      // Read, not asked for its own: the render's partials keep a name on first read ({@link partialsFor}).
      const value = typeof key === "string" ? Reflect.get(frame.base, key) : undefined;
      // Reported as the frame's own (a proxy may not report a fixed property its target lacks).
      return value === undefined
        ? undefined
        : { value, writable: false, enumerable: true, configurable: true };
    }
    return {
      value: found.get(key as string),
      writable: false,
      enumerable: true,
      configurable: true,
    };
  },
  ownKeys: (frame) => {
    // The render's partials: those kept on its object, and those its prototype can look up.
    const keys = new Set<string | symbol>([
      ...Reflect.ownKeys(frame.base),
      ...Reflect.ownKeys(Object.getPrototypeOf(frame.base) ?? {}),
    ]);
    for (let f: Frame | undefined = frame; f !== undefined; f = f.below) {
      for (const name of f.scope.keys()) keys.add(name);
    }
    return [...keys];
  },
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
};

/**
 * The partials `partials` holds, with `scope`'s over them, without copying
 * any: a proxy that looks a name up in the scopes in scope, innermost first,
 * then in the render's partials. Handlebars made the frame of an inline
 * partial's block by copying every partial in scope at each run of it: a
 * loop over such a block copied 2,000 partials 200,000 times, 44 s in one
 * render (issue 24, review rev43b F2). Lookups see the names as the frame's
 * own, as Handlebars' partial lookup wants; nothing may write into a frame.
 */
function frameOver(partials: Partials, scope: Scope): Partials {
  const below = (partials as { [FRAME]?: Frame })[FRAME];
  const depth = (below?.depth ?? 0) + 1;
  if (depth > MAX_INLINE_FRAMES) {
    throw new TemplateError(
      `Inline partials nested more than ${MAX_INLINE_FRAMES} blocks deep (blocks with {{#*inline}} running inside one another)`,
    );
  }
  const frame: Frame = { scope, below, base: below?.base ?? partials, depth };
  return new Proxy(frame, frameHandler) as unknown as Partials;
}

/**
 * A partial called as a block whose body defines inline partials
 * (`{{#> layout}}{{#*inline "title"}}…{{/inline}}{{/layout}}`) sees them:
 * a frame over the partials it is given ({@link SCOPE_KEY}).
 */
function blockScope(options: RuntimeOptions): void {
  const { fn, partials } = options as { fn?: { [SCOPE_KEY]?: unknown }; partials?: Partials };
  const scope = fn?.[SCOPE_KEY];
  if (scope instanceof Map && partials !== undefined) {
    (options as { partials?: Partials }).partials = frameOver(partials, scope as Scope);
  }
}

/**
 * Handlebars' `{{#*inline "name"}}` decorator, with the partials it defines
 * metered like file partials: inline partials that include each other could
 * otherwise nest and multiply without bound. Like the original, it gives the
 * block a partials frame of its own, for the run of the block only, but
 * without copying ({@link frameOver}); and each definition counts as a call
 * (a loop over a block that defines 2,000 runs 2,000 definitions a pass).
 */
function meterInlinePartials(
  hb: HandlebarsInstance,
  current: () => RenderBudget | undefined,
): void {
  hb.registerDecorator(
    "inline",
    (
      fn: DecoratorProgram,
      props: { [SCOPE_KEY]?: Scope },
      container: { partials: Partials },
      options: { args: unknown[]; hash?: unknown; fn: DecoratorProgram },
    ) => {
      const budget = current();
      if (budget !== undefined) {
        budget.tick();
        // Its parameters and key=value pairs, built at each run (review rev45b F2).
        const { args, hash } = options;
        budget.words(
          (Array.isArray(args) ? args.length : 0) +
            (hash !== null && typeof hash === "object" ? Object.keys(hash).length : 0),
        );
      }
      let ret = fn;
      let scope = props[SCOPE_KEY];
      if (scope === undefined) {
        const own: Scope = new Map();
        scope = own;
        props[SCOPE_KEY] = own;
        ret = (context, runtimeOptions) => {
          const original = container.partials;
          container.partials = frameOver(original, own);
          try {
            return fn(context, runtimeOptions);
          } finally {
            container.partials = original;
          }
        };
      }
      const name = String(options.args[0]);
      const body = options.fn;
      scope.set(name, (context, runtimeOptions) => {
        const budget = current();
        if (budget === undefined) return body(context, runtimeOptions);
        let result: string;
        try {
          budget.enterPartial(name);
          result = budget.run(() => body(context, runtimeOptions));
        } catch (error) {
          // Located like a file partial's failure: at its `{{> name}}`, by the caller.
          throw new PartialCallError(name, toTemplateError(hb, error, undefined));
        }
        budget.leavePartial();
        return result;
      });
      return ret;
    },
  );
}

/** The name a partial block's body runs under, for the partial depth and its errors. */
const PARTIAL_BLOCK = "@partial-block";

/**
 * A partial block's body (`{{#> layout}}…{{/layout}}`) metered as a partial
 * call at each run: Handlebars hands it to the partial as `@partial-block`,
 * which runs it once per `{{> @partial-block}}` or `{{@partial-block}}`, and
 * runs it in place of a partial that is missing; none of those runs was a
 * call. A layout of 100 `{{> @partial-block}}` nested three deep ran a body
 * of 100 cheap tags a million times for some 10,000 counted calls, 65 s of
 * CPU in one render (issue 24, review rev44d F1). The body is wrapped before
 * Handlebars' `invokePartial` reads it, on this engine's own copy of the
 * runtime's entry points (Handlebars reads them through `hb.VM` for that).
 */
function meterPartialBlocks(
  hb: HandlebarsInstance,
  current: () => RenderBudget | undefined,
  noop: unknown,
  blocks: BlockPrints,
): void {
  const target = hb as unknown as { VM: Record<string, unknown> };
  const vm = target.VM;
  const invoke = vm.invokePartial as (
    this: unknown,
    partial: unknown,
    context: unknown,
    options: { fn?: unknown },
  ) => unknown;
  const resolve = vm.resolvePartial as (
    this: unknown,
    partial: unknown,
    context: unknown,
    options: { name?: unknown; partials?: unknown },
  ) => unknown;
  target.VM = {
    ...vm,
    // A missing or dynamic partial is looked up as an own property: the render's partials keep a
    // name once read ({@link partialsFor}), so it is read first.
    resolvePartial(
      this: unknown,
      partial: unknown,
      context: unknown,
      options: { name?: unknown; partials?: unknown },
    ) {
      const name = !partial
        ? options.name
        : typeof partial !== "function" && !options.name
          ? partial
          : undefined;
      const partials = options.partials;
      if (
        (typeof name === "string" || typeof name === "number") &&
        name !== PARTIAL_BLOCK &&
        partials !== null &&
        typeof partials === "object"
      ) {
        Reflect.get(partials, String(name));
      }
      return resolve.call(this, partial, context, options);
    },
    invokePartial(
      this: unknown,
      partial: unknown,
      context: unknown,
      options: { fn?: unknown; data?: unknown; name?: unknown },
    ) {
      const body = options.fn;
      if (typeof body === "function" && body !== noop) {
        // Written in the template whose code calls the partial: its body runs as that template's,
        // with this call's context and data when it is the render's to keep ({@link BlockPrints.own}).
        const call = { writer: blocks.writer(), context, data: options.data };
        options.fn = meteredBody(body as DecoratorProgram, current, blocks, call);
      }
      return invoke.call(this, partial, context, options);
    },
  };
}

/**
 * What the engine tells {@link meteredBody} of the code running: whose
 * template it is (`writer`, undefined for the render's own), set for a body's
 * run (`enter`, put back by `leave`), and whether a body's run is the
 * render's to keep as its writer's ({@link RenderOptions.blockText}).
 */
interface BlockPrints {
  writer(): string | undefined;
  enter(writer: string | undefined): string | undefined;
  leave(outer: string | undefined): void;
  /** The print's keeper; `indent` is the one Handlebars gave the call (written before each line after). */
  own(writer: string | undefined): ((text: string, indent: string) => string) | undefined;
  value(text: string): string;
}

/**
 * Whether a partial block's body runs because a partial call prints it: the
 * body is handed to the partial as a function (`@partial-block`, Handlebars'
 * `partialBlockWrapper` around it), which Handlebars' `invokePartial` calls
 * with the call's options, marked `partial: true`, and passes on to the body,
 * whatever named that function: `{{> @partial-block}}`, a missing partial's
 * fallback, or a dynamic name that evaluates to it (`{{> (default
 * @partial-block)}}`, `{{> (lookup this "pb")}}`, a hash value passed on).
 * Called as a value (`{{@partial-block}}`, `{{#with}}`, `{{#if}}`, `{{#each}}`)
 * it is called with no options, or a helper's own. Before, only a call named
 * `@partial-block` was taken for a print, so a dynamic name printed your block
 * as the project's value, unmarked (review rev99b F2).
 */
function printedAsPartial(options: unknown): boolean {
  return (
    typeof options === "object" && options !== null && Reflect.get(options, "partial") === true
  );
}

/** A partial block's call: the template it is written in, and the context and data the partial was called with. */
interface BlockCall {
  writer: string | undefined;
  context: unknown;
  data: unknown;
}

/**
 * `body` run as a partial call of {@link PARTIAL_BLOCK}, keeping what
 * Handlebars and {@link blockScope} read on it; run as the code of the
 * template it is written in (`call.writer`). When the render keeps its print
 * as that template's ({@link BlockPrints.own}), it runs with its call's
 * context and data (a partial that runs it cannot make it print a text of
 * its own, `{{> @partial-block cwd="</x>"}}`), and its print is given to
 * what the render returned (fx96b, review rev93g F2).
 */
function meteredBody(
  body: DecoratorProgram,
  current: () => RenderBudget | undefined,
  blocks: BlockPrints,
  call: BlockCall,
): DecoratorProgram {
  const run: DecoratorProgram = (context, options) => {
    const budget = current();
    // Printed by a partial call, or called as a value (`{{#with @partial-block}}`): a value is the
    // reading template's, never kept as the writer's, and holds no mark (review rev98b F1).
    const printed = printedAsPartial(options);
    const keep = printed ? blocks.own(call.writer) : undefined;
    // The indentation Handlebars writes before each line of this print (a standalone call's; rev102b F6).
    const indent = printed ? Reflect.get(options as object, "indent") : undefined;
    const done =
      keep === undefined
        ? printed
          ? undefined
          : blocks.value
        : (text: string) => keep(text, typeof indent === "string" ? indent : "");
    const given = keep === undefined ? context : call.context;
    const runWith = keep === undefined ? options : { data: call.data };
    // No `finally`: an error here ends the whole render (or the held print around it), which puts the writer back.
    const outer = blocks.enter(call.writer);
    if (budget === undefined) {
      const text = body(given, runWith);
      blocks.leave(outer);
      return done === undefined ? text : done(text);
    }
    budget.enterPartial(PARTIAL_BLOCK);
    const result = budget.run(() => body(given, runWith));
    budget.leavePartial();
    blocks.leave(outer);
    return done === undefined ? result : done(result);
  };
  const props = body as { partials?: unknown; [SCOPE_KEY]?: unknown };
  if (props.partials !== undefined) (run as { partials?: unknown }).partials = props.partials;
  if (props[SCOPE_KEY] !== undefined)
    (run as { [SCOPE_KEY]?: unknown })[SCOPE_KEY] = props[SCOPE_KEY];
  return run;
}

/**
 * The helper every partial call with key=value pairs passes its context
 * through ({@link meterPartialContexts}); a name no template can write.
 */
const PARTIAL_CONTEXT = "partial context";

/**
 * Handlebars copies the context of a partial called with key=value pairs
 * (`{{> item this name="x"}}`) into a new object with the pairs, key by
 * key. That copy is counted first ({@link RenderBudget.copyContext}), a
 * list by its length, an object by its keys; a text, of which Handlebars
 * copied every character as a key (a 250 KB AGENTS.md: 256 calls, 37 s;
 * issue 24, review rev43b F3), is given as an empty object: the partial
 * sees the pairs, as it did, and no character (`{{this}}` was
 * `[object Object]` before as after).
 */
function partialContext(current: () => RenderBudget | undefined): HelperDelegate {
  return (context: unknown, pairs: unknown) => {
    // The call's key=value pairs, which Handlebars copies into the context: counted as calls.
    if (typeof pairs === "number") current()?.words(pairs);
    if (typeof context === "string") return {};
    if (context === null || typeof context !== "object") return context;
    const budget = current();
    if (budget !== undefined) {
      budget.copyContext(Array.isArray(context) ? context.length : Object.keys(context).length);
    }
    return context;
  };
}

/** How many key=value pairs a hash node holds. */
function hashPairs(hash: unknown): number {
  const pairs = (hash as { pairs?: unknown } | null | undefined)?.pairs;
  return Array.isArray(pairs) ? pairs.length : 0;
}

interface AstNode {
  type?: unknown;
  params?: unknown[];
  hash?: unknown;
  loc?: unknown;
}

/**
 * Rewrites every partial call with key=value pairs in `ast` so that its
 * context goes through {@link PARTIAL_CONTEXT} first: `{{> x ctx a=1}}` runs
 * as `{{> x (partial-context ctx) a=1}}`, and `{{> x a=1}}` as the same with
 * `this`. Calls without pairs are left as they are (Handlebars passes their
 * context on without copying it).
 */
function meterPartialContexts(ast: unknown): void {
  /** The calls of {@link PARTIAL_CONTEXT} made here: a template's own are refused. */
  const ours = new WeakSet<object>();
  walkSyntax([ast], (n: AstNode) => {
    refuseHiddenHelper(n, ours);
    refuseDecoratorSubexpression(n);
    if (
      (n.type === "PartialStatement" || n.type === "PartialBlockStatement") &&
      n.hash !== undefined &&
      n.hash !== null &&
      Array.isArray(n.params)
    ) {
      const context = n.params[0] ?? {
        type: "PathExpression",
        data: false,
        depth: 0,
        parts: [],
        original: "this",
        loc: n.loc,
      };
      const path = {
        type: "PathExpression",
        data: false,
        depth: 0,
        parts: [PARTIAL_CONTEXT],
        original: PARTIAL_CONTEXT,
        loc: n.loc,
      };
      ours.add(path);
      n.params = [
        {
          type: "SubExpression",
          path,
          params: [
            context,
            {
              type: "NumberLiteral",
              value: hashPairs(n.hash),
              original: hashPairs(n.hash),
              loc: n.loc,
            },
          ],
          hash: undefined,
          loc: n.loc,
        },
        ...n.params.slice(1),
      ];
    }
    return true;
  });
}

/** A 1-based place of a syntax node, for an error. */
function placeOf(node: AstNode): { line?: number; column?: number } {
  const start = (node.loc as { start?: { line?: unknown; column?: unknown } } | undefined)?.start;
  return typeof start?.line === "number" && typeof start.column === "number"
    ? { line: start.line, column: start.column + 1 }
    : {};
}

/**
 * Refuses a template's own call of {@link PARTIAL_CONTEXT}: a bracketed
 * segment can name any helper (`{{[partial context] x}}`), and it rendered
 * `[object Object]` where `check` said the helper is unknown (review rev44d F3).
 */
function refuseHiddenHelper(node: AstNode, ours: WeakSet<object>): void {
  if (!CALLS.has(node.type as string)) return;
  const path = (node as { path?: unknown }).path;
  if (path === null || typeof path !== "object" || ours.has(path)) return;
  const { parts, data } = path as { parts?: unknown; data?: unknown };
  if (data !== true && Array.isArray(parts) && parts.length === 1 && parts[0] === PARTIAL_CONTEXT) {
    throw new TemplateError(`Unknown helper "${PARTIAL_CONTEXT}"`, placeOf(node));
  }
}

/** Syntax nodes whose path names a helper to call. */
const CALLS = new Set(["MustacheStatement", "BlockStatement", "SubExpression"]);

/**
 * Refuses a subexpression among a decorator's arguments
 * (`{{#*inline (lookup . "n")}}`): Handlebars' code for it reads helpers that
 * a decorator is not given, and failed at run time with no place
 * ("helpers is not defined"; review rev44d F4).
 */
function refuseDecoratorSubexpression(node: AstNode): void {
  if (node.type !== "Decorator" && node.type !== "DecoratorBlock") return;
  walkSyntax([node.params, node.hash], (c: AstNode) => {
    if (c.type === "SubExpression") {
      throw new TemplateError(
        "A decorator's arguments cannot hold a subexpression: give `{{#*inline}}` its name as a text",
        placeOf(c),
      );
    }
    return true;
  });
}
