import { describe, expect, it } from "vitest";
import { contains, sizeOf } from "../../helpers/index.js";
import { createEngine } from "../../src/engine/index.js";

const engine = createEngine();
const render = (source: string, data: unknown = {}) => engine.render(source, data);

describe("has / includes", () => {
  const has = '{{#has coll "bash"}}yes{{else}}no{{/has}}';

  it("finds array and Set elements, Map keys and own object keys", () => {
    expect(render(has, { coll: ["read", "bash"] })).toBe("yes");
    expect(render(has, { coll: new Set(["bash"]) })).toBe("yes");
    expect(render(has, { coll: new Map([["bash", false]]) })).toBe("yes");
    expect(render(has, { coll: { bash: undefined } })).toBe("yes");
  });

  it("is false for absent items, inherited keys and non-collections", () => {
    expect(render(has, { coll: ["read"] })).toBe("no");
    expect(render(has, { coll: new Map([["read", "bash"]]) })).toBe("no");
    expect(render(has, { coll: "bash" })).toBe("no");
    expect(render(has, { coll: null })).toBe("no");
    expect(render(has, {})).toBe("no");
    expect(render('{{#has obj "toString"}}yes{{else}}no{{/has}}', { obj: {} })).toBe("no");
    expect(render('{{#has obj "constructor"}}yes{{else}}no{{/has}}', { obj: { a: 1 } })).toBe("no");
  });

  it("works as a value in subexpressions", () => {
    const source = '{{#if (includes tools "bash")}}shell{{else}}no shell{{/if}}';
    expect(render(source, { tools: ["bash"] })).toBe("shell");
    expect(render(source, { tools: ["read"] })).toBe("no shell");
    expect(render('{{includes tools "read"}}', { tools: ["read"] })).toBe("true");
  });

  it("contains() matches the helper", () => {
    expect([
      contains([Number.NaN], Number.NaN),
      contains({ 1: "a" }, 1),
      contains([], undefined),
    ]).toEqual([true, true, false]);
  });
});

describe("len", () => {
  it("measures arrays, strings, Sets, Maps and objects", () => {
    expect(
      render("{{len a}} {{len s}} {{len set}} {{len map}} {{len obj}} {{len n}} {{len missing}}", {
        a: [1, 2, 3],
        s: "abcd",
        set: new Set([1]),
        map: new Map([
          [1, 1],
          [2, 2],
        ]),
        obj: { x: 1, y: 2 },
        n: 42,
      }),
    ).toBe("3 4 1 2 2 0 0");
    expect([sizeOf(null), sizeOf(() => 1), sizeOf(true)]).toEqual([0, 0, 0]);
  });

  it("combines with when", () => {
    expect(render('{{#when (len xs) ">" 1}}many{{/when}}', { xs: [1, 2] })).toBe("many");
  });
});
