import type Handlebars from "handlebars";
import { pushAll } from "../_arrays.js";
import type { RenderBudget } from "./_budget.js";
import { walkSyntax } from "./_syntax.js";

// What one run of a compiled program (a template's main body, a block's body
// or `{{else}}`, an inline partial's or a partial block's body) costs: the
// tags it holds itself, counted when it is compiled and charged to the render
// at each run, as calls. A loop's pass was one call however many tags its
// body held: 200 rules × 200 passes × 4,000 empty lookups ran 15.8 s of CPU
// before any cap (issue 24, review rev44d F2).

type HandlebarsInstance = typeof Handlebars;

/** The key under which a spec gives its programs' weights, by program key (`main`, `1`, …). */
const WEIGHTS_KEY = "tagWeights";

/** Syntax nodes that are a tag's work when a program runs (a text or a comment is none). */
const WEIGHED = new Set([
  "MustacheStatement",
  "BlockStatement",
  "PartialStatement",
  "PartialBlockStatement",
  "Decorator",
  "DecoratorBlock",
  "SubExpression",
]);

/** A syntax node's keys that hold programs of their own, weighed on their own (and its location). */
const PROGRAM_KEYS = new Set(["program", "inverse", "loc"]);

/**
 * The tags `program` runs itself each time it runs: its statements other
 * than text and comments, and their subexpressions; not those of the blocks
 * inside it, which are programs of their own.
 */
export function programWeight(program: unknown): number {
  const body = (program as { body?: unknown } | null | undefined)?.body;
  if (!Array.isArray(body)) return 0;
  let weight = 0;
  walkSyntax(
    body,
    ({ type }) => {
      if (type === "Program") return false;
      if (typeof type === "string" && WEIGHED.has(type)) weight++;
      return true;
    },
    PROGRAM_KEYS,
  );
  return weight;
}

/** Handlebars' compiler environment (one per program), as far as it is read here. */
interface Environment {
  weight?: number;
  index?: number;
  children: Environment[];
}

interface CompilerClass {
  new (): { compile(program: unknown, options: object): Environment };
  prototype: { compile(program: unknown, options: object): Environment; compiler: unknown };
}

interface JavaScriptCompilerClass {
  new (): { compile(environment: Environment, options: object): unknown };
}

const weighing = new WeakMap<object, CompilerClass>();

/** `instance`'s compiler, recording each program's weight on its environment. */
function weighingCompiler(instance: HandlebarsInstance): CompilerClass {
  const made = weighing.get(instance);
  if (made !== undefined) return made;
  const Base = (instance as unknown as { Compiler: CompilerClass }).Compiler;
  const compile = Base.prototype.compile;
  function Weighing(this: object) {}
  Weighing.prototype = Object.create(Base.prototype);
  // Handlebars compiles a block's program with `new this.compiler()`.
  Weighing.prototype.compiler = Weighing;
  Weighing.prototype.compile = function weigh(
    this: Environment,
    program: unknown,
    options: object,
  ): Environment {
    this.weight = programWeight(program);
    return compile.call(this, program, options);
  };
  const weighed = Weighing as unknown as CompilerClass;
  weighing.set(instance, weighed);
  return weighed;
}

/**
 * `Handlebars.precompile` of `ast` (its three steps, as Handlebars takes
 * them), with the weight of each program ({@link programWeight}) added to
 * the spec's text under {@link WEIGHTS_KEY}, by the key the spec gives the
 * program.
 */
export function precompileWeighed(
  instance: HandlebarsInstance,
  ast: unknown,
  compileOptions: object,
): string {
  const options: object = { data: true, ...compileOptions };
  const program = instance.parse(ast as never, options);
  const environment = new (weighingCompiler(instance))().compile(program, options);
  const JavaScriptCompiler = (
    instance as unknown as { JavaScriptCompiler: JavaScriptCompilerClass }
  ).JavaScriptCompiler;
  const text = String(new JavaScriptCompiler().compile(environment, options)).trimEnd();
  if (!text.endsWith("}")) throw new Error("Handlebars gave a template spec that is not an object");
  const weights: Record<string, number> = { main: environment.weight ?? 0 };
  // The JavaScript compiler numbered each program (an equal one takes the first's number).
  const stack = [...environment.children];
  while (stack.length > 0) {
    const child = stack.pop();
    if (child === undefined) continue;
    if (typeof child.index === "number") {
      const key = String(child.index);
      weights[key] = Math.max(weights[key] ?? 0, child.weight ?? 0);
    }
    pushAll(stack, child.children);
  }
  return `${text.slice(0, -1)},${JSON.stringify(WEIGHTS_KEY)}:${JSON.stringify(weights)}}`;
}

type SpecProgram = (...args: unknown[]) => unknown;

/**
 * A copy of `spec` whose programs charge their weights to the render in
 * progress (`current()`) at each run. Throws for a spec without weights (one
 * compiled before they were counted): it is compiled again from its source.
 */
export function weighedSpec(spec: unknown, current: () => RenderBudget | undefined): object {
  const weights = (spec as Record<string, unknown> | null | undefined)?.[WEIGHTS_KEY];
  if (weights === null || typeof weights !== "object") {
    throw new Error("A template spec without its programs' weights");
  }
  const copy: Record<string, unknown> = { ...(spec as object) };
  for (const [key, weight] of Object.entries(weights)) {
    const run = copy[key];
    if (typeof run !== "function" || !Number.isSafeInteger(weight) || weight <= 0) continue;
    const program = run as SpecProgram;
    // Handlebars runs a program with these seven arguments (container, context, helpers, partials, data, block params, depths).
    copy[key] = function weighed(
      this: unknown,
      a: unknown,
      b: unknown,
      c: unknown,
      d: unknown,
      e: unknown,
      f: unknown,
      g: unknown,
    ): unknown {
      current()?.weigh(weight);
      return program.call(this, a, b, c, d, e, f, g);
    };
  }
  return copy;
}
