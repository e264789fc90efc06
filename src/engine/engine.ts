import type { HelperDelegate, RuntimeOptions, TemplateDelegate } from "handlebars";
import Handlebars from "handlebars";
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
}

interface Compiled {
  template: TemplateDelegate;
  /** Unprocessed AST, kept to find where a partial is called when it fails at run time. */
  ast: unknown;
}

interface SourceLocation {
  start: { line: number; column: number };
}

/** Handlebars builtins that templates may not use: `log` writes to the console. */
const DISABLED_BUILTINS = ["log"] as const;

/**
 * Creates an engine with its own Handlebars instance and all helpers from
 * `helpers/` registered. Templates compile with `noEscape` (a prompt is not
 * HTML) and `knownHelpersOnly`, so a misspelt block helper is a compile error
 * rather than a silently empty section.
 */
export function createEngine(): Engine {
  const hb = Handlebars.create();
  useStringAppends(hb);
  for (const name of DISABLED_BUILTINS) hb.unregisterHelper(name);
  const cache = new Map<string, Compiled | TemplateError>();
  const partialSources = new Map<string, string>();

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
    let entry: Compiled | TemplateError;
    try {
      const ast = parseSource(hb, source);
      // Handlebars compiles lazily on first call; precompiling now makes an
      // unknown helper a compile error that `check` sees without data.
      hb.precompile(source, compileOptions());
      entry = { ast, template: hb.compile(source, compileOptions()) };
    } catch (error) {
      entry = toTemplateError(hb, error, undefined);
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
        throw new PartialCallError(name, toTemplateError(hb, error, compiled?.ast));
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
        throw toTemplateError(hb, error, compiled.ast);
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
        `Block "${open.name}" opened on line ${open.line} is never closed: expected {{/${open.name}}}`,
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
