import type Handlebars from "handlebars";

// A compile of a template not your own, stopped between small pieces of it
// (review rev93g F1): Handlebars' compile of a template within every cap
// (5,000 tags) takes 0.5-1.2 s of CPU (its parse some 100-500 ms, its code
// generation 300-450 ms), and a render read its stop time only before a
// project's section and at each print of a project's partial, never during a
// compile. While a stop is set ({@link withCompileStop}), the lexer (each
// token), the compiler (each syntax node) and the code generator (each
// opcode) count their pieces, and every {@link PIECES_PER_READ} of them ask
// the stop, which throws to end the compile.

type HandlebarsInstance = typeof Handlebars;

/**
 * Pieces (tokens, syntax nodes, opcodes, text nodes) between two readings of
 * the stop: 0.2-0.5 ms of compile on average, the longest gap measured 14-48 ms
 * of CPU at a load of 9 (a garbage collection), for 5,000-tag templates of every shape tried.
 */
export const PIECES_PER_READ = 64;

/** The stop of the compile in progress, when one is set. */
let stop: (() => void) | undefined;
let pieces = 0;
/** What the stop threw, once it has: the compile's error, whatever Handlebars made of it on its way out. */
let thrown: { error: unknown } | undefined;

/** What the stop threw in the compile in progress (read through a call: a callee sets it). */
function stoppedBy(): { error: unknown } | undefined {
  return thrown;
}

/** One piece of a compile: every {@link PIECES_PER_READ}th asks the stop. */
function piece(): void {
  if (stop === undefined || ++pieces < PIECES_PER_READ) return;
  pieces = 0;
  ask();
}

function ask(): void {
  if (stop === undefined) return;
  // Stopped once: stopped (whatever Handlebars made of the first throw).
  if (thrown !== undefined) throw thrown.error;
  try {
    stop();
  } catch (error) {
    thrown = { error };
    throw error;
  }
}

/**
 * `compile()` with `check` asked between its pieces and after it (the
 * caller asks it before, ahead of its own counting): what
 * `check` throws ends it and is thrown, however Handlebars caught and wrapped
 * it on the way (its parser turns an error into a parse error).
 * No `check`: `compile()` as it is.
 */
export function withCompileStop<T>(check: (() => void) | undefined, compile: () => T): T {
  if (check === undefined) return compile();
  const outer = { stop, pieces, thrown };
  stop = check;
  pieces = 0;
  thrown = undefined;
  try {
    let made: T | undefined;
    try {
      made = compile();
      // The last pieces, and what follows them (the generated code's text, its evaluation).
      if (stoppedBy() === undefined) ask();
    } catch (error) {
      if (stoppedBy() === undefined) throw error;
    }
    const stopped = stoppedBy();
    if (stopped !== undefined) throw stopped.error;
    return made as T;
  } finally {
    stop = outer.stop;
    pieces = outer.pieces;
    thrown = outer.thrown;
  }
}

/** A compiler's method: no Handlebars opcode, `accept` or `walk` takes more than four arguments, nor reads `arguments`. */
type Method = (this: unknown, a: unknown, b: unknown, c: unknown, d: unknown) => unknown;

/** `method`, counting one piece at each call (four arguments passed on: no rest array on this hot path). */
function counted(method: Method): Method {
  return function countedMethod(this: unknown, a, b, c, d) {
    piece();
    return method.call(this, a, b, c, d);
  };
}

/** Marks what {@link countCompilePieces} wrapped already. */
const marked = Symbol("compile-stop-hooks");

interface Lexer {
  lex(): unknown;
}

interface CompilerClass {
  prototype: Record<string, unknown> & { accept(node: unknown): unknown };
}

/** Opcodes of Handlebars' code generator (`compiler.js`'s `opcode(...)` names). */
const OPCODES = [
  "ambiguousBlockValue",
  "append",
  "appendContent",
  "appendEscaped",
  "assignToHash",
  "blockValue",
  "emptyHash",
  "getContext",
  "invokeAmbiguous",
  "invokeHelper",
  "invokeKnownHelper",
  "invokePartial",
  "lookupBlockParam",
  "lookupData",
  "lookupOnContext",
  "popHash",
  "pushContext",
  "pushHash",
  "pushId",
  "pushLiteral",
  "pushProgram",
  "pushString",
  "pushStringParam",
  "registerDecorator",
  "resolvePossibleLambda",
] as const;

/**
 * Counts the pieces of `hb`'s compiles ({@link piece}): its parser's lexer
 * (shared by every instance of one Handlebars copy, wrapped once), its
 * compiler's `accept` and its code generator's opcodes. Outside a
 * {@link withCompileStop} each costs one comparison.
 */
export function countCompilePieces(hb: HandlebarsInstance): void {
  const target = hb as unknown as {
    Parser: { lexer: Lexer & { [marked]?: true } };
    Compiler: CompilerClass & { [marked]?: true };
    JavaScriptCompiler: CompilerClass & { [marked]?: true };
  };
  const lexer = target.Parser.lexer;
  if (lexer[marked] !== true) {
    const lex = lexer.lex;
    lexer.lex = function countedLex(this: Lexer): unknown {
      piece();
      return lex.call(this);
    };
    lexer[marked] = true;
  }
  for (const key of ["Compiler", "JavaScriptCompiler"] as const) {
    const Base = target[key];
    if (Base[marked] === true) continue;
    // A subclass as `useStringAppends` makes one: blocks' programs are compiled with `this.compiler`.
    const Counted = class extends (Base as unknown as new (...args: unknown[]) => object) {};
    const proto = Counted.prototype as Record<string, unknown>;
    proto.compiler = Counted;
    const names = key === "Compiler" ? ["accept"] : OPCODES;
    for (const name of names) {
      const method = Base.prototype[name];
      if (typeof method !== "function") continue;
      proto[name] = counted(method as Method);
    }
    if (key === "JavaScriptCompiler") {
      const preamble = Base.prototype.preamble;
      proto.preamble = function countedPreamble(this: { source?: unknown }): unknown {
        const made = (preamble as () => unknown).call(this);
        countWalks(this.source);
        return made;
      };
    }
    const made = Counted as unknown as CompilerClass & { [marked]?: true };
    made[marked] = true;
    target[key] = made;
  }
}

/**
 * Counts each node the generated code's text is walked through (the
 * `source-map` package's `SourceNode`, which Handlebars' code generator
 * builds its text of): that walk, at the compile's end, was its longest piece
 * (50-150 ms of a 5,000-tag template). Reached through `codeGen` (a
 * generator's `source`), wrapped once; a generator without it (Handlebars'
 * own string builder) has nothing to wrap.
 */
function countWalks(codeGen: unknown): void {
  const empty = (codeGen as { empty?: () => unknown } | undefined)?.empty;
  if (typeof empty !== "function") return;
  const node = empty.call(codeGen);
  const proto = (
    node === null || typeof node !== "object" ? undefined : Object.getPrototypeOf(node)
  ) as (Record<string, unknown> & { [marked]?: true }) | undefined;
  if (proto === undefined || proto[marked] === true) return;
  const walk = proto.walk;
  if (typeof walk !== "function") return;
  proto.walk = counted(walk as Method);
  proto[marked] = true;
}
