import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev43b F2 (issue 24): a trusted project's section runs a
// block that defines an inline partial ({{#*inline}}) inside nested loops.
// Handlebars gave each run of such a block a partials frame by copying every
// partial in scope (`{ ...original, ...own }` in the engine's decorator): one
// copy of 2,000 inline partials per loop pass, 43.7 s of CPU for one
// `render --deadline 1000`, each pass counted as one call. 999 file partials
// did the same (8.1 s for 19,607 passes), and a partial block holding an
// inline partial ({{#> w}}{{#*inline "z"}}…{{/w}}) copied them in
// Handlebars' own partial call (1.3 s for 1,024 calls). Now a frame is a
// view over the partials below it, made without copying, and each inline
// partial defined again counts as a call (the 2,000 definitions at the
// section's top ran once; in the loop's body they would run at every set-up
// of the body, 2,000 a time, each set-up counted as nothing).

const filePartials = (n: number) => {
  const partials: Record<string, string> = {};
  for (let i = 0; i < n; i++) partials[`q${i}`] = `p${i}`;
  return partials;
};

const loops = (depth: number, inner: string) =>
  `${"{{#each @root.tools}}".repeat(depth)}${inner}${"{{/each}}".repeat(depth)}`;

const tools = ["a", "b", "c", "d", "e", "f", "g"];

describe("hostile repository: inline partials inside loops", () => {
  it("a block defining an inline partial, run 19,607 times beside 999 partials, copies none of them", async () => {
    const engine = createEngine();
    const source = `${loops(5, '{{#*inline "x"}}z{{/inline}}{{> x}}')}done`;
    const { cpuMs, value } = await cpuTimed(() =>
      engine.render(source, { tools }, { partials: filePartials(999), work: new PromptWork() }),
    );
    // 7^5 runs of the innermost block, each calling the partial it defines.
    expect(value).toBe(`${"z".repeat(7 ** 5)}done`);
    // Was ~8 s of CPU (a copy of 999 partials per run); now ~0.2 s.
    expect(cpuMs).toBeLessThan(1500);
  });

  it("a partial block holding an inline partial, called 5,460 times, copies none either", async () => {
    const engine = createEngine();
    const partials = { ...filePartials(999), w: "<{{> title}}{{> @partial-block}}>" };
    const source = `${loops(6, '{{#> w}}{{#*inline "title"}}T{{/inline}}b{{/w}}')}done`;
    const { cpuMs, value } = await cpuTimed(() =>
      engine.render(source, { tools: tools.slice(0, 4) }, { partials, work: new PromptWork() }),
    );
    // The partial sees the inline partial its block defines, as in Handlebars.
    expect(value).toBe(`${"<Tb>".repeat(4 ** 6)}done`);
    // Was ~4 s (Handlebars copied 1,000 partials at each call); now ~0.3 s.
    expect(cpuMs).toBeLessThan(1500);
  });

  it("each inline partial defined again counts as a call: 500 of them in a loop's body stop at the cap", async () => {
    const engine = createEngine();
    let defs = "";
    for (let i = 0; i < 500; i++) defs += `{{#*inline "i${i}"}}z{{/inline}}`;
    const source = `${loops(5, `${defs}.`)}done`;
    const { cpuMs, value } = await cpuTimed(() => {
      try {
        return engine.render(source, { tools }, { work: new PromptWork() });
      } catch (error) {
        return (error as Error).message;
      }
    });
    // Handlebars defines a body's inline partials each time a loop sets the body
    // up (once per run of the loop around it): 2,401 times 500 definitions, where
    // 19,607 passes counted 19,607 calls.
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(3000);
  });

  it("inline partials keep Handlebars' scopes: a block's own over the outer ones, for the block only", () => {
    const engine = createEngine();
    const partials = { usep: "{{> title}}", layout: "[{{> title}}|{{> @partial-block}}]" };
    expect(
      engine.render(
        '{{#*inline "title"}}A{{/inline}}{{> usep}}{{#if true}}{{#*inline "title"}}B{{/inline}}{{> usep}}{{/if}}{{> usep}}',
        {},
        { partials },
      ),
    ).toBe("ABA");
    expect(
      engine.render(
        '{{#*inline "title"}}outer{{/inline}}{{#> layout}}{{#*inline "title"}}inner{{/inline}}b{{/layout}}{{> title}}',
        {},
        { partials },
      ),
    ).toBe("[inner|b]outer");
  });
});
