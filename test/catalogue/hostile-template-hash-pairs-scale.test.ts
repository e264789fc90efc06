import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev44d F2 (issue 24): one tag can carry thousands of
// key=value pairs, which Handlebars builds into an object at each call (and
// copies into a partial's context), and each call counted as one: a tag of
// 9,000 pairs in nested loops over the four default tools cost 38 s of CPU
// at `render --deadline 1000`; 10,000 partial calls of 9,000 pairs 76 s.
// Now each pair counts as a call, helper or partial, so the call cap stops it.

const pairs = Array.from({ length: 9000 }, (_, i) => `a${i}=1`).join(" ");
const list = Array.from({ length: 20 }, (_, i) => i);

const attempt = (tag: string) =>
  cpuTimed(() => {
    try {
      const source = `{{#each l}}{{#each ../l}}${tag}{{/each}}{{/each}}`;
      return createEngine().render(
        source,
        { l: list },
        { partials: { p: "" }, work: new PromptWork() },
      );
    } catch (error) {
      return (error as Error).message;
    }
  });

describe("hostile repository: a tag of 9,000 key=value pairs in a loop", () => {
  it("a helper's pairs count as calls: 400 calls stop at the cap", async () => {
    // Was 400 calls of ~8 ms each, 3 s, rendered.
    const { cpuMs, value } = await attempt(`{{#if 1 ${pairs}}}{{/if}}`);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("a partial call's pairs count as calls too", async () => {
    const { cpuMs, value } = await attempt(`{{> p ${pairs}}}`);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("a few pairs still render", () => {
    const engine = createEngine();
    const partials = { item: "{{name}}={{value}};" };
    expect(
      engine.render(
        '{{> item name="a" value=1}}{{#each l}}{{> item name=this value=@index}}{{/each}}',
        { l: ["x", "y"] },
        { partials, work: new PromptWork() },
      ),
    ).toBe("a=1;x=0;y=1;");
  });
});
