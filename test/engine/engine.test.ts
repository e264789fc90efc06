import Handlebars from "handlebars";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createEngine, TemplateError } from "../../src/engine/index.js";

/** The parts of a TemplateError the tests compare as one value. */
function failure(fn: () => unknown): { message: string; line?: number; column?: number } {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { message: error.message, line: error.line, column: error.column };
  }
  throw new Error("expected a TemplateError");
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("render", () => {
  it("renders without HTML escaping and empty for missing values", () => {
    const engine = createEngine();
    expect(
      engine.render("<{{a}}> & {{b.c}}|{{missing.deep}}", { a: "x<y>", b: { c: "'&'" } }),
    ).toBe("<x<y>> & '&'|");
  });

  it("concatenates adjacent numbers instead of adding them", () => {
    const engine = createEngine();
    expect(
      engine.render("{{a}}{{b}}|{{{a}}}{{{b}}}|{{#if t}}{{a}}{{b}}{{/if}}", {
        a: 1,
        b: 2,
        t: true,
      }),
    ).toBe("12|12|12");
  });

  it("never renders inserted values again", () => {
    const engine = createEngine();
    const data = {
      x: "{{y}}",
      y: "NO",
      items: ["{{y}}"],
      file: { content: "{{#if y}}{{/if}} {{> base}}" },
    };
    expect(engine.render("{{x}} {{file.content}} {{#each items}}{{this}}{{/each}}", data)).toBe(
      "{{y}} {{#if y}}{{/if}} {{> base}} {{y}}",
    );
    expect(engine.render("[{{> base}}]", data, { partials: { base: "{{x}}" } })).toBe("[{{y}}]");
    expect(engine.render('{{#xml "t"}}{{join items}}{{/xml}}', data)).toBe("<t>\n{{y}}\n</t>");
  });

  it("does not mutate the data", () => {
    const engine = createEngine();
    const data = { tools: ["read", "bash"], env: { a: 1 } };
    const copy = structuredClone(data);
    engine.render(
      '{{#list tools prefix="- "}}{{this}}{{/list}}{{#has env "a"}}{{len env}}{{/has}}',
      data,
    );
    expect(data).toEqual(copy);
  });

  it("keeps helpers isolated from the global Handlebars", () => {
    createEngine();
    expect(Object.keys(Handlebars.helpers)).not.toContain("list");
    expect(Handlebars.helpers.log).toBeTypeOf("function");
  });

  it("refuses the log builtin, which would write to the console", () => {
    expect(failure(() => createEngine().render("{{log x}}", {}))).toEqual({
      message: 'Unknown helper "log"',
      line: 1,
      column: 1,
    });
  });
});

