import { createRequire } from "node:module";
import type Handlebars from "handlebars";
import type { HelperDelegate, RuntimeOptions, TemplateDelegate } from "handlebars";
import { registerBuiltinHelpers } from "../../helpers/index.js";

/**
 * A template that does not parse, uses an unknown block helper, calls a
 * missing partial or has a helper that throws. `line` and `column` are 1-based
 * and relative to the template source given to `render`/`check`; errors
 * inside a partial point at the `{{> name}}` call and keep the partial's own
 * error as `cause`.
 */
export class TemplateError extends Error {
  line?: number;
  column?: number;

  constructor(message: string, options: { line?: number; column?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TemplateError";
    if (options.line !== undefined) this.line = options.line;
    if (options.column !== undefined) this.column = options.column;
  }
}

/** A failure inside partial `partial`, still to be located at its call site by the caller. */
class PartialCallError extends TemplateError {
  readonly partial: string;

  constructor(partial: string, inner: TemplateError) {
    const where =
      inner.line === undefined ? "" : ` (line ${inner.line}, column ${inner.column ?? 1})`;
    super(`In partial "${partial}"${where}: ${inner.message}`, { cause: inner });
    this.partial = partial;
  }
}

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
}

export interface Engine {
  /** Compile (cached by source) and render. Throws TemplateError for syntax errors, unknown block helpers, a missing partial, a helper that throws. */
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
  /** Unprocessed AST, to find where a partial is called when it fails at run time; parsed on demand. */
  ast: () => unknown;
}

/** A template compiled ahead of time (at build) for the given helper set. */
export interface PrecompiledTemplate {
  source: string;
  /** `Handlebars.precompile` output. */
  spec: string;
  /** The helper names it was compiled against (see {@link Engine.precompile}). */
  helpers: string;
}

const require = createRequire(import.meta.url);

/**
 * The runtime (helpers, partials, running templates) loads with the engine;
 * the compiler (parser, code generator, source-map) costs about as much again
 * and is loaded on the first template that was not compiled ahead of time.
 */
const Runtime = require("handlebars/runtime") as HandlebarsInstance;

function createCompiler(): HandlebarsInstance {
  const full = require("handlebars") as HandlebarsInstance;
  const compiler = full.create();
  useStringAppends(compiler);
  return compiler;
}

interface SourceLocation {
  start: { line: number; column: number };
}

/** Compiled templates kept per engine. */
const MAX_CACHED_TEMPLATES = 512;

/** Handlebars builtins that templates may not use: `log` writes to the console. */
const DISABLED_BUILTINS = ["log"] as const;

/**
 * Creates an engine with its own Handlebars instance and all helpers from
 * `helpers/` registered. Templates compile with `noEscape` (a prompt is not
 * HTML) and `knownHelpersOnly`, so a misspelt block helper is a compile error
 * rather than a silently empty section.
 */
