import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/index.js";
import { cpuTimed } from "../gather/_timed.js";

// Found while fixing review rev47b F1 (issue 24): every partial call looked
// its source up in the engine's maps, which are keyed by the text, and V8
// hashes a text longer than 16,383 characters by its length alone. A
// trusted project's eight 1 MB partials of one length, differing only at
// their end, made each call compare its text with the others kept, 1 MB
// each: 20,000 calls that print nothing took 5.7 s of CPU. Now a partial
// looks its text up once a prompt.

const PARTIALS = 8;
const SIZE = 1_000_000;
const CALLS = 20_000;

describe("hostile repository: partials of one length are looked up once a prompt, not at each call", () => {
  it(`${PARTIALS} partials of ${SIZE} characters, differing at their end, called ${CALLS} times`, async () => {
    const engine = createEngine();
    const body = "x".repeat(SIZE);
    for (let i = 0; i < PARTIALS; i++) {
      engine.registerPartial(`P${i}`, `{{#if z}}${body}${i}{{/if}}{{shout}}`);
    }
    engine.registerHelper("shout", () => "");
    const calls = Array.from({ length: PARTIALS }, (_, i) => `{{> P${i}}}`).join("");
    const source = `{{#each items}}${calls}{{/each}}`;
    const items = Array.from({ length: CALLS / PARTIALS }, () => 1);
    const work = new PromptWork();
    const { cpuMs, value } = await cpuTimed(() => engine.render(source, { items }, { work }));
    expect(value).toBe("");
    // The section and the eight partials, each compiled once.
    expect(work.compiles.compiled).toBe(PARTIALS + 1);
    // Before: 5.7 s (13 s with 16 such partials); after: 0.5 s.
    expect(cpuMs).toBeLessThan(2_500);

    // A helper changed in between is seen by the partials, in the same prompt too.
    engine.registerHelper("shout", () => "!");
    expect(engine.render("{{> P0}}{{> P0}}", {}, { work })).toBe("!!");
  }, 60_000);
});