describe("compile cache", () => {
  function spiedEngine() {
    const create = Handlebars.create.bind(Handlebars);
    const compiles: string[] = [];
    vi.spyOn(Handlebars, "create").mockImplementation(() => {
      const instance = create();
      // Every compile starts with exactly one parse of the source.
      const parse = instance.parseWithoutProcessing.bind(instance);
      instance.parseWithoutProcessing = ((input: string, options) => {
        compiles.push(input);
        return parse(input, options);
      }) as typeof instance.parseWithoutProcessing;
      return instance;
    });
    return { engine: createEngine(), compiles };
  }

  it("compiles the same source once", () => {
    const { engine, compiles } = spiedEngine();
    expect([engine.render("a{{x}}", { x: 1 }), engine.render("a{{x}}", { x: 2 })]).toEqual([
      "a1",
      "a2",
    ]);
    expect(engine.check("a{{x}}")).toBeUndefined();
    engine.render("b", {});
    expect(compiles).toEqual(["a{{x}}", "b"]);
  });

  it("compiles per-render partials once too", () => {
    const { engine, compiles } = spiedEngine();
    engine.render("{{> base}}", {}, { partials: { base: "B" } });
    engine.render("{{> base}}", {}, { partials: { base: "B" } });
    expect(compiles).toEqual(["{{> base}}", "B"]);
  });

  it("remembers a failure without compiling again", () => {
    const { engine, compiles } = spiedEngine();
    expect(engine.check("{{#if x}}")?.message).toBe('Block "if" is never closed: expected {{/if}}');
    expect(engine.check("{{#if x}}")?.line).toBe(1);
    expect(compiles).toEqual(["{{#if x}}"]);
  });

  it("recompiles after a helper or partial is registered", () => {
    const { engine, compiles } = spiedEngine();
    expect(engine.check("{{#shout}}x{{/shout}}")).toBeUndefined(); // a data section, not a helper
    expect(engine.check("{{#shout 1}}x{{/shout}}")?.message).toBe('Unknown helper "shout"');
    engine.registerHelper("shout", (_value: unknown, options: Handlebars.HelperOptions) =>
      options.fn({}).toUpperCase(),
    );
    expect(engine.check("{{#shout 1}}x{{/shout}}")).toBeUndefined();
    expect(engine.render("{{#shout 1}}x{{/shout}}", {})).toBe("X");
    engine.registerPartial("p", "P");
    expect(engine.render("{{#shout 1}}x{{/shout}}{{> p}}", {})).toBe("XP");
    expect(compiles).toEqual([
      "{{#shout}}x{{/shout}}",
      "{{#shout 1}}x{{/shout}}",
      "{{#shout 1}}x{{/shout}}",
      "{{#shout 1}}x{{/shout}}{{> p}}",
      "P",
    ]);
  });
});

describe("the runtime set-up shared by every render", () => {
  it("keeps Handlebars' prototype access rules", () => {
    const engine = createEngine();
    const source = '{{constructor}}|{{__proto__}}|{{lookup this "constructor"}}|{{x.constructor}}';
    expect(engine.render(source, { x: {} })).toBe("|||");
    expect(engine.render(source, { x: [] })).toBe("|||");
  });

  it("gives each render its own @root and data frames", () => {
    const engine = createEngine();
    const source =
      "{{#list xs}}{{#list @root.ys}}{{@../index}}{{@index}}{{@root.z}}{{/list}}{{/list}}";
    expect(engine.render(source, { xs: [1, 2], ys: [1, 2], z: "a" })).toBe("00a\n01a\n10a\n11a");
    expect(engine.render(source, { xs: [1], ys: [1], z: "b" })).toBe("00b");
  });

  it("uses a helper registered after a render in the next one", () => {
    const engine = createEngine();
    expect(engine.render("{{#if x}}y{{/if}}", { x: true })).toBe("y");
    engine.registerHelper("twice", (value: unknown) => `${value}${value}`);
    expect(engine.render("{{twice x}}", { x: "ab" })).toBe("abab");
  });
});

describe("partials", () => {
  it("uses registered partials in every render", () => {
    const engine = createEngine();
    engine.registerPartial("sig", "-- {{name}}");
    expect(engine.render("hi\n{{> sig}}", { name: "pi" })).toBe("hi\n-- pi");
  });

  it("lets a per-render partial win over a registered one, for that render only", () => {
    const engine = createEngine();
    engine.registerPartial("base", "registered");
    expect(engine.render("[{{> base}}]", {}, { partials: { base: "given {{v}}" } })).toBe(
      "[given ]",
    );
    expect(engine.render("[{{> base}}]", {})).toBe("[registered]");
  });

  it("does not leak per-render partials into the next render or other engines", () => {
    const engine = createEngine();
    const other = createEngine();
    const partials = { base: "B" };
    expect(engine.render("{{> base}}", {}, { partials })).toBe("B");
    expect(partials).toEqual({ base: "B" });
    const missing = { message: 'Partial "base" not found', line: 1, column: 1 };
    expect(failure(() => engine.render("{{> base}}", {}))).toEqual(missing);
    expect(failure(() => other.render("{{> base}}", {}))).toEqual(missing);
    expect(Handlebars.partials).toEqual({});
  });

  it("inserts a function partial's text literally", () => {
    const engine = createEngine();
    expect(engine.render("{{> base}}!", { v: 1 }, { partials: { base: () => "{{v}}" } })).toBe(
      "{{v}}!",
    );
  });

  it("supports partial blocks and inline partials", () => {
    const engine = createEngine();
    expect(engine.render("{{#> layout}}fallback{{/layout}}", {})).toBe("fallback");
    expect(
      engine.render(
        "{{#> layout}}inner{{/layout}}",
        {},
        { partials: { layout: "<{{> @partial-block}}>" } },
      ),
    ).toBe("<inner>");
    expect(engine.render('{{#*inline "p"}}in {{this}}{{/inline}}{{> p}}', "ctx")).toBe("in ctx");
  });
});

