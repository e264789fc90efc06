import { nearMatches } from "../../_suggest.js";
import type { SchemaNode } from "../../data.js";
import type { Engine } from "../../engine/index.js";
import { parseTemplate, type TemplateAst, TemplateError } from "../../engine/index.js";
import type { DiagnosticLevel } from "../../types.js";

/** What one template is checked against. */
export interface TemplateContext {
  /** Helper names a template may call. */
  helpers: ReadonlySet<string>;
  /** Partial names `{{> name}}` may use (`base` included when it exists for this template). */
  partials: ReadonlySet<string>;
  /** The data at the top level of the template. */
  root: SchemaNode;
  /** How bad a data path outside the schema is here (partials cannot know their caller's data). */
  fieldLevel: DiagnosticLevel;
  /** True for partials: `{{> @partial-block}}` is theirs to use. */
  isPartial: boolean;
  /**
   * What is left of the "did you mean" comparing, shared by the templates
   * checked together (see {@link newSuggestBudget}); a template given none
   * has a budget of its own.
   */
  suggestBudget?: SuggestBudget;
}

/** Cells of edit-distance tables (name length × candidate length) left to fill. */
export interface SuggestBudget {
  cells: number;
}

/**
 * Cells of edit-distance tables the "did you mean" hints of one check may
 * fill in all (some 10-20 ms): the candidates are every partial of every
 * layer and every inline one, for each kept message, in each template, and a
 * thousand near names of 128 characters cost 16 million cells a message.
 */
const MAX_SUGGEST_CELLS = 2_000_000;

/** A fresh budget for the "did you mean" hints of one check. */
export function newSuggestBudget(): SuggestBudget {
  return { cells: MAX_SUGGEST_CELLS };
}

/** A problem located in the template source (1-based line and column of the source given). */
export interface TemplateProblem {
  level: DiagnosticLevel;
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/** What one template's check found: the first problems, and a count of the rest. */
export interface TemplateFindings {
  /** The first `keep` problems, in the order found. */
  problems: TemplateProblem[];
  /** Problems found after those: counted, their messages never built. */
  more: number;
  /** True when one of the `more` is an error. */
  moreErrors: boolean;
}

/**
 * Parses, compiles and reads one template: a syntax error stops there;
 * otherwise every helper, partial and data path is checked, then the engine's
 * own compile runs for anything the compiler rejects that the walk does not
 * know about.
 */
export function checkTemplate(
  source: string,
  context: TemplateContext,
  engine: Engine,
): TemplateProblem[] {
  return checkTemplateKept(source, context, engine, Number.POSITIVE_INFINITY).problems;
}

/**
 * {@link checkTemplate}, keeping the first `keep` problems: the rest are only
 * counted, their messages never built. A message names what exists (partials,
 * declared vars), and a template of 5,000 tags calling an unknown partial
 * built 4,900 of them before check kept 20: 1.4 GB with 999 partial files of
 * long names, a V8 out-of-memory abort with one 900 KiB inline partial name
 * (issue 24, review rev44b F1).
 */
export function checkTemplateKept(
  source: string,
  context: TemplateContext,
  engine: Engine,
  keep: number,
): TemplateFindings {
  const found = new Findings(keep);
  let ast: TemplateAst;
  try {
    ast = parseTemplate(source);
  } catch (error) {
    found.add("error", "template-syntax", () => messageOf(error), whereOf(error));
    return found.result();
  }
  walkTemplate(ast, context, found);
  const compiled = engine.check(source);
  const alreadyReported =
    compiled?.message.startsWith("Unknown helper") && found.codes.has("unknown-helper");
  if (compiled && !alreadyReported) {
    found.add("error", "template-compile", () => compiled.message, whereOf(compiled));
  }
  return found.result();
}

/** Problems as they are found: the first `keep` built, the rest counted. */
class Findings {
  readonly problems: TemplateProblem[] = [];
  /** Every code found, kept or only counted. */
  readonly codes = new Set<string>();
  more = 0;
  moreErrors = false;

  constructor(private readonly keep: number) {}

