import type Handlebars from "handlebars";
import { checkTemplateShape, findUnclosedBlock } from "./_shape.js";
import { capMessage, describePartialChain, type PartialFrame } from "./message.js";

// Locating template errors: Handlebars reports them in several shapes; these
// functions turn each into a TemplateError with a 1-based line and column.

type HandlebarsInstance = typeof Handlebars;

/**
 * A template that does not parse, uses an unknown block helper, calls a
 * missing partial, has a helper that throws or goes over a limit of
 * `limits.ts`. `line` and `column` are 1-based and relative to the template
 * source given to `render`/`check`; errors inside a partial point at the
 * `{{> name}}` call, name the partials in between (`partialChain`) and keep
 * the partial's own error as `cause`. The message is capped at
 * MAX_MESSAGE_LENGTH characters.
 */
export class TemplateError extends Error {
  line?: number;
  column?: number;
  /** What went wrong, without the chain of partials it happened in. */
  readonly reason: string;
  /** The partials the error happened in, outermost first; empty when it is in the template itself. */
  readonly partialChain: readonly PartialFrame[];

  constructor(
    reason: string,
    options: {
      line?: number;
      column?: number;
      cause?: unknown;
      partialChain?: readonly PartialFrame[];
    } = {},
  ) {
    const chain = options.partialChain ?? [];
    super(
      capMessage(describePartialChain(chain) + reason),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "TemplateError";
    this.reason = reason;
    this.partialChain = chain;
    if (options.line !== undefined) this.line = options.line;
    if (options.column !== undefined) this.column = options.column;
  }
}

/** A failure inside partial `partial`, still to be located at its call site by the caller. */
export class PartialCallError extends TemplateError {
  readonly partial: string;