export function createEngine(): Engine {
  const hb = Runtime.create();
  for (const name of DISABLED_BUILTINS) hb.unregisterHelper(name);
  let compilerInstance: HandlebarsInstance | undefined;
  const compiler = () => {
    compilerInstance ??= createCompiler();
    return compilerInstance;
  };
  const cache = new Map<string, Compiled | TemplateError>();
  const precompiled = new Map<string, string>();
  const partialSources = new Map<string, string>();

  /** Which helpers templates were compiled against; a precompiled spec must match it. */
  function helperKey(): string {
    return Object.keys(hb.helpers)
      .filter((name) => !(DISABLED_BUILTINS as readonly string[]).includes(name))
      .sort()
      .join(",");
  }

  function fromSpec(spec: string): TemplateDelegate {
    // Evaluating generated code is what Handlebars' own compile does internally.
    return hb.template(
      new Function(`return ${spec}`)() as Parameters<HandlebarsInstance["template"]>[0],
    );
  }

  function precompileAst(instance: HandlebarsInstance, ast: unknown): string {
    // Typed as a spec object, but without `srcName` it is the spec's source text.
    return instance.precompile(ast, compileOptions()) as unknown as string;
  }

  function lazyAst(source: string): () => unknown {
    let ast: unknown;
    return () => {
      ast ??= compiler().parseWithoutProcessing(source);
      return ast;
    };
  }

  function compileOptions(): CompileOptions {
    const knownHelpers: Record<string, boolean> = {};
    for (const name of Object.keys(hb.helpers)) knownHelpers[name] = true;
    // Handlebars treats its builtins as known unless told otherwise.
    for (const name of DISABLED_BUILTINS) knownHelpers[name] = false;
    return { noEscape: true, knownHelpersOnly: true, knownHelpers, strict: false };
  }

  function compile(source: string): Compiled {
    const cached = cache.get(source);
    if (cached instanceof TemplateError) throw cached;
    if (cached !== undefined) return cached;
    let entry: Compiled | TemplateError | undefined;
    const spec = precompiled.get(source);
    if (spec !== undefined) {
      try {
        entry = { ast: lazyAst(source), template: fromSpec(spec) };
      } catch {
        // A spec from another Handlebars version: compile from source below.
        precompiled.delete(source);
      }
    }
    if (entry === undefined) {
      try {
        const ast = parseSource(compiler(), source);
        // One parse and one code generation, done now rather than lazily on
        // the first call (as hb.compile would), so an unknown helper is a
        // compile error that `check` sees without data.
        const template = fromSpec(precompileAst(compiler(), structuredClone(ast)));
        entry = { ast: () => ast, template };
      } catch (error) {
        entry = toTemplateError(compiler(), error, undefined);
      }
    }
    if (cache.size >= MAX_CACHED_TEMPLATES) {
      // Oldest first: a long-lived harness re-rendering edited files must not grow without bound.
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(source, entry);
    if (entry instanceof TemplateError) throw entry;
    return entry;
  }

  /** A partial as a function, so it compiles through the same cache and its errors are located. */
  function partial(name: string, source: string | PartialFunction): TemplateDelegate {
    return (context: unknown, options?: RuntimeOptions) => {
      let compiled: Compiled | undefined;
      try {
        if (typeof source === "function") return String(source(context) ?? "");
        compiled = compile(source);
        return compiled.template(context, options);
      } catch (error) {
        throw new PartialCallError(name, toTemplateError(hb, error, compiled?.ast()));
      }
    };
  }

  function partialsFor(extra: RenderOptions["partials"]): Record<string, TemplateDelegate> {
    // A fresh object per render: Handlebars writes into the partials it is given.
    const partials: Record<string, TemplateDelegate> = {};
    for (const [name, source] of partialSources) partials[name] = partial(name, source);
    for (const [name, source] of Object.entries(extra ?? {}))
      partials[name] = partial(name, source);
    return partials;
  }

  const engine: Engine = {
    render(source, data, options = {}) {
      const compiled = compile(source);
      try {
        return compiled.template(data, { partials: partialsFor(options.partials) });
      } catch (error) {
        throw toTemplateError(hb, error, compiled.ast());
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
      hb.registerHelper(name, guardHelper(hb, name, fn));
      cache.clear();
      precompiled.clear();
    },
    precompile(source) {
      const ast = parseSource(compiler(), source);
      return { source, spec: precompileAst(compiler(), ast), helpers: helperKey() };
    },
    preload(templates) {
      const key = helperKey();
      for (const t of templates) {
        if (t.helpers === key && !cache.has(t.source)) precompiled.set(t.source, t.spec);
      }
    },
    registerPartial(name, source) {
      partialSources.set(name, source);
      cache.clear();
    },
  };
  registerBuiltinHelpers(engine);
  return engine;
}

type HandlebarsInstance = typeof Handlebars;

interface JavaScriptCompilerLike {
  appendToBuffer(source: unknown, location?: unknown, explicit?: boolean): unknown;
}
type JavaScriptCompilerClass = new (...args: unknown[]) => JavaScriptCompilerLike;

/**
 * Makes every value appended to the output a string. Unescaped output
 * (`noEscape`, `{{{x}}}`) appends raw values joined with `+`, so `{{a}}{{b}}`
 * with the numbers 1 and 2 renders "3" (handlebars.js#1838, fixed upstream
 * after 4.7). `appendToBuffer` is the compiler's documented override point;
 * `compiler` makes block bodies use the subclass too.
 */
function useStringAppends(hb: HandlebarsInstance): void {
  const target = hb as unknown as { JavaScriptCompiler: JavaScriptCompilerClass };
  const Base = target.JavaScriptCompiler;
  class StringAppendingCompiler extends Base {
    override appendToBuffer(source: unknown, location?: unknown, explicit?: boolean): unknown {
      const parts = Array.isArray(source) ? source : [source];
      return super.appendToBuffer(['"" + (', ...parts, ")"], location, explicit);
    }
  }
  (StringAppendingCompiler.prototype as { compiler?: unknown }).compiler = StringAppendingCompiler;
  target.JavaScriptCompiler = StringAppendingCompiler;
}
type CompileOptions = NonNullable<Parameters<HandlebarsInstance["compile"]>[1]>;

/**
 * Wraps a helper so that an error it throws becomes a TemplateError at the
 * helper's call. Errors from the template inside its block (a TemplateError or
 * a Handlebars exception) pass through untouched: they know better where they are.
 */
function guardHelper(hb: HandlebarsInstance, name: string, fn: HelperDelegate): HelperDelegate {
  return function guarded(this: unknown, ...args: unknown[]): unknown {
    try {
      return (fn as (...helperArgs: unknown[]) => unknown).apply(this, args);
    } catch (error) {
      if (error instanceof TemplateError || error instanceof hb.Exception) throw error;
      const loc = locationOf(args[args.length - 1]);
      const reason = error instanceof Error ? error.message : String(error);
      throw new TemplateError(`Helper "${name}": ${reason}`, { ...loc, cause: error });
    }
  };
}

function locationOf(options: unknown): { line?: number; column?: number } {
  const loc = (options as { loc?: SourceLocation } | undefined)?.loc;
  if (typeof loc?.start?.line !== "number") return {};
  return { line: loc.start.line, column: loc.start.column + 1 };
}

function parseSource(hb: HandlebarsInstance, source: string): unknown {
  try {
    return hb.parseWithoutProcessing(source);
  } catch (error) {
    throw parseErrorToTemplateError(hb, error, source);
  }
}

/**
 * Handlebars' parser throws a plain Error whose message has the line, an
 * excerpt and the expected tokens; the column is only in the (shared, so read
 * at once) lexer state.
 */
function parseErrorToTemplateError(
  hb: HandlebarsInstance,
  error: unknown,
  source: string,
): TemplateError {
  if (!(error instanceof Error)) return toTemplateError(hb, error, undefined);
  const lines = error.message.split("\n");
  const head = lines[0] ?? error.message;
  const headLine = /on line (\d+)/.exec(head)?.[1];
  if (headLine === undefined) return toTemplateError(hb, error, undefined);
  const expecting = lines.find((l) => l.startsWith("Expecting "));

  if (expecting?.endsWith("got 'EOF'")) {
    const open = findUnclosedBlock(source);
    if (open !== undefined) {
      return new TemplateError(
        // No line in the text: callers relocate `line` (a section body starts below its frontmatter).
        `Block "${open.name}" is never closed: expected {{/${open.name}}}`,
        { line: open.line, column: open.column, cause: error },
      );
    }
  }
  const line = Number(headLine);
  const lexer = (hb as unknown as { Parser?: { lexer?: { yylloc?: LexerLocation } } }).Parser?.lexer
    ?.yylloc;
  const column = lexer?.first_line === line ? lexer.first_column + 1 : undefined;
  const message = expecting === undefined ? head : `${head.replace(/:$/, "")}: ${expecting}`;
  return new TemplateError(message, {
    line,
    ...(column === undefined ? {} : { column }),
    cause: error,
  });
}

interface LexerLocation {
  first_line: number;
  first_column: number;
}

/** Turns anything thrown while compiling or rendering into a located TemplateError. */
function toTemplateError(hb: HandlebarsInstance, error: unknown, ast: unknown): TemplateError {
  if (error instanceof PartialCallError) {
    const loc = findPartialCall(ast, error.partial);
    return new TemplateError(error.message, { ...loc, cause: error.cause });
  }
  if (error instanceof TemplateError) return error;
  if (!(error instanceof Error) && !(error instanceof hb.Exception)) {
    return new TemplateError(String(error), { cause: error });
  }
  const message = error.message.replace(/ - \d+:\d+$/, "");
  const missing = /^The partial (.+) could not be found$/.exec(message)?.[1];
  if (missing !== undefined) {
    return new TemplateError(`Partial "${missing}" not found`, {
      ...findPartialCall(ast, missing),
      cause: error,
    });
  }
  const unknownHelper = /used the unknown helper (\S+)/.exec(message)?.[1];
  const { lineNumber, column } = error as { lineNumber?: unknown; column?: unknown };
  return new TemplateError(
    unknownHelper === undefined ? message : `Unknown helper "${unknownHelper}"`,
    {
      ...(typeof lineNumber === "number" ? { line: lineNumber } : {}),
      ...(typeof column === "number" ? { column: column + 1 } : {}),
      cause: error,
    },
  );
}

/** Where `{{> name}}` (or `{{#> name}}`) first appears in a template's AST. */
function findPartialCall(node: unknown, name: string): { line?: number; column?: number } {
  if (node === null || typeof node !== "object") return {};
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findPartialCall(child, name);
      if (found.line !== undefined) return found;
    }
    return {};
  }
  const record = node as Record<string, unknown>;
  if (record.type === "PartialStatement" || record.type === "PartialBlockStatement") {
    const callee = record.name as { original?: unknown } | undefined;
    if (String(callee?.original) === name) return locationOf(record);
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === "loc") continue;
    const found = findPartialCall(child, name);
    if (found.line !== undefined) return found;
  }
  return {};
}

