import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev44d F1 (issue 24): a trusted project's layout partial made
// of many `{{> @partial-block}}` runs its caller's block body once for each,
// and nothing counted those runs: not the body (no helper runs it), not the
// lambda form `{{@partial-block}}`, not the fallback body of a missing
// partial (`{{#> nope}}…{{/nope}}`). Nested partial blocks multiplied it:
// N^levels body runs for about N^(levels-1) counted calls, 65 s of CPU for
// one `render --deadline 1000` of a 220-tag project, exit 0, no diagnostic.
// Now each run of a partial block's body counts as a partial call (its
// depth too), so the call cap stops it with the usual error.

const nested = (levels: number, body: string) => {
  let source = body;
  for (let i = 0; i < levels; i++) source = `{{#> L}}${source}{{/L}}`;
  return source;
};

const attempt = (source: string, partials: Record<string, string>) =>
  cpuTimed(() => {
    try {
      return createEngine().render(source, {}, { partials, work: new PromptWork() });
    } catch (error) {
      return (error as Error).message;
    }
  });

describe("hostile repository: partial block bodies run again and again", () => {
  it("a layout of 300 {{> @partial-block}} nested three deep stops at the call cap", async () => {
    const partials = { L: "{{> @partial-block}}".repeat(300) };
    // 27,000,000 runs of a body of 20 missing-partial fallbacks, were ~90,000 calls.
    const { cpuMs, value } = await attempt(nested(3, "{{#> nope}}{{/nope}}".repeat(20)), partials);
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(value).toContain('In partial "L"');
    expect(cpuMs).toBeLessThan(5000);
  });

  it("the lambda form {{@partial-block}} counts the same", async () => {
    const partials = { L: "{{@partial-block}}".repeat(300) };
    const { cpuMs, value } = await attempt(nested(3, "x"), partials);
    // 27,000,000 runs of "x": 27 MB of text built one character at a time, uncounted.
    expect(value).toContain(`Render stopped after ${MAX_RENDER_CALLS} helper calls`);
    expect(cpuMs).toBeLessThan(5000);
  });

  it("a missing partial's fallback body counts as a call, and so does each body run", () => {
    const engine = createEngine();
    const work = new PromptWork();
    engine.render("{{#> nope}}{{/nope}}".repeat(10), {}, { work });
    // The render itself is one call, its 10 tags 10 more; each fallback one more.
    expect(work.calls).toBe(21);
    const body = new PromptWork();
    // The render and its one tag, one partial call and its 3 tags, three runs of its body.
    engine.render(
      "{{#> L}}b{{/L}}",
      {},
      { partials: { L: "{{> @partial-block}}".repeat(3) }, work: body },
    );
    expect(body.calls).toBe(9);
  });

  it("layouts still render: a body run once, twice, and inside a nested layout", () => {
    const engine = createEngine();
    const partials = {
      page: "<{{> @partial-block}}>",
      twice: "{{> @partial-block}}|{{@partial-block}}|",
    };
    expect(engine.render("{{#> page}}b{{/page}}", {}, { partials })).toBe("<b>");
    // The lambda form runs the body without a context, as Handlebars does.
    expect(engine.render("{{#> twice}}{{x}}{{/twice}}", { x: 1 }, { partials })).toBe("1||");
    expect(engine.render("{{#> page}}{{#> page}}i{{/page}}{{/page}}", {}, { partials })).toBe(
      "<<i>>",
    );
    expect(engine.render("{{#> nope}}fallback{{/nope}}", {}, { partials })).toBe("fallback");
  });
});
