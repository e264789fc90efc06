import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev45b F5 (issue 24): `{{len vars}}` counted one call but
// walked every key of the object it was given, and an object counted nothing
// toward what helpers are given (texts and lists did): two sections of
// 194,000 calls over a project's 1,150 vars took 11 s of CPU at the default
// deadline. Now each key `len` walks counts as a call.

const keys = 5_000;
const v = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, 1]));
const list = Array.from({ length: 30 }, (_, i) => i);

describe("hostile repository: `len` of a large object again and again", () => {
  it("counts the keys it walks as calls", async () => {
    const { cpuMs, value } = await cpuTimed(() => {
      try {
        return createEngine().render(
          "{{#each l}}{{#each ../l}}{{len @root.v}}{{/each}}{{/each}}",
          { l: list, v },
          { work: new PromptWork() },
        );
      } catch (error) {
        return (error as Error).message;
      }
    });
    // Was 900 walks of 5,000 keys, rendered; now stopped after 40.
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("a few keys still count, and render; other helpers given an object count none", () => {
    const engine = createEngine();
    const count = (source: string) => {
      const work = new PromptWork();
      const text = engine.render(source, { v: { a: 1, b: 2, c: 3 } }, { work });
      return { text, calls: work.calls };
    };
    const len = count("{{len v}}");
    const has = count("{{#has v 'a'}}yes{{/has}}");
    expect([len.text, has.text]).toEqual(["3", "yes"]);
    // Each: the render, its program's one tag, the helper call and its words; len walks 3 keys more.
    expect(len.calls).toBe(1 + 1 + 1 + 1 + 3);
    expect(has.calls).toBe(1 + 1 + 1 + 2 + 1);
  });
});