const BLOCK_TAG = /(\\?)\{\{~?\s*([#^/])\s*[*>]?\s*([^\s}~()]+)/g;
const COMMENT = /\{\{!--[\s\S]*?--~?\}\}|\{\{!(?!--)[\s\S]*?\}\}/g;

/**
 * Finds the innermost block left open at the end of the source. Handlebars
 * reports an unclosed block at the end of input, which points away from the
 * mistake; this scan points at the opener instead.
 */
function findUnclosedBlock(
  source: string,
): { name: string; line: number; column: number } | undefined {
  // Blank out comments (keeping newlines) so tags inside them do not count.
  const text = source.replace(COMMENT, (c) => c.replace(/[^\n]/g, " "));
  const open: { name: string; offset: number }[] = [];
  for (const match of text.matchAll(BLOCK_TAG)) {
    const [, escaped, sigil, name] = match;
    if (escaped || name === undefined) continue;
    if (sigil === "/") {
      const at = open.map((o) => o.name).lastIndexOf(name);
      if (at >= 0) open.length = at;
    } else {
      open.push({ name, offset: match.index });
    }
  }
  const last = open[open.length - 1];
  if (last === undefined) return undefined;
  const before = source.slice(0, last.offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return {
    name: last.name,
    line: before.split("\n").length,
    column: last.offset - lineStart + 1,
  };
}
