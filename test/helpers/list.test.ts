import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/index.js";

const engine = createEngine();
const render = (source: string, data: unknown = {}) => engine.render(source, data);

describe("list", () => {
  it("renders each item with prefix and the default newline join", () => {
    expect(render('{{#list xs prefix="- "}}{{this}}{{/list}}', { xs: ["a", "b", "c"] })).toBe(
      "- a\n- b\n- c",
    );
  });

  it("wraps with suffix and unescapes \\n and \\t in join", () => {
    expect(
      render('{{#list xs prefix="[" suffix="]" join="\\n\\t"}}{{this}}{{/list}}', { xs: [1, 2] }),
    ).toBe("[1]\n\t[2]");
    expect(render('{{#list xs join=", "}}{{this}}{{/list}}', { xs: ["a", "b"] })).toBe("a, b");
  });

  it("exposes @index, @first, @last, @root and block params", () => {
    expect(
      render("{{#list xs}}{{@index}}:{{@first}}:{{@last}}:{{@root.z}}{{/list}}", {
        xs: ["a", "b"],
        z: "Z",
      }),
    ).toBe("0:true:false:Z\n1:false:true:Z");
    expect(render("{{#list xs as |x i|}}{{i}}={{x}}{{/list}}", { xs: ["a", "b"] })).toBe(
      "0=a\n1=b",
    );
  });

  it("reaches outer data with ../", () => {
    expect(render("{{#list xs}}{{../name}}/{{this}}{{/list}}", { name: "n", xs: ["a"] })).toBe(
      "n/a",
    );
  });

  it("treats Sets and Maps as lists", () => {
    expect(render("{{#list xs}}{{this}}{{/list}}", { xs: new Set(["a", "b"]) })).toBe("a\nb");
    expect(
      render("{{#list xs}}{{this.[0]}}={{this.[1]}}{{/list}}", { xs: new Map([["k", 1]]) }),
    ).toBe("k=1");
  });

  it("skips items whose block renders empty, leaving no lone prefix", () => {
    expect(
      render('{{#list xs prefix="- "}}{{#if this.on}}{{this.name}}{{/if}}{{/list}}', {
        xs: [
          { name: "a", on: true },
          { name: "b", on: false },
          { name: "c", on: true },
        ],
      }),
    ).toBe("- a\n- c");
  });

  it("renders nothing for missing, empty, string or object values", () => {
    for (const xs of [undefined, null, [], new Set(), "abc", { a: 1 }, 3]) {
      expect(render('{{#list xs prefix="- "}}{{this}}{{/list}}', { xs })).toBe("");
    }
    expect(render('{{#list prefix="- "}}{{this}}{{/list}}')).toBe("");
  });

  it("renders the else block when nothing was rendered", () => {
    const source = "{{#list xs}}{{this}}{{else}}none{{/list}}";
    expect(render(source, {})).toBe("none");
    expect(render(source, { xs: [] })).toBe("none");
    expect(render(source, { xs: [""] })).toBe("none");
    expect(render(source, { xs: [0] })).toBe("0");
  });

  it("inserts item values literally", () => {
    expect(render("{{#list xs}}{{this}}{{/list}}", { xs: ["{{x}}", "{{> p}}"], x: "no" })).toBe(
      "{{x}}\n{{> p}}",
    );
  });

  it("does not mutate the data", () => {
    const data = Object.freeze({ xs: Object.freeze(["a", "b"]) });
    expect(render("{{#list xs}}{{this}}{{/list}}", data)).toBe("a\nb");
  });

  it("refuses to be used without a block", () => {
    expect(() => render("{{list xs}}", { xs: [1] })).toThrow(
      'Helper "list": must be used as a block: {{#list items}}…{{/list}}',
    );
  });
});
