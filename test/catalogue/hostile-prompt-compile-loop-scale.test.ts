import { describe, expect, it } from "vitest";
import { createEngine, PromptWork } from "../../src/engine/index.js";
import {
  MAX_PROMPT_COMPILES,
  MAX_TEMPLATE_PARTIAL_CALLS,
  MAX_TEMPLATE_TAGS,
} from "../../src/engine/limits.js";

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
//
// No template calls more partials than a template may (MAX_TEMPLATE_PARTIAL_CALLS, fx94a):
// `qs` calls two partials, `qs0` and `qs1`, which call the 515 between them.

/** Escaped tags count as tags and compile to plain text: the cheapest tags to compile. */
const BIG = `BIG${Array.from({ length: MAX_TEMPLATE_TAGS - 10 }, (_, k) => `\\{{t${k}}}`).join("")}`;
/** More tag-less partials than the engine's cache holds (512). */
const QS = 515;
/** `qs0` calls q0..q257, `qs1` q258..q514: each under the cap on one template's partial calls. */
const HALF = Math.ceil(QS / 2);

/** `{{> q<from>}}` … `{{> q<to - 1>}}`. */
const calls = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `{{> q${from + i}}}`).join("");

function world() {
  const engine = createEngine();
  const partials: Record<string, string> = {
    big: BIG,
    qs: "{{> qs0}}{{> qs1}}",
    qs0: calls(0, HALF),
    qs1: calls(HALF, QS),
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
    // The loop's templates, each compiled once: itself, big, qs, qs0, qs1 and the 515 q's.
    expect(work.compiles.compiled).toBe(QS + 5);
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
    // 2,049 partials p<i>, called in groups g<k> of at most 500 (a template's cap on partial
    // calls): the top calls the groups, 5 of them, 2,055 templates in all.
    const groups: string[] = [];
    for (let i = 0; i <= MAX_PROMPT_COMPILES; i++) {
      partials[`p${i}`] = `${i}`;
      const g = Math.floor(i / MAX_TEMPLATE_PARTIAL_CALLS);
      partials[`g${g}`] = `${partials[`g${g}`] ?? ""}{{> p${i}}}`;
      if (groups.length === g) groups.push(`{{> g${g}}}`);
    }
    const work = new PromptWork();
    expect(() => engine.render(groups.join(""), {}, { partials, work })).toThrow(
      /Template not compiled: the prompt compiled more than 2048 templates/,
    );
    expect(work.compiles.compiled).toBe(MAX_PROMPT_COMPILES);
  }, 60_000);
});