describe("TemplateError", () => {
  const engine = createEngine();

  it("points at an unclosed block where it opens", () => {
    const source = "# Rules\n\n  {{#if x}}\nbe brief\n";
    const expected = {
      message: 'Block "if" is never closed: expected {{/if}}',
      line: 3,
      column: 3,
    };
    expect(failure(() => engine.render(source, { x: true }))).toEqual(expected);
    const checked = engine.check(source);
    expect({ message: checked?.message, line: checked?.line, column: checked?.column }).toEqual(
      expected,
    );
  });

  it("ignores closed blocks and comments when finding the unclosed one", () => {
    const source = "{{#each a}}{{/each}}\n{{!-- {{#with x}} --}}\n{{#list xs}}\n{{#if y}}{{/if}}";
    expect(failure(() => engine.render(source, {}))).toEqual({
      message: 'Block "list" is never closed: expected {{/list}}',
      line: 3,
      column: 1,
    });
  });

  it("locates a bad mustache", () => {
    expect(failure(() => engine.render("intro\nsee {{#list}", {}))).toEqual({
      message:
        "found a character {{ }} does not allow; expected `}}`, `}}}`, a name or value, `)`, `as |…|`, or a path separator (`.` or `/`)",
      line: 2,
      column: 12,
    });
  });

  it("locates a builtin helper called with the wrong number of arguments, in our words", () => {
    // Handlebars' own errors had no place ("Must pass iterator to #each"), and
    // {{lookup}} threw a TypeError from inside Handlebars.
    const engine = createEngine();
    const cases: [string, string, number][] = [
      ["a\n  {{#each}}x{{/each}}", 'Helper "each": takes one argument ({{#each tools}}), got 0', 3],
      ["a\n  {{#if}}x{{/if}}", 'Helper "if": takes one argument ({{#if tools}}), got 0', 3],
      [
        "a\n  {{#unless a b}}x{{/unless}}",
        'Helper "unless": takes one argument ({{#unless tools}}), got 2',
        3,
      ],
      ["a\n  {{#with}}x{{/with}}", 'Helper "with": takes one argument ({{#with git}}), got 0', 3],
      ["a\n  {{lookup}}", 'Helper "lookup": takes 2 arguments ({{lookup vars "name"}}), got 0', 3],
      [
        "a\n  x {{lookup a}}",
        'Helper "lookup": takes 2 arguments ({{lookup vars "name"}}), got 1',
        5,
      ],
    ];
    for (const [source, message, column] of cases) {
      expect(failure(() => engine.render(source, { a: {}, b: 1 }))).toEqual({
        message,
        line: 2,
        column,
      });
    }
    // The right count still renders.
    expect(
      engine.render('{{#each a}}{{/each}}{{lookup a "k"}}{{#if b}}y{{/if}}', { a: { k: 1 }, b: 1 }),
    ).toBe("1y");
  });

  it("says a syntax error in the template's terms, never the parser's token names", () => {
    const engine = createEngine();
    const broken = [
      "{{foo.[bar}}",
      "{{{x}}",
      "{{x}}}",
      "{{!-- open",
      "{{#if a}}{{else}}{{else}}{{/if}}",
      "{{x=1}}",
      '{{"open}}',
      "{{/if}}",
      "{{else}}",
      "{{> (x) a b c}}",
      "{{#if a}}{{/each}}",
    ];
    for (const source of broken) {
      const { message, line } = failure(() => engine.render(source, { a: 1, x: "p" }));
      expect(line, source).toBe(1);
      // Handlebars' own: "Parse error", "Expecting 'CLOSE'", "got 'INVALID'", "doesn't match".
      expect(message, source).not.toMatch(
        /Parse error|Lexical error|'[A-Z_]+'|doesn't match|Unsupported/,
      );
    }
    expect(failure(() => engine.render("{{> (x) a b c}}", { x: "p" }))).toEqual({
      message: "a partial takes at most one argument, its context (key=value pairs besides), got 3",
      line: 1,
      column: 1,
    });
  });

  it("locates a mismatched closing tag", () => {
    expect(failure(() => engine.render("a\n  {{#if x}}y{{/each}}", {}))).toEqual({
      message: "{{/each}} closes the block if: expected {{/if}}",
      line: 2,
      column: 6,
    });
  });

  it("reports an unknown block helper at compile time", () => {
    const source = "ok\n\n   {{#lst tools}}{{this}}{{/lst}}";
    const expected = { message: 'Unknown helper "lst"', line: 3, column: 4 };
    const checked = engine.check(source);
    expect({ message: checked?.message, line: checked?.line, column: checked?.column }).toEqual(
      expected,
    );
    expect(failure(() => engine.render(source, { tools: [] }))).toEqual(expected);
  });

  it("locates a missing partial, also inside a block", () => {
    expect(
      failure(() => engine.render("a\n{{#if t}}\n  x {{> nope}}\n{{/if}}", { t: true })),
    ).toEqual({
      message: 'Partial "nope" not found',
      line: 3,
      column: 5,
    });
    expect(failure(() => engine.render("{{#list xs}}{{> item}}{{/list}}", { xs: [1] }))).toEqual({
      message: 'Partial "item" not found',
      line: 1,
      column: 13,
    });
  });

  it("locates a partial whose name is computed, and an unknown decorator", () => {
    expect(failure(() => engine.render('a\n {{> (lookup . "x")}}', { x: "nope" }))).toEqual({
      message: 'Partial "nope" not found',
      line: 2,
      column: 2,
    });
    expect(failure(() => engine.render("a\n{{#if t}}{{* shout}}{{/if}}", { t: true }))).toEqual({
      message: 'Unknown decorator "shout"; only "inline" exists',
      line: 2,
      column: 10,
    });
  });

  it("locates an error inside a partial at the partial call", () => {
    const error = (() => {
      try {
        engine.render(
          "top\n  {{> base}}",
          {},
          { partials: { base: "one\n{{#bogus 1}}{{/bogus}}" } },
        );
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TemplateError);
    const { message, line, column, cause } = error as TemplateError;
    expect({ message, line, column }).toEqual({
      message: 'In partial "base" (line 2, column 1): Unknown helper "bogus"',
      line: 2,
      column: 3,
    });
    expect(cause).toBeInstanceOf(TemplateError);
    expect((cause as TemplateError).line).toBe(2);
  });

  it("wraps a throwing helper with its location and keeps the cause", () => {
    const local = createEngine();
    const boom = new RangeError("too big");
    local.registerHelper("explode", () => {
      throw boom;
    });
    let caught: unknown;
    try {
      local.render("a\n b {{explode 1}}", {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TemplateError);
    const error = caught as TemplateError;
    expect([error.message, error.line, error.column, error.cause, error.name]).toEqual([
      'Helper "explode": too big',
      2,
      4,
      boom,
      "TemplateError",
    ]);
  });

  it("check returns undefined for a good template and does not throw for a bad one", () => {
    expect(
      engine.check("{{#list xs}}{{this}}{{/list}} {{#when a '==' b}}{{/when}}"),
    ).toBeUndefined();
    expect(engine.check("{{")).toBeInstanceOf(TemplateError);
  });
});