  constructor(partial: string, inner: TemplateError) {
    const frame: PartialFrame = { partial };
    if (inner.line !== undefined) {
      frame.line = inner.line;
      frame.column = inner.column ?? 1;
    }
    super(inner.reason, { cause: inner, partialChain: [frame, ...inner.partialChain] });
    this.partial = partial;
  }
}

interface SourceLocation {
  start: { line: number; column: number };
}

/**
 * What an error thrown by helper `name` becomes: a TemplateError at the
 * helper's call (from its `options`). Errors from the template inside its
 * block (a TemplateError or a Handlebars exception) pass through untouched:
 * they know better where they are.
 */
export function helperErrorGuard(
  hb: HandlebarsInstance,
  name: string,
): (error: unknown, options: unknown) => unknown {
  return (error, options) => {
    if (error instanceof TemplateError || error instanceof hb.Exception) return error;
    const loc = locationOf(options);
    const reason = error instanceof Error ? error.message : String(error);
    return new TemplateError(`Helper "${name}": ${reason}`, { ...loc, cause: error });
  };
}

/** Where a helper was called, from its options (`loc` is 0-based in columns). */
export function locationOf(options: unknown): { line?: number; column?: number } {
  const loc = (options as { loc?: SourceLocation } | undefined)?.loc;
  if (typeof loc?.start?.line !== "number") return {};
  return { line: loc.start.line, column: loc.start.column + 1 };
}

/**
 * Parses template source. Limits on nesting and size (see `limits.ts`) are
 * checked first, in linear time, since Handlebars' parser is slow on exactly
 * the inputs they refuse.
 */
export function parseSource(hb: HandlebarsInstance, source: string): unknown {
  const problem = checkTemplateShape(source);
  if (problem !== undefined) {
    throw new TemplateError(problem.message, { line: problem.line, column: problem.column });
  }
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
  // The token the parser stopped at, which can lie on a later line than the
  // one Handlebars names (a mustache left open runs into the next line).
  const lexer = (hb as unknown as { Parser?: { lexer?: { yylloc?: LexerLocation } } }).Parser?.lexer
    ?.yylloc;
  const at =
    lexer !== undefined && lexer.first_line >= Number(headLine)
      ? { line: lexer.first_line, column: lexer.first_column + 1 }
      : { line: Number(headLine) };
  // The line is in `line`; in the text it would count from the template's
  // first line, which is not the file's when the template is a section body.
  const message =
    expecting !== undefined
      ? parseProblem(expecting)
      : head.startsWith("Lexical error")
        ? "cannot read the template from here: an unclosed {{!-- comment, or a character {{ }} does not allow"
        : head.replace(/ on line \d+[:.]?$/, "").replace(/ on line \d+\. /, ": ");
  return new TemplateError(message, { ...at, cause: error });
}

interface LexerLocation {
  first_line: number;
  first_column: number;
}

/** The parser's token names, as what a template author wrote or may write. */
const TOKENS: Readonly<Record<string, string>> = {
  EOF: "the end of the template",
  CLOSE: "`}}`",
  CLOSE_UNESCAPED: "`}}}`",
  CLOSE_RAW_BLOCK: "`}}}}`",
  CLOSE_SEXPR: "`)`",
  OPEN_SEXPR: "`(`",
  OPEN_BLOCK_PARAMS: "`as |…|`",
  CLOSE_BLOCK_PARAMS: "`|`",
  SEP: "a path separator (`.` or `/`)",
  EQUALS: "`=`",
  ID: "a name",
  STRING: "a string",
  NUMBER: "a number",
  BOOLEAN: "true or false",
  UNDEFINED: "undefined",
  NULL: "null",
  DATA: "an @variable",
  INVALID: "a character {{ }} does not allow",
  CONTENT: "text",
  COMMENT: "a comment",
  OPEN: "`{{`",
  OPEN_UNESCAPED: "`{{{`",
  OPEN_BLOCK: "`{{#…}}`",
  OPEN_INVERSE: "`{{^…}}`",
  OPEN_INVERSE_CHAIN: "`{{else …}}`",
  INVERSE: "`{{else}}`",
  OPEN_ENDBLOCK: "`{{/…}}`",
  OPEN_PARTIAL: "`{{>`",
  OPEN_PARTIAL_BLOCK: "`{{#>`",
  OPEN_RAW_BLOCK: "`{{{{`",
  END_RAW_BLOCK: "`{{{{/…}}}}`",
};

/** Tokens that start text or a tag: expected together, they are said as one. */
const TEMPLATE_TOKENS = new Set([
  "CONTENT",
  "COMMENT",
  "OPEN",
  "OPEN_UNESCAPED",
  "OPEN_BLOCK",
  "OPEN_INVERSE",
  "OPEN_INVERSE_CHAIN",
  "INVERSE",
  "OPEN_ENDBLOCK",
  "OPEN_PARTIAL",
  "OPEN_PARTIAL_BLOCK",
  "OPEN_RAW_BLOCK",
  "END_RAW_BLOCK",
]);
/** Tokens that are a name or a value: expected together, they are said as one. */
const VALUE_TOKENS = new Set([
  "ID",
  "STRING",
  "NUMBER",
  "BOOLEAN",
  "UNDEFINED",
  "NULL",
  "DATA",
  "OPEN_SEXPR",
]);

function token(name: string): string {
  return TOKENS[name] ?? name.toLowerCase().replaceAll("_", " ");
}

/**
 * Handlebars' `Expecting 'A', 'B', got 'C'` in our words: what was found and
 * what may stand there, the parser's token names written as template text
 * (`'CLOSE'` is `}}`), a run of value or tag tokens said once.
 */
function parseProblem(expecting: string): string {
  const names = [...expecting.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1] ?? "");
  const got = names.pop() ?? "";
  if (got === "OPEN_ENDBLOCK") return "`{{/…}}` closes no open block";
  if (got === "INVERSE" && names.every((n) => n === "EOF")) return "`{{else}}` outside a block";
  const said = new Set<string>();
  for (const name of names) {
    // A raw block's `}}}}` is worth naming only where `}}` is not also allowed.
    if (name === "CLOSE_RAW_BLOCK" && names.includes("CLOSE")) continue;
    if (VALUE_TOKENS.has(name)) said.add("a name or value");
    else if (TEMPLATE_TOKENS.has(name)) said.add("text or a tag");
    else said.add(token(name));
  }
  const list = [...said];
  const last = list.pop();
  // The comma before the last "or": the groups have an "or" of their own.
  const expected = list.length === 0 ? last : `${list.join(", ")}, or ${last}`;
  return `found ${token(got)}${expected === undefined ? "" : `; expected ${expected}`}`;
}

/** A place in a template's text. */
type Place = { line?: number; column?: number };

/** Where a template's partial calls and decorators are: what an error needs to be placed. */
export interface Places {
  partialCall(name: string): Place;
  decorator(name: string): Place;
}

/**
 * Every place {@link toTemplateError} can ask of one template, found in one
 * walk of its syntax tree: the first `{{> name}}` (or `{{#> name}}`) of each
 * name, the first call whose name is computed (`{{> (lookup . "x")}}`: a
 * name no call spells out was made by it), and the first `{{* name}}` of
 * each name. At most one entry a tag, so bounded by the template's tags.
 */
export interface PlaceMap {
  readonly calls: ReadonlyMap<string, Place>;
  readonly computed: Place;
  readonly decorators: ReadonlyMap<string, Place>;
}

/** The map of a template without partial calls or decorators (most templates). */
const NO_PLACES: PlaceMap = { calls: new Map(), computed: {}, decorators: new Map() };

