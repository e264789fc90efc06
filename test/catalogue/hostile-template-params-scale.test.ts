import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev45b F2 (issue 24): a helper's positional parameters were
// never counted (its key=value pairs were, since rev44d F2), nor an
// `{{#*inline}}` decorator's parameters and pairs: Handlebars looks each one
// up and builds them at each call, and one tag can hold ~19,000 of them, so
// one counted call was ~4.7 ms of work: 10,000 calls of `{{ifAny z z …}}`
// held a default render 58 s. Now each parameter counts as a call too.

const params = "z ".repeat(9000);
const pairs = Array.from({ length: 9000 }, (_, i) => `a${i}=z`).join(" ");
const list = Array.from({ length: 20 }, (_, i) => i);

/** `tag` run 400 times: in a partial called in two nested loops of 20. */
const attempt = (tag: string) =>
  cpuTimed(() => {
    try {
      return createEngine().render(
        "{{#each l}}{{#each ../l}}{{> p}}{{/each}}{{/each}}",
        { l: list },
        { partials: { p: tag }, work: new PromptWork() },
      );
    } catch (error) {
      return (error as Error).message;
    }
  });

describe("hostile repository: a tag of 9,000 parameters run 400 times", () => {
  it("a helper's parameters count as calls", async () => {
    // Was 400 calls of ~2-5 ms each, rendered "false" 400 times.
    const { cpuMs, value } = await attempt(`{{ifAny ${params}}}`);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("so do a subexpression's", async () => {
    const { cpuMs, value } = await attempt(`{{#if (ifAll ${params})}}{{/if}}`);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("an inline partial's parameters count as calls", async () => {
    const { cpuMs, value } = await attempt(`{{#*inline "x" ${params}}}{{/inline}}`);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("and its key=value pairs", async () => {
    const { cpuMs, value } = await attempt(`{{#*inline "x" ${pairs}}}{{/inline}}`);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("a few parameters still render", () => {
    const engine = createEngine();
    expect(
      engine.render(
        '{{#*inline "x"}}[{{this}}]{{/inline}}{{#each l}}{{ifAny 0 this}}{{> x}}{{/each}}',
        { l: ["a", ""] },
        { work: new PromptWork() },
      ),
    ).toBe("true[a]false[]");
  });
});
