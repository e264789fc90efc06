import { describe, expect, it } from "vitest";
import { MAX_CACHED_TEMPLATE_TAGS } from "../../src/engine/engine.js";
import { createEngine, type Engine } from "../../src/engine/index.js";
import { MAX_PROMPT_TAGS, MAX_TEMPLATE_TAGS } from "../../src/engine/limits.js";

// Review rev41b: a compiled template's code and syntax tree grow with its tags
// (some 3 MB of heap for a section of 4,800 tags), and the engine's cache was
// bounded by count (512) and source characters (32 Mi) only: a long-lived
// prompt session whose trusted project's sections changed between turns could
// keep some 300 such templates compiled. The cache now also holds at most
// MAX_CACHED_TEMPLATE_TAGS tags, oldest out first. Seen from outside: a
// template given to `preload` is taken only when it is not cached, so a
// preloaded stand-in shows whether the first template was dropped. (Slow
// tier: nine templates of 4,990 tags, escaped so they compile fast, ~0.5 s.)

/** `\{{…}}` counts as a tag and compiles to plain text: the cheapest tag to compile. */
const big = (i: number) =>
  Array.from({ length: MAX_TEMPLATE_TAGS - 10 }, (_, k) => `\\{{t${i}k${k}}}`).join("");

/** Whether `source` is still compiled in `engine`'s cache: a stand-in preloaded for it is ignored. */
function cached(engine: Engine, source: string): boolean {
  const standIn = engine.precompile("STAND-IN");
  engine.preload([{ ...standIn, source }]);
  return engine.render(source, {}) !== "STAND-IN";
}

describe("hostile repository: the template cache is bounded by tags", () => {
  it("templates past the cache's total of tags push the oldest out", () => {
    // How many templates of 4,990 tags the cache's 40,000 hold.
    const fit = Math.floor((4 * MAX_PROMPT_TAGS) / (MAX_TEMPLATE_TAGS - 10));
    expect(fit).toBe(8);

    const dropped = createEngine();
    const first = big(0);
    dropped.render(first, {});
    for (let i = 1; i <= fit; i++) dropped.render(big(i), {});
    // Before: kept (9 templates, far under 512 and 32 Mi characters).
    expect(cached(dropped, first)).toBe(false);

    const kept = createEngine();
    kept.render(first, {});
    for (let i = 1; i < fit; i++) kept.render(big(i), {});
    // Within the total: still cached.
    expect(cached(kept, first)).toBe(true);
    expect(MAX_CACHED_TEMPLATE_TAGS).toBe(4 * MAX_PROMPT_TAGS);
  }, 60_000);
});
