import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { PARTIAL_CONTEXT_KEY_COST } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev43b F3 (issue 24): a partial called with key=value pairs
// and a text as its context ({{> x content a=1}}, the text a 250 KB
// AGENTS.md). Handlebars copies such a context into a new object with the
// pairs, key by key, and a text's keys are its every character: ~130 ms a
// call, counted as one call; nested loops of them took 37 s of CPU in one
// `render --deadline 1000`, and partials passing the copy on held one copy
// of a 1 Mi-character text per level (8.1 s and 478 MB for one call). Now
// a text is given as an empty object (the partial sees the pairs, as it
// did, and {{this}} is "[object Object]" as it was), and a list's or an
// object's keys are counted, before the copy, with what helpers are given.

const loops = (depth: number, inner: string) =>
  `${"{{#each @root.tools}}".repeat(depth)}${inner}${"{{/each}}".repeat(depth)}`;

const tools = ["a", "b", "c", "d", "e", "f", "g"];

describe("hostile repository: a partial called with key=value pairs and a long context", () => {
  it("a 250 KB text as the context of 49 calls copies none of it", async () => {
    const engine = createEngine();
    const big = "word ".repeat(50 * 1024);
    const source = `${loops(2, "{{> x @root.big a=1}}")}done`;
    const { cpuMs, value } = await cpuTimed(() =>
      engine.render(
        source,
        { tools, big },
        { partials: { x: "[{{a}}{{this.length}}]" }, work: new PromptWork() },
      ),
    );
    expect(value).toBe(`${"[1]".repeat(49)}done`);
    // Was ~6 s (262,144 keys copied per call); now a few ms.
    expect(cpuMs).toBeLessThan(1000);
  });

  it("partials that pass the copy on, 15 deep, over a 1 Mi-character text", async () => {
    const engine = createEngine();
    const partials: Record<string, string> = {};
    for (let i = 0; i < 15; i++)
      partials[`n${i}`] = i + 1 < 15 ? `{{> n${i + 1} this a=1}}` : "end {{a}}";
    const { cpuMs, value } = await cpuTimed(() =>
      engine.render("{{> n0 big a=1}}", { big: "é".repeat(1024 * 1024) }, { partials }),
    );
    expect(value).toBe("end 1");
    // Was 8.1 s and 478 MB; now a few ms.
    expect(cpuMs).toBeLessThan(1000);
  });

  it("a long list as the context counts its keys: the render stops before copying millions", async () => {
    const engine = createEngine();
    const list = Array.from({ length: 300_000 }, (_, i) => i);
    const source = `${loops(3, "{{> x @root.list a=1}}")}done`;
    const { cpuMs, value } = await cpuTimed(() => {
      try {
        return engine.render(
          source,
          { tools, list },
          { partials: { x: "{{a}}" }, work: new PromptWork() },
        );
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(value).toContain("partials called with key=value pairs copied their contexts' keys");
    expect(value).toContain(`(${PARTIAL_CONTEXT_KEY_COST} a key)`);
    // 343 calls would copy 103 million keys (~6 s); the total stops it after 13.
    expect(cpuMs).toBeLessThan(1500);
  });

  it("an object as the context is kept as it is: {{> item this name=…}} works unchanged", () => {
    const engine = createEngine();
    const data = {
      tools: [
        { name: "t1", tags: ["x", "y"] },
        { name: "t2", tags: [] },
      ],
    };
    const partials = { item: "[{{name}}:{{label}}:{{#each tags}}{{this}}{{/each}}]" };
    expect(
      engine.render('{{#each tools}}{{> item this label="L"}}{{/each}}', data, { partials }),
    ).toBe("[t1:L:xy][t2:L:]");
    expect(engine.render('{{#each tools}}{{> item label="M"}}{{/each}}', data, { partials })).toBe(
      "[t1:M:xy][t2:M:]",
    );
    expect(
      engine.render("{{> list tags a=1}}", data.tools[0], {
        partials: { list: "{{#each this}}{{@key}}={{this}},{{/each}}{{a}}" },
      }),
    ).toBe("0=x,1=y,a=1,1");
  });
});
