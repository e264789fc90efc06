import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { MAX_RENDER_REREAD } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev45b F6 (issue 24): `{{#xml}}` trims and scans its whole
// block text, and a trusted project's partial is finished (what it leaves
// open closed) from its whole text, callees' included: each nesting level
// read the text again while output counted it once. 891 `{{#xml}}` levels
// (99 a template, chained through partials) around 7 MB held
// `render --deadline 1000` 25.6 s of CPU for some 900 counted calls; 14
// partials around 7 MB of list-marker lines 6.7 s. Now what each level reads
// again counts toward MAX_RENDER_REREAD (8 MiB since review rev46c F4), which stops it.

const MiB = 1024 * 1024;
const text = "word ".repeat((4 * MiB) / 5);
const stopped = `read their text again past ${MAX_RENDER_REREAD / MiB} MiB`;

const attempt = (source: string, partials?: Record<string, string>, finish = false, t = text) =>
  cpuTimed(() => {
    try {
      return createEngine().render(
        source,
        { t },
        {
          work: new PromptWork(),
          ...(partials ? { partials } : {}),
          ...(finish ? { partialText: (_name: string, _source: string, out: string) => out } : {}),
        },
      );
    } catch (error) {
      return (error as Error).message;
    }
  });

describe("hostile repository: blocks and partials nested around a long text", () => {
  it("99 {{#xml}} levels around 4 MiB stop at the re-read total", async () => {
    // Was rendered: 99 levels each reading 4 MiB (1.9 s of CPU).
    const { cpuMs, value } = await attempt(
      `${'{{#xml "a"}}'.repeat(99)}{{t}}${"{{/xml}}".repeat(99)}`,
    );
    expect(value).toContain(stopped);
    expect(cpuMs).toBeLessThan(2500);
  });

  it("so do 14 finished partials around 4 MiB", async () => {
    const partials: Record<string, string> = { p0: "{{t}}" };
    for (let i = 1; i <= 14; i++) partials[`p${i}`] = `{{> p${i - 1}}}`;
    const { value } = await attempt("{{> p14}}", partials, true);
    expect(value).toContain(stopped);
  });

  it("a few levels around a long text still render, and partials not finished read nothing again", async () => {
    // Three levels around 2 MiB read 6 MiB again, under the 8 MiB a render may.
    const three = await attempt(
      `{{#xml "a"}}{{#xml "b"}}{{#xml "c"}}{{t}}{{/xml}}{{/xml}}{{/xml}}`,
      undefined,
      false,
      text.slice(0, 2 * MiB),
    );
    expect(three.value).toMatch(/^<a>\n<b>\n<c>\nword /);
    const partials: Record<string, string> = { p0: "{{t}}" };
    for (let i = 1; i <= 14; i++) partials[`p${i}`] = `{{> p${i - 1}}}`;
    const plain = await attempt("{{> p14}}", partials);
    expect(plain.value).toBe(text);
  });
});
