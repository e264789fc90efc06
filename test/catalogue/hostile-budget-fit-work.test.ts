import { describe, expect, it } from "vitest";
import { renderWithinBudget } from "../../src/budget/fit.js";
import { createEngine, type Engine } from "../../src/engine/index.js";
import type { ShrinkSpec } from "../../src/types.js";
import { countLines, DATA, TREE, template, templates } from "../budget/_world.js";

// Fitting a token budget renders the whole prompt again for each level of
// each step of each section that declares `shrink:` (a bisection each), and
// a trusted project's .pi/sysprompt.yaml may set `max-tokens`. Attack review
// 11: 1,000 one-line project sections each declaring the eight builtin steps,
// with `max-tokens: 100`, made `render --deadline 5000` take 282 s (each
// section's steps cut nothing of its own text, so each was tried, a render of
// the whole prompt each). Fitting now stops at a total of renders, section
// renders and helper calls, with a budget-fit-cut warning; its output is the
// most shrunk prompt found so far.

const EVERY_STEP: ShrinkSpec = {
  priority: 1,
  steps: [
    "skill-descriptions",
    "skill-list",
    "agents-md",
    "context-files",
    "rule-descriptions",
    "always-rules",
    "tree-lines",
    "tree-depth",
  ],
};

describe("hostile repository: many sections that each declare every shrink step", () => {
  it("fitting stops at its total, with a warning", () => {
    const base = createEngine();
    let renders = 0;
    const engine: Engine = Object.create(base);
    engine.render = (...args: Parameters<Engine["render"]>) => {
      renders++;
      return base.render(...args);
    };
    const count = 300;
    const hostile = Array.from({ length: count }, (_, i) =>
      template(`s${String(i).padStart(3, "0")}`, `section ${i} text`, 5, EVERY_STEP),
    );
    const all = [...hostile, ...templates()];
    const out = renderWithinBudget({ templates: all, data: DATA }, engine, {
      maxTokens: 1,
      treeLines: TREE,
      countTokens: countLines,
    });
    // Before: every section's steps, a whole prompt each (over 500,000 section renders).
    expect(renders).toBeLessThanOrEqual(4096 + all.length);
    const cut = out.diagnostics.find((d) => d.code === "budget-fit-cut");
    expect(cut?.level).toBe("warning");
    expect(out.budget.fits).toBe(false);
    // The error says fitting stopped, not that every step was applied (most were never tried).
    const over = out.diagnostics.find((d) => d.code === "budget-exceeded");
    expect(over?.message).not.toContain("every shrink step applied");
    expect(over?.message).toMatch(
      /^the prompt is about \d+ tokens \(o200k estimate\), over the budget of 1: fitting stopped at its work limit \(budget-fit-cut\) before every shrink step was tried; /,
    );
  });

  it("a budget no step reaches still says every step was applied", () => {
    const out = renderWithinBudget({ templates: templates(), data: DATA }, createEngine(), {
      maxTokens: 1,
      treeLines: TREE,
      countTokens: countLines,
    });
    expect(out.diagnostics.map((d) => d.code)).not.toContain("budget-fit-cut");
    const over = out.diagnostics.find((d) => d.code === "budget-exceeded");
    expect(over?.message).toContain("over the budget of 1 even with every shrink step applied");
  });
});
