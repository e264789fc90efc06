import { describe, expect, it } from "vitest";
import { isTruthy } from "../../helpers/index.js";
import { createEngine, TemplateError } from "../../src/engine/index.js";

const engine = createEngine();
const render = (source: string, data: unknown = {}) => engine.render(source, data);

describe("isTruthy", () => {
  it("counts empty collections and the JS falsy values as false", () => {
    const falsy = [false, null, undefined, "", 0, -0, Number.NaN, [], new Set(), new Map()];
    expect(falsy.map(isTruthy)).toEqual(falsy.map(() => false));
    const truthy = [true, "x", 1, [0], new Set([1]), new Map([[1, 1]]), {}];
    expect(truthy.map(isTruthy)).toEqual(truthy.map(() => true));
  });
});

describe("ifAny / ifAll", () => {
  const any = "{{#ifAny a b}}yes{{else}}no{{/ifAny}}";
  const all = "{{#ifAll a b}}yes{{else}}no{{/ifAll}}";

  it("ifAny is true when one argument is truthy", () => {
    expect(render(any, { a: [], b: "x" })).toBe("yes");
    expect(render(any, { a: [], b: "" })).toBe("no");
    expect(render(any, { a: 0, b: Number.NaN })).toBe("no");
    expect(render(any, {})).toBe("no");
  });

  it("ifAll is true only when every argument is truthy", () => {
    expect(render(all, { a: ["x"], b: 1 })).toBe("yes");
    expect(render(all, { a: ["x"], b: [] })).toBe("no");
    expect(render(all, { a: new Set([1]), b: new Map() })).toBe("no");
  });

  it("renders nothing without an else block", () => {
    expect(render("{{#ifAny a}}yes{{/ifAny}}", { a: null })).toBe("");
  });

  it("gives a boolean when used as a subexpression", () => {
    expect(render("{{#if (ifAll a b)}}both{{/if}}", { a: 1, b: 2 })).toBe("both");
  });
});

describe("when", () => {
  const cases: [unknown, string, unknown, boolean][] = [
    [1, "==", 1, true],
    [1, "==", "1", false],
    [null, "==", undefined, false],
    ["a", "!=", "b", true],
    [1, "!=", "1", true],
    [1, "<", 2, true],
    [2, "<=", 2, true],
    [3, ">", 2, true],
    [2, ">=", 3, false],
    ["a", "<", "b", true],
    ["10", "<", 9, false],
    [null, "<", 1, false],
  ];
  it.each(cases)("%j %s %j is %s", (a, op, b, expected) => {
    expect(render("{{#when a op b}}T{{else}}F{{/when}}", { a, op, b })).toBe(expected ? "T" : "F");
  });

  it("takes literal operators in the template", () => {
    expect(render('{{#when n ">" 1}}many{{else}}one{{/when}}', { n: 2 })).toBe("many");
  });

  it("rejects an unknown operator with its location", () => {
    const error = catchError(() => render('x\n  {{#when 1 "===" 1}}T{{/when}}'));
    expect(error).toBeInstanceOf(TemplateError);
    expect({ message: error.message, line: error.line, column: error.column }).toEqual({
      message: 'Helper "when": unknown operator "==="; use one of == != < <= > >=',
      line: 2,
      column: 3,
    });
  });

  it("needs three arguments", () => {
    expect(() => render("{{#when 1 2}}T{{/when}}")).toThrow(
      'Helper "when": takes three arguments ({{#when a "==" b}}), got 2',
    );
  });
});

describe("not", () => {
  it("negates template truthiness", () => {
    expect(render("{{not a}} {{not b}} {{not c}} {{not d}}", { a: [], b: "x", c: 0 })).toBe(
      "true false true true",
    );
    expect(render("{{#if (not tools)}}no tools{{/if}}", { tools: [] })).toBe("no tools");
  });
});

function catchError(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
  throw new Error("expected a TemplateError");
}
