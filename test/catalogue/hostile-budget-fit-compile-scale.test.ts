import { describe, expect, it } from "vitest";
import { renderWithinBudget } from "../../src/budget/fit.js";
import { createEngine, type Engine } from "../../src/engine/index.js";
import { MAX_TEMPLATE_TAGS } from "../../src/engine/limits.js";
import { countLines, DATA, TREE, template, templates } from "../budget/_world.js";

// Review rev42d F2 (issue 24): a fit renders the prompt again and again, and
// each of its renders had a prompt's work of its own; a project section that
// called a partial of 4,990 tags and then 515 tag-less ones pushed the big
// one out of the engine's 512-template cache, and each fitting render that
// rendered the section again compiled it again: 16 s of CPU for one
// `render --max-tokens`, against 3.5 s without the 515 partials. A fit's
// renders now share what the prompt compiled (PromptCompiles): each template
// is compiled once in the whole fit.
//
// Seen from outside: between renders (when fitting counts the tokens) a
// stand-in is preloaded for the big partial; `preload` is taken only when
// the partial is not compiled, so a render that compiled it again shows the
// stand-in. (Slow tier: ~1 s.)
//
// No template calls more partials than a template may (MAX_TEMPLATE_PARTIAL_CALLS, fx94a):
// `qs` calls `qs0` and `qs1`, which call the 515 tag-less partials between them.

const BIG = `BIG${Array.from({ length: MAX_TEMPLATE_TAGS - 10 }, (_, k) => `\\{{t${k}}}`).join("")}`;
const QS = 515;
const HALF = Math.ceil(QS / 2);

/** `{{> q<from>}}` … `{{> q<to - 1>}}`. */
const calls = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `{{> q${from + i}}}`).join("");

describe("hostile repository: a section that pushes its own partial out of the engine's cache", () => {
  it("fitting's renders compile the partial once", () => {
    const base = createEngine();
    let renders = 0;
    const engine: Engine = Object.create(base);
    engine.render = (...args: Parameters<Engine["render"]>) => {
      if (args[0].startsWith("H:")) renders++;
      return base.render(...args);
    };
    const partials: Record<string, string> = {
      big: BIG,
      qs: "{{> qs0}}{{> qs1}}",
      qs0: calls(0, HALF),
      qs1: calls(HALF, QS),
    };
    for (let i = 0; i < QS; i++) partials[`q${i}`] = `q${i}.`;
    const standIn = { ...base.precompile("STAND-IN"), source: BIG };
    // Its skill list is cut step by step: it is rendered again in each of fitting's renders.
    const hostile = template("h", "H:{{> big}}{{> qs}}{{#each skills}}{{name}}\n{{/each}}", 900, {
      priority: 1,
      steps: ["skill-list"],
    });
    const out = renderWithinBudget(
      { templates: [...templates(), hostile], partials, data: DATA },
      engine,
      {
        maxTokens: 1,
        treeLines: TREE,
        countTokens: (text) => {
          // Once `big` was compiled (fitting counts other texts first).
          if (renders > 0) base.preload([standIn]);
          return countLines(text);
        },
      },
    );
    expect(renders).toBeGreaterThan(2);
    // Before: every render after the first compiled `big` again, and took the stand-in.
    expect(out.text).toContain("BIG");
    expect(out.text).not.toContain("STAND-IN");
  }, 60_000);
});
