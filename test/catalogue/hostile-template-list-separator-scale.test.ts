import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/index.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev46c F3 (issue 24): `{{#list … prefix=X}}` (and suffix=,
// join=) and `{{join list X}}` made X text at every call, printed or not. A
// list X is its items joined: a trusted project's general-rules.md of two
// 120 KB lines gives `rules` 240 KB of text, counted as the 3 items it is
// given. One section of `{{#list nothing prefix=rules}}{{/list}}` calls took
// 73 s of CPU at the 3 s deadline. Now X is made text only when the call
// prints it, once a call, and what it prints counts as its output.

const LINE = 120_000;
const TAGS = 1_000;
const CALLS = 3 * TAGS;

const data = {
  rules: ["# Rules", "a".repeat(LINE), "b".repeat(LINE)],
  one: ["only"],
  nothing: [],
};

function timedRender(tag: string) {
  const engine = createEngine();
  // A partial of 1,000 calls, called 3 times (a template holds at most 5,000 tags).
  engine.registerPartial("p", tag.repeat(TAGS));
  return cpuTimed(() => engine.render("{{> p}}{{> p}}{{> p}}", data, { work: new PromptWork() }));
}

describe("hostile repository: a list given as a list's prefix, suffix or separator", () => {
  for (const tag of [
    "{{#list nothing prefix=rules}}{{/list}}",
    "{{#list nothing suffix=rules}}{{/list}}",
    "{{#list one join=rules}}x{{/list}}",
    "{{join one rules}}",
  ]) {
    it(`${tag} ×${CALLS}: not made text when nothing of it is printed`, async () => {
      // The same calls with a one-character text where the list was: compiling and calling them.
      const baseline = await timedRender(tag.replace("rules", '"-"'));
      const { cpuMs, value } = await timedRender(tag);
      expect(value).toBe(
        tag.startsWith("{{join")
          ? "only".repeat(CALLS)
          : tag.includes("one")
            ? "x".repeat(CALLS)
            : "",
      );
      // Before: 240 KB joined at each call, 3.7-4.1 s of CPU more than the baseline here (loaded); now about as much.
      expect(cpuMs - baseline.cpuMs).toBeLessThan(700);
    }, 60_000);
  }

  it("printed, it counts as output: 1,000 calls printing the 240 KB prefix stop at the 8 MiB a render may produce", () => {
    const engine = createEngine();
    const source = "{{#list one prefix=rules}}x{{/list}}".repeat(TAGS);
    expect(() => engine.render(source, data, { work: new PromptWork() })).toThrow(
      /produced more than 8 MiB/,
    );
  });

  it("a short list as prefix and separator still prints as before", () => {
    const engine = createEngine();
    const out = engine.render("{{#list two prefix=p join=j}}{{this}}{{/list}}|{{join two j}}", {
      two: ["a", "b"],
      p: ["<", ">"],
      j: ["-"],
    });
    expect(out).toBe("<,>a-<,>b|a-b");
  });
});
