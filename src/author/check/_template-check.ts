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
}

/** A problem located in the template source (1-based line and column of the source given). */
export interface TemplateProblem {
  level: DiagnosticLevel;
  code: string;
  message: string;
  line?: number;
  column?: number;
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
  let ast: TemplateAst;
  try {
    ast = parseTemplate(source);
  } catch (error) {
    return [located("error", "template-syntax", error)];
  }
  const problems = walkTemplate(ast, context);
  const compiled = engine.check(source);
  const alreadyReported =
    compiled?.message.startsWith("Unknown helper") &&
    problems.some((p) => p.code === "unknown-helper");
  if (compiled && !alreadyReported) problems.push(located("error", "template-compile", compiled));
  return problems;
}

function located(level: DiagnosticLevel, code: string, error: unknown): TemplateProblem {
  const where = error instanceof TemplateError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return {
    level,
    code,
    message,
    ...(where?.line !== undefined ? { line: where.line } : {}),
    ...(where?.column !== undefined ? { column: where.column } : {}),
  };
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

function walkTemplate(ast: TemplateAst, context: TemplateContext): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const inlinePartials = collectInlinePartials(ast);
  const root: Shape = { node: context.root, label: "the template data", name: "" };

  walkProgram(ast, { contexts: [root], params: new Map(), iterations: [] });
  return problems;

  function report(level: DiagnosticLevel, code: string, message: string, at: AstNode) {
    const start = at.loc?.start;
    problems.push({
      level,
      code,
      message,
      ...(start ? { line: start.line, column: start.column + 1 } : {}),
    });
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
    report(
      "error",
      "unknown-helper",
      `unknown helper "${name}"; the helpers are: ${[...context.helpers].join(", ")}`,
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
        `unknown field ${JSON.stringify(part)} (looked up with lookup): ${lacks(owner, part)}`,
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
          `"${name.original}" is only available inside a partial called as a block`,
          name,
        );
      }
    } else {
      const partialName = String((name as { original?: unknown }).original);
      const known = context.partials.has(partialName) || inlinePartials.has(partialName);
      // `{{#> name}}fallback{{/name}}` renders its fallback when the partial is missing.
      if (!known && node.type === "PartialStatement") {
        const others = [...context.partials, ...inlinePartials];
        report(
          "error",
          "unknown-partial",
          `unknown partial "${partialName}"; ${others.length ? `the partials here are: ${others.join(", ")}` : "there are no partials here"}${partialName === "base" ? " (\"base\" exists only in a section that overrides a lower layer's, or in a variant beside its layer's plain file)" : ""}`,
          name,
        );
      }
    }
    argumentShapes(node, scope);
    if (node.type === "PartialBlockStatement") walkProgram(node.program, scope);
  }

  function decorator(node: hbs.AST.BlockStatement, scope: Scope) {
    const name = isPath(node.path) ? node.path.original : "";
    if (name !== "inline") {
      report("error", "unknown-helper", `unknown decorator "${name}"; only "inline" exists`, node);
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
        `"${path.original}" climbs above the template data: ${climbable(scope.contexts.length - 1)}`,
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
        `unknown data variable "${path.original}"; Handlebars sets ${DATA_VARIABLES.map((v) => `@${v}`).join(", ")}`,
        path,
      );
    } else if (!set) {
      report(
        context.fieldLevel,
        "unknown-field",
        `"${path.original}" is not set here: it exists only inside ${head === "key" ? "#each" : "#each or #list"}`,
        path,
      );
    } else if (rest.length > 0) {
      report(context.fieldLevel, "unknown-field", `"${path.original}" has no fields`, path);
    }
    return UNKNOWN;
  }

  function follow(start: Shape, parts: readonly string[], path: Path, scope: Scope): Shape {
    let current = start;
    for (const part of parts) {
      const next = field(current, part);
      if (next === "undeclared") {
        report("warning", "var-undeclared", undeclared(current, part, path), path);
        return UNKNOWN;
      }
      if (next === "missing") {
        report(context.fieldLevel, "unknown-field", missingField(current, part, path, scope), path);
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

  /** Why `owner` has no field `part`, naming the fields it has. */
  function lacks(owner: Shape, part: string): string {
    const node = owner.node;
    return node?.type === "object"
      ? `${owner.label} has no field "${part}" (it has: ${Object.keys(node.fields).join(", ")})`
      : `${owner.label} is ${node?.type === "list" ? "a list" : node?.type === "boolean" ? "true or false" : "a string"} and has no field "${part}"`;
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
        ? `; inside this block plain names refer to ${owner.label}, so write {{@root.${path.original}}} for the top-level one`
        : "";
    return `unknown field "${path.original}": ${what}${hint}`;
  }
}

/** Why a name of an open object is worth a warning: nothing declares it, so it renders empty unless given. */
function undeclared(owner: Shape, part: string, path: Path): string {
  const fields = owner.node?.type === "object" ? Object.keys(owner.node.fields) : [];
  const declared = fields.length > 0 ? `declared: ${fields.join(", ")}` : "none is declared";
  return `"${path.original}" is not declared (${declared}): it renders empty unless it is given; declare ${part} under vars: in sysprompt.yaml, or pass --var ${part}=VALUE`;
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