  /** `message` is called only for a problem that is kept. */
  add(
    level: DiagnosticLevel,
    code: string,
    message: () => string,
    where: { line?: number; column?: number },
  ) {
    this.codes.add(code);
    if (this.problems.length >= this.keep) {
      this.more++;
      if (level === "error") this.moreErrors = true;
      return;
    }
    this.problems.push({
      level,
      code,
      message: message(),
      ...(where.line !== undefined ? { line: where.line } : {}),
      ...(where.column !== undefined ? { column: where.column } : {}),
    });
  }

  result(): TemplateFindings {
    return { problems: this.problems, more: this.more, moreErrors: this.moreErrors };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function whereOf(error: unknown): { line?: number; column?: number } {
  if (!(error instanceof TemplateError)) return {};
  return {
    ...(error.line !== undefined ? { line: error.line } : {}),
    ...(error.column !== undefined ? { column: error.column } : {}),
  };
}

/** Names a message lists (partials, declared vars); the rest are counted. */
export const MAX_LISTED_NAMES = 8;

/** Characters of one name in a message; a longer name is cut with "…". */
export const MAX_LISTED_NAME_LENGTH = 64;

/** A name cut to {@link MAX_LISTED_NAME_LENGTH} characters, a surrogate pair never split. */
function shortName(name: string): string {
  if (name.length <= MAX_LISTED_NAME_LENGTH) return name;
  let end = MAX_LISTED_NAME_LENGTH - 1;
  const code = name.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${name.slice(0, end)}…`;
}

/** `a, b, c` or `a, b, …, h and 12 more`: the first few of `count` names, each cut. */
function nameList(names: Iterable<string>, count: number): string {
  const listed: string[] = [];
  for (const name of names) {
    if (listed.length === MAX_LISTED_NAMES) break;
    listed.push(shortName(name));
  }
  const more = count - listed.length;
  return `${listed.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

// ---------------------------------------------------------------------------
// The walk. Scoping follows Handlebars 4 (strict off, compat off):
// - a plain name (`x`, `x.y`) is looked up on the current context only, never
//   on outer ones; `this` is the current context;
// - only blocks that change the context (`#each`, `#list`, `#with`, a section
//   block `{{#xs}}`) push a level that `../` climbs; `#if` and friends do not;
// - block params (`as |item i|`) are visible in the whole block, and win over
//   context fields for an unprefixed name;
// - `@index`, `@first`, `@last` exist inside `#each` / `#list`, `@key` inside
//   `#each`; `@root` is the top-level data.

type AstNode = hbs.AST.Node;
type Path = hbs.AST.PathExpression;

/** A value's schema where known; `node` undefined means "not known here, not checked". */
interface Shape {
  node: SchemaNode | undefined;
  /** How messages name it: `the template data`, `"workspaceTree"`, `an item of "tools"`. */
  label: string;
  /** Dotted name, for the labels of what is inside it. */
  name: string;
}

type Iteration = "each" | "list" | "section";

interface Scope {
  contexts: readonly Shape[];
  params: ReadonlyMap<string, Shape>;
  iterations: readonly Iteration[];
}

const UNKNOWN: Shape = { node: undefined, label: "", name: "" };

/** What `{{#each}}` / `{{#list}}` / `{{#with}}` pass to their block. */
const ITERATORS: ReadonlySet<string> = new Set(["each", "list"]);
const DATA_VARIABLES = ["root", "index", "first", "last", "key"];
/** Handlebars' own test for `this.x`, `./x`, `../x`: such paths never name a helper or block param. */
const SCOPED = /^\.|this\b/;

function walkTemplate(ast: TemplateAst, context: TemplateContext, found: Findings): void {
  const inlinePartials = collectInlinePartials(ast);
  const root: Shape = { node: context.root, label: "the template data", name: "" };
  const budget = context.suggestBudget ?? newSuggestBudget();

  walkProgram(ast, { contexts: [root], params: new Map(), iterations: [] });

  /** `message` is built only when the problem is kept (see {@link Findings}). */
  function report(level: DiagnosticLevel, code: string, message: () => string, at: AstNode) {
    const start = at.loc?.start;
    found.add(level, code, message, start ? { line: start.line, column: start.column + 1 } : {});
  }

  /**
   * `did you mean "x"?` for a name near one of `candidates`, or "". The
   * comparing spends the check's {@link SuggestBudget}: candidates past it
   * are not compared.
   */
  function suggestion(name: string, candidates: Iterable<string>): string {
    if (budget.cells <= 0) return "";
    function* affordable() {
      for (const candidate of candidates) {
        // nearMatches compares only names of about the same length.
        if (Math.abs(candidate.length - name.length) > 3) continue;
        budget.cells -= (name.length + 1) * (candidate.length + 1);
        if (budget.cells < 0) return;
        yield candidate;
      }
    }
    const near = nearMatches(name, affordable()).map((c) => JSON.stringify(shortName(c)));
    const last = near.pop();
    if (last === undefined) return "";
    return `did you mean ${near.length > 0 ? `${near.join(", ")} or ${last}` : last}?`;
  }

  function walkProgram(program: hbs.AST.Program | undefined, scope: Scope) {
    for (const statement of program?.body ?? []) walkStatement(statement, scope);
  }

  function walkStatement(node: AstNode, scope: Scope) {
    switch (node.type) {
      case "MustacheStatement":
        call(node as hbs.AST.MustacheStatement, scope);
        break;
      case "BlockStatement":
        block(node as hbs.AST.BlockStatement, scope);
        break;
      case "PartialStatement":
      case "PartialBlockStatement":
        partial(node as hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement, scope);
        break;
      case "DecoratorBlock":
      case "Decorator":
        decorator(node as hbs.AST.BlockStatement, scope);
        break;
      default:
      // Content and comments hold no names.
    }
  }

  function isPath(node: AstNode | undefined): node is Path {
    return node?.type === "PathExpression";
  }

  /** A single plain name such as `list`: what Handlebars may treat as a helper. */
  function simpleName(path: AstNode): string | undefined {
    if (!isPath(path) || path.data || path.depth > 0 || path.parts.length !== 1) return undefined;
    return SCOPED.test(path.original) ? undefined : path.parts[0];
  }

  function hasArguments(node: { params: unknown[]; hash?: hbs.AST.Hash }): boolean {
    return node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
  }

  /**
   * Which helper a mustache, block or subexpression calls, if any: a name with
   * arguments always calls one; a bare name does when such a helper exists.
   * A block param is never a helper.
   */
  function helperOf(
    node: { path: AstNode; params: unknown[]; hash?: hbs.AST.Hash },
    scope: Scope,
  ): string | undefined {
    const { path } = node;
    if (!isPath(path)) return undefined;
    const name = simpleName(path);
    if (name !== undefined && scope.params.has(name)) return undefined;
    if (hasArguments(node)) return path.parts[0] ?? path.original;
    return name !== undefined && context.helpers.has(name) ? name : undefined;
  }

  /**
   * Reported at the call (`{{`, `{{#` or `(`), where a render places the
   * same error, so check and render give one line and column.
   */
  function checkHelper(name: string, at: AstNode) {
    if (context.helpers.has(name)) return;
    // The helpers are the program's own: a short list, named in full.
    report(
      "error",
      "unknown-helper",
      () =>
        `unknown helper "${shortName(name)}"; the helpers are: ${[...context.helpers].join(", ")}`,
      at,
    );
  }

  /** A mustache or subexpression: a helper call (arguments checked) or a data path. */
  function call(node: hbs.AST.MustacheStatement | hbs.AST.SubExpression, scope: Scope): Shape {
    const helper = helperOf(node, scope);
    if (helper === undefined) {
      return isPath(node.path) ? resolve(node.path, scope) : UNKNOWN;
    }
    checkHelper(helper, node);
    const shapes = argumentShapes(node, scope);
    return helper === "lookup" ? lookedUp(node, shapes[0] ?? UNKNOWN) : UNKNOWN;
  }

  /**
   * `lookup x "name"` with a literal name reads a field as `x.name` does, so
   * a name `x` does not have is reported like one (`lookup this
   * "constructor"`: Handlebars reads own properties only, so it gives
   * nothing). A computed name is not checked, nor is what the lookup gives.
   */
  function lookedUp(node: hbs.AST.MustacheStatement | hbs.AST.SubExpression, owner: Shape): Shape {
    const key = node.params[1];
    if (key?.type !== "StringLiteral" && key?.type !== "NumberLiteral") return UNKNOWN;
    const part = String((key as hbs.AST.StringLiteral | hbs.AST.NumberLiteral).value);
    if (field(owner, part) === "missing") {
      report(
        context.fieldLevel,
        "unknown-field",
        () =>
          `unknown field ${JSON.stringify(shortName(part))} (looked up with lookup): ${lacks(owner, part)}`,
        key,
      );
    }
    return UNKNOWN;
  }

  function argumentShapes(
    node: { params: hbs.AST.Expression[]; hash?: hbs.AST.Hash },
    scope: Scope,
  ): Shape[] {
    const shapes = node.params.map((p) => expression(p, scope));
    for (const pair of node.hash?.pairs ?? []) expression(pair.value, scope);
    return shapes;
  }

  function expression(node: AstNode, scope: Scope): Shape {
    if (isPath(node)) return resolve(node, scope);
    if (node.type === "SubExpression") return call(node as hbs.AST.SubExpression, scope);
    return UNKNOWN;
  }

  function block(node: hbs.AST.BlockStatement, scope: Scope) {
    const helper = helperOf(node, scope);
    if (helper === undefined) {
      // `{{#xs}}…{{/xs}}` with no helper of that name: Handlebars' section
      // block iterates a list, enters an object, and keeps `this` for true.
      const shape = resolve(node.path, scope);
      const inner = shape.node?.type === "list" ? itemOf(shape) : shape;
      const entered =
        shape.node?.type === "boolean"
          ? scope
          : enter(scope, inner, node.program, shape.node?.type === "list" ? "section" : undefined);
      walkProgram(node.program, entered);
      walkProgram(node.inverse, scope);
      return;
    }
    checkHelper(helper, node);
    const [first] = argumentShapes(node, scope);
    let inner: Scope;
    if (ITERATORS.has(helper)) {
      inner = enter(scope, itemOf(first ?? UNKNOWN), node.program, helper as Iteration);
    } else if (helper === "with") {
      inner = enter(scope, first ?? UNKNOWN, node.program, undefined);
    } else {
      inner = withParams(scope, node.program, []);
    }
    walkProgram(node.program, inner);
    walkProgram(node.inverse, scope);
  }

  /** A block that changes the context to `shape`: one more level for `../`. */
  function enter(
    scope: Scope,
    shape: Shape,
    program: hbs.AST.Program | undefined,
    iteration: Iteration | undefined,
  ): Scope {
    const entered: Scope = {
      contexts: [...scope.contexts, shape],
      params: scope.params,
      iterations: iteration ? [...scope.iterations, iteration] : scope.iterations,
    };
    // `as |item index|`: the item (or the `with` value), then the position.
    return withParams(entered, program, [shape]);
  }

  function withParams(scope: Scope, program: hbs.AST.Program | undefined, shapes: Shape[]) {
    const names = program?.blockParams ?? [];
    if (names.length === 0) return scope;
    const params = new Map(scope.params);
    names.forEach((name, i) => {
      params.set(name, shapes[i] ?? UNKNOWN);
    });
    return { ...scope, params };
  }

  function itemOf(shape: Shape): Shape {
    if (shape.node?.type !== "list") return UNKNOWN;
    return { node: shape.node.items, label: `an item of "${shape.name}"`, name: `${shape.name}[]` };
  }

  function partial(node: hbs.AST.PartialStatement | hbs.AST.PartialBlockStatement, scope: Scope) {
    const { name } = node;
    if (name.type === "SubExpression") {
      call(name as hbs.AST.SubExpression, scope);
    } else if (isPath(name) && name.data) {
      if (!(context.isPartial && name.original === "@partial-block")) {
        report(
          "error",
          "unknown-partial",
          () =>
            `"${shortName(name.original)}" is only available inside a partial called as a block`,
          name,
        );
      }
    } else {
      const partialName = String((name as { original?: unknown }).original);
      const known = context.partials.has(partialName) || inlinePartials.has(partialName);
      // `{{#> name}}fallback{{/name}}` renders its fallback when the partial is missing.
      if (!known && node.type === "PartialStatement") {
        report("error", "unknown-partial", () => unknownPartial(partialName), name);
      }
    }
    argumentShapes(node, scope);
    if (node.type === "PartialBlockStatement") walkProgram(node.program, scope);
  }

  /** Names a few of the partials that exist (the layers' files, then the inline ones). */
  function unknownPartial(partialName: string): string {
    function* others() {
      yield* context.partials;
      yield* inlinePartials;
    }
    const count = context.partials.size + inlinePartials.size;
    const near = suggestion(partialName, others());
    const here =
      count > 0
        ? `the partials here are: ${nameList(others(), count)}`
        : "there are no partials here";
    const base =
      partialName === "base"
        ? " (\"base\" exists only in a section that overrides a lower layer's, or in a variant beside its layer's plain file)"
        : "";
    return `unknown partial "${shortName(partialName)}"${near ? ` (${near})` : ""}; ${here}${base}`;
  }

  function decorator(node: hbs.AST.BlockStatement, scope: Scope) {
    const name = isPath(node.path) ? node.path.original : "";
    if (name !== "inline") {
      report(
        "error",
        "unknown-helper",
        () => `unknown decorator "${shortName(name)}"; only "inline" exists`,
        node,
      );
    }
    argumentShapes(node, scope);
    walkProgram(node.program, scope);
  }

  /** Where a path leads, reporting the first part the schema does not have. */
  function resolve(path: AstNode, scope: Scope): Shape {
    if (!isPath(path)) return UNKNOWN;
    if (path.data) return dataVariable(path, scope);
    const [head] = path.parts;
    if (path.depth === 0 && !SCOPED.test(path.original) && head !== undefined) {
      const param = scope.params.get(head);
      if (param) return follow(param, path.parts.slice(1), path, scope);
    }
    const at = scope.contexts.length - 1 - path.depth;
    const base = scope.contexts[at];
    if (base === undefined) {
      report(
        context.fieldLevel,
        "unknown-field",
        () =>
          `"${shortName(path.original)}" climbs above the template data: ${climbable(scope.contexts.length - 1)}`,
        path,
      );
      return UNKNOWN;
    }
    return follow(base, path.parts, path, scope);
  }

  function dataVariable(path: Path, scope: Scope): Shape {
    const [head, ...rest] = path.parts;
    if (head === "root" && path.depth === 0) {
      return follow(scope.contexts[0] ?? UNKNOWN, rest, path, scope);
    }
    const iteration = scope.iterations[scope.iterations.length - 1 - path.depth];
    const set =
      head === "index" || head === "first" || head === "last"
        ? iteration !== undefined
        : head === "key"
          ? iteration === "each"
          : undefined;
    if (set === undefined) {
      report(
        context.fieldLevel,
        "unknown-field",
        () =>
          `unknown data variable "${shortName(path.original)}"; Handlebars sets ${DATA_VARIABLES.map((v) => `@${v}`).join(", ")}`,
        path,
      );
    } else if (!set) {
      report(
        context.fieldLevel,
        "unknown-field",
        () =>
          `"${shortName(path.original)}" is not set here: it exists only inside ${head === "key" ? "#each" : "#each or #list"}`,
        path,
      );
    } else if (rest.length > 0) {
      report(
        context.fieldLevel,
        "unknown-field",
        () => `"${shortName(path.original)}" has no fields`,
        path,
      );
    }
    return UNKNOWN;
  }

  function follow(start: Shape, parts: readonly string[], path: Path, scope: Scope): Shape {
    let current = start;
    for (const part of parts) {
      const next = field(current, part);
      if (next === "undeclared") {
        const owner = current;
        report("warning", "var-undeclared", () => undeclared(owner, part, path), path);
        return UNKNOWN;
      }
      if (next === "missing") {
        const owner = current;
        report(
          context.fieldLevel,
          "unknown-field",
          () => missingField(owner, part, path, scope),
          path,
        );
        return UNKNOWN;
      }
      if (next.node === undefined) return UNKNOWN;
      current = next;
    }
    return current;
  }

  /**
   * The field `part` of `owner`: its shape, UNKNOWN when not checked here,
   * "missing", or "undeclared" for a name an open object (`vars`) may still
   * get at render time.
   */
  function field(owner: Shape, part: string): Shape | "missing" | "undeclared" {
    const node = owner.node;
    if (node === undefined) return UNKNOWN;
    if (node.type === "object" && Object.hasOwn(node.fields, part)) {
      const name = owner.name ? `${owner.name}.${part}` : part;
      return { node: node.fields[part], label: `"${name}"`, name };
    }
    if (node.type === "object" && node.open) return "undeclared";
    if (node.type === "list" && /^\d+$/.test(part)) return itemOf(owner);
    // Own `length` of arrays and strings is readable (Handlebars allows own properties).
    if ((node.type === "list" || node.type === "string") && part === "length") return UNKNOWN;
    return "missing";
  }

  /**
   * Why `owner` has no field `part`, naming the fields it has: the schema's
   * own (an open object such as `vars`, whose names a config declares, is
   * told by {@link undeclared}), named in full.
   */
  function lacks(owner: Shape, part: string): string {
    const node = owner.node;
    const shown = shortName(part);
    return node?.type === "object"
      ? `${owner.label} has no field "${shown}" (it has: ${Object.keys(node.fields).join(", ")})`
      : `${owner.label} is ${node?.type === "list" ? "a list" : node?.type === "boolean" ? "true or false" : "a string"} and has no field "${shown}"`;
  }

  function missingField(owner: Shape, part: string, path: Path, scope: Scope): string {
    const what = lacks(owner, part);
    const root = scope.contexts[0]?.node;
    const hint =
      scope.contexts.length > 1 &&
      part === path.parts[0] &&
      path.depth === 0 &&
      !SCOPED.test(path.original) &&
      root?.type === "object" &&
      Object.hasOwn(root.fields, part)
        ? `; inside this block plain names refer to ${owner.label}, so write {{@root.${shortName(path.original)}}} for the top-level one`
        : "";
    return `unknown field "${shortName(path.original)}": ${what}${hint}`;
  }

  /**
   * Why a name of an open object is worth a warning: nothing declares it, so
   * it renders empty unless given. The declared names are the config's: a few
   * are named.
   */
  function undeclared(owner: Shape, part: string, path: Path): string {
    const fields = owner.node?.type === "object" ? Object.keys(owner.node.fields) : [];
    const near = fields.length > 0 ? suggestion(part, fields) : "";
    const declared =
      fields.length > 0
        ? `declared: ${nameList(fields, fields.length)}${near ? `; ${near}` : ""}`
        : "none is declared";
    const shown = shortName(part);
    return `"${shortName(path.original)}" is not declared (${declared}): it renders empty unless it is given; declare ${shown} under vars: in sysprompt.yaml, or pass --var ${shown}=VALUE`;
  }
}

function climbable(levels: number): string {
  if (levels === 0) return "no enclosing block here changes the context";
  return `only ${levels} enclosing block${levels === 1 ? "" : "s"} here change${levels === 1 ? "s" : ""} the context`;
}

/** Names defined with `{{#*inline "name"}}` anywhere in the template. */
function collectInlinePartials(node: unknown, found = new Set<string>()): Set<string> {
  if (node === null || typeof node !== "object") return found;
  if (Array.isArray(node)) {
    for (const child of node) collectInlinePartials(child, found);
    return found;
  }
  const record = node as Record<string, unknown>;
  if (record.type === "DecoratorBlock") {
    const path = record.path as { original?: unknown } | undefined;
    const [first] = (record.params as { type?: string; value?: unknown }[] | undefined) ?? [];
    if (path?.original === "inline" && first?.type === "StringLiteral") {
      found.add(String(first.value));
    }
  }
  for (const [key, child] of Object.entries(record)) {
    if (key !== "loc") collectInlinePartials(child, found);
  }
  return found;
}
