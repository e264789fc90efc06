import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/index.js";
import { MAX_PROMPT_COMPILES, MAX_TEMPLATE_TAGS } from "../../src/engine/limits.js";

// Review rev42d F1 (issue 24): a prompt counts each template's tags once,
// compiled or cached (tags41), but the engine's cache holds 512 templates.
// A loop whose every pass called a partial of 4,990 tags and then 515
// tag-less partials pushed the big one out of the cache, and the next pass
// compiled it again at no further count: one plain render of a trusted
// project took 224 s of CPU. A prompt now keeps every template it used
// compiled for its life, and charges each compile still made.
//
// Seen from outside: `preload` gives a template compiled ahead of time, taken
// only when the template is not compiled (nor cached); a helper run in the
// loop after the 515 partials preloads a stand-in for the big partial, so a
// pass that compiles it again shows the stand-in. (Slow tier: ~0.5 s.)

/** Escaped tags count as tags and compile to plain text: the cheapest tags to compile. */
const BIG = `BIG${Array.from({ length: MAX_TEMPLATE_TAGS - 10 }, (_, k) => `\\{{t${k}}}`).join("")}`;
/** More tag-less partials than the engine's cache holds (512). */
const QS = 515;

function world() {
  const engine = createEngine();
  const partials: Record<string, string> = {
    big: BIG,
    qs: Array.from({ length: QS }, (_, i) => `{{> q${i}}}`).join(""),
  };
  for (let i = 0; i < QS; i++) partials[`q${i}`] = `q${i}.`;
  engine.registerHelper("swap", () => {
    // `big` is out of the cache now: from here on, compiling it takes the stand-in.
    engine.preload([{ ...standIn, source: BIG }]);
    return "";
  });
  const standIn = engine.precompile("STAND-IN");
  return { engine, partials };
}

const LOOP = "{{#each list}}{{> big}}{{> qs}}{{swap}}{{/each}}";
const list = Array.from({ length: 10 }, (_, i) => i);
const count = (text: string, word: string) => text.split(word).length - 1;

describe("hostile repository: a loop that pushes a big partial out of the engine's cache", () => {
  it("compiles it once in a prompt, whatever the cache dropped", () => {
    const { engine, partials } = world();
    const work = new PromptWork();
    const text = engine.render(LOOP, { list }, { partials, work });
    // Before: BIG once, then STAND-IN nine times: compiled again on every pass.
    expect(count(text, "STAND-IN")).toBe(0);
    expect(count(text, "BIG")).toBe(10);
    expect(count(text, "q514.")).toBe(10);
    // The loop's templates, each compiled once: itself, big, qs and the 515 q's.
    expect(work.compiles.compiled).toBe(QS + 3);
  }, 60_000);

  it("and in a render of no prompt, too", () => {
    const { engine, partials } = world();
    const text = engine.render(LOOP, { list }, { partials });
    expect(count(text, "STAND-IN")).toBe(0);
    expect(count(text, "BIG")).toBe(10);
  }, 60_000);

  it("a prompt charges every compile: past its limit, a template is not compiled", () => {
    const engine = createEngine();
    const partials: Record<string, string> = {};
    const calls: string[] = [];
    for (let i = 0; i <= MAX_PROMPT_COMPILES; i++) {
      partials[`p${i}`] = `${i}`;
      calls.push(`{{> p${i}}}`);
    }
    const work = new PromptWork();
    expect(() => engine.render(calls.join(""), {}, { partials, work })).toThrow(
      /Template not compiled: the prompt compiled more than 2048 templates/,
    );
    expect(work.compiles.compiled).toBe(MAX_PROMPT_COMPILES);
  }, 60_000);
});
