import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { cpuTimed } from "../gather/_timed.js";

// Issue 24, after eng43/eng44: a render's partials were a proxy that looked
// each name up again at every call (the render's own partials, then the
// engine's), through three of its traps: an empty partial call cost about
// three times what it did before (0.44-0.86 µs, was 0.13-0.17 µs: 11,111
// calls of a fan-out of partials a render). Now each name is looked up once
// a render and kept on the object Handlebars reads, emptied when the render
// returns, so a loop of partial calls costs what plain Handlebars' does.

/** `partials`, counting how often the engine asks it for a name. */
function counted(partials: Record<string, string>) {
  const asked = { count: 0 };
  const proxy = new Proxy(partials, {
    getOwnPropertyDescriptor: (target, key) => {
      asked.count++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    get: (target, key) => {
      asked.count++;
      return Reflect.get(target, key);
    },
  });
  return { asked, proxy };
}

const list = Array.from({ length: 20_000 }, (_, i) => i);

describe("hostile repository: a loop of partial calls", () => {
  it("a partial called 20,000 times in a loop is looked up a few times, not at each call", async () => {
    const { asked, proxy } = counted({ p: "{{this}}," });
    const engine = createEngine();
    const { cpuMs, value } = await cpuTimed(() =>
      engine.render(
        "{{#each l}}{{> p}}{{/each}}",
        { l: list },
        { partials: proxy, work: new PromptWork() },
      ),
    );
    expect(value.length).toBe(list.join(",").length + 1);
    // Was 4 reads a call (80,000).
    expect(asked.count).toBeLessThan(10);
    expect(cpuMs).toBeLessThan(1500);
  });

  it("a name first asked by a dynamic partial, a missing one with a fallback, and in an inline partial's block", () => {
    const engine = createEngine();
    const partials = { p: "P", q: "Q" };
    expect(
      engine.render(
        '{{> (lookup . "n")}}{{#> nope}}F{{/nope}}{{#*inline "i"}}I{{> q}}{{/inline}}{{#each l}}{{> i}}{{> p}}{{/each}}',
        { n: "q", l: [1, 2] },
        { partials },
      ),
    ).toBe("QFIQPIQP");
  });

  it("each render sees its own partials, and none after it returns", () => {
    const engine = createEngine();
    engine.registerPartial("r", "registered");
    const source = "{{> p}}/{{> r}}";
    expect(engine.render(source, {}, { partials: { p: "one" } })).toBe("one/registered");
    expect(engine.render(source, {}, { partials: { p: "two", r: "mine" } })).toBe("two/mine");
    expect(() => engine.render(source, {}, {})).toThrow('Partial "p" not found');
  });
});