/** Every place of `ast` ({@link PlaceMap}), in source order, the first of each name. */
export function placeMap(ast: unknown): PlaceMap {
  const calls = new Map<string, Place>();
  const decorators = new Map<string, Place>();
  let computed: Place = {};
  // Depth first, a node before its children (nesting is capped): the first node met is the first written.
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) if (child !== null && typeof child === "object") visit(child);
      return;
    }
    const record = node as Record<string, unknown>;
    const type = record.type;
    if (type === "PartialStatement" || type === "PartialBlockStatement") {
      const callee = record.name as { type?: unknown; original?: unknown } | undefined;
      const place = locationOf(record);
      if (place.line !== undefined) {
        const name = String(callee?.original);
        if (!calls.has(name)) calls.set(name, place);
        if (callee?.type === "SubExpression" && computed.line === undefined) computed = place;
      }
    } else if (type === "Decorator" || type === "DecoratorBlock") {
      const name = String((record.path as { original?: unknown } | undefined)?.original);
      const place = locationOf(record);
      if (place.line !== undefined && !decorators.has(name)) decorators.set(name, place);
    }
    for (const key in record) {
      if (key === "loc") continue;
      const child = record[key];
      if (child !== null && typeof child === "object") visit(child);
    }
  };
  if (ast !== null && typeof ast === "object") visit(ast);
  if (calls.size === 0 && decorators.size === 0) return NO_PLACES;
  return { calls, computed, decorators };
}

/**
 * The places of a template, from its {@link PlaceMap}: given (made from the
 * tree its compile parsed), or made by `parse` on the first question and
 * kept, never the tree (undefined: not parsed, no place; asked again). A
 * template is parsed at most once to place its errors, whatever is asked
 * of it: keeping answers one name at a time (at most 8 of them) let 16
 * sections failing on 16 missing names fill two 1 MB partials' answers,
 * and then each level of a chain between them parsed 1 MB again, 3 s of
 * CPU a section (issue 24, review rev47b F1); a kept tree of 110 KB of text
 * weighed 4.2 MB (rev45b F3).
 */
export function placesFrom(source: PlaceMap | (() => unknown)): Places {
  let map = typeof source === "function" ? undefined : source;
  const known = (): PlaceMap | undefined => {
    if (map === undefined && typeof source === "function") {
      const tree = source();
      if (tree !== undefined) map = placeMap(tree);
    }
    return map;
  };
  return {
    partialCall: (name) => {
      const found = known();
      if (found === undefined) return {};
      return found.calls.get(name) ?? found.computed;
    },
    decorator: (name) => known()?.decorators.get(name) ?? {},
  };
}

/**
 * Turns anything thrown while compiling or rendering into a located
 * TemplateError. `places`: where the template's calls are, asked only when
 * the error needs a place.
 */
export function toTemplateError(
  hb: HandlebarsInstance,
  error: unknown,
  places: Places | undefined,
): TemplateError {
  if (error instanceof PartialCallError) {
    const loc = places?.partialCall(error.partial) ?? {};
    return new TemplateError(error.reason, {
      ...loc,
      cause: error.cause,
      partialChain: error.partialChain,
    });
  }
  if (error instanceof TemplateError) return error;
  if (!(error instanceof Error) && !(error instanceof hb.Exception)) {
    return new TemplateError(String(error), { cause: error });
  }
  const message = error.message.replace(/ - \d+:\d+$/, "");
  const missing = /^The partial (.+) could not be found$/.exec(message)?.[1];
  if (missing !== undefined) {
    return new TemplateError(`Partial "${missing}" not found`, {
      ...places?.partialCall(missing),
      cause: error,
    });
  }
  const decorator = /^Missing decorator: "(.+)"$/.exec(message)?.[1];
  if (decorator !== undefined) {
    return new TemplateError(`Unknown decorator "${decorator}"; only "inline" exists`, {
      ...places?.decorator(decorator),
      cause: error,
    });
  }
  const { lineNumber, column } = error as { lineNumber?: unknown; column?: unknown };
  return new TemplateError(ourWords(message), {
    ...(typeof lineNumber === "number" ? { line: lineNumber } : {}),
    ...(typeof column === "number" ? { column: column + 1 } : {}),
    cause: error,
  });
}

/** A compile error of Handlebars' (its text after the place is cut) in our words, where we know its shape. */
function ourWords(message: string): string {
  const unknownHelper = /used the unknown helper (\S+)/.exec(message)?.[1];
  if (unknownHelper !== undefined) return `Unknown helper "${unknownHelper}"`;
  // Without `s`, `.` stops at a line break JavaScript sees (U+2028 in a block's `[name]`), and
  // `(.+)$` fails at every " doesn't match " in turn (quadratic; review rev68b F1's class). A
  // message holding one is not reworded; on one line, `s` changes nothing.
  const mismatch = /[\n\r\u2028\u2029]/.test(message)
    ? null
    : /^(.+) doesn't match (.+)$/s.exec(message);
  if (mismatch)
    return `{{/${mismatch[2]}}} closes the block ${mismatch[1]}: expected {{/${mismatch[1]}}}`;
  const partialArguments = /^Unsupported number of partial arguments: (\d+)$/.exec(message)?.[1];
  if (partialArguments !== undefined) {
    return `a partial takes at most one argument, its context (key=value pairs besides), got ${partialArguments}`;
  }
  return message;
}
