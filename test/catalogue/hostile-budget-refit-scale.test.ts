import { describe, expect, it } from "vitest";
import { renderWithinBudget } from "../../src/budget/fit.js";
import type { PromptData } from "../../src/data.js";
import { MAX_PROMPT_CHARS } from "../../src/engine/index.js";
import { countLines, DATA, engine, TREE, template, templates, textOf } from "../budget/_world.js";

// A token budget was fitted from the first full render: a section that render
// left out for want of room (the prompt over 8 MiB, prompt-too-large) was not
// in the plan, so once the context files were cut it came back whole and was
// never shrunk. Attack review 27: a repository whose context files and rules
// together passed 8 MiB made `render --max-tokens 100000` return about
// 1,180,000 tokens (project_rules back, its always-rules step never taken).
// Such a section is now left out while the rest is fitted, then tried again
// with its own steps, and kept only when the prompt then fits.

const MIB = 1024 * 1024;
/** About `bytes` of text in lines of 100 bytes, a token a line for the test's counter. */
const lines = (tag: string, bytes: number) =>
  `${tag} line ${"x".repeat(100 - tag.length - 7)}\n`.repeat(Math.ceil(bytes / 100));

/** The builtin project_rules in miniature, after project_context, with its steps (and priority unless given). */
const rulesSection = (priority = 35) =>
  template(
    "project_rules",
    "{{#list alwaysRules join='\\n'}}## {{path}}\n{{content}}{{/list}}",
    75,
    { priority, steps: ["always-rules"] },
  );
const RULES = rulesSection();

/** `context` files of 1 MiB each and 4 always rules of `rules` MiB together: over 8 MiB in all. */
function hostileData(context: number, rules: number): PromptData {
  return {
    ...DATA,
    contextFiles: Array.from({ length: context }, (_, i) => ({
      path: `/work/${"d/".repeat(i)}AGENTS.md`,
      content: lines(`context ${i}`, MIB),
      origin: "project" as const,
    })),
    alwaysRules: [0, 1, 2, 3].map((i) => ({
      name: `r${i}`,
      source: "cursor",
      path: `/work/app/.cursor/rules/r${i}.mdc`,
      content: lines(`rule ${i}`, (rules * MIB) / 4),
      origin: "project" as const,
    })),
  };
}

const MAX = 200;

describe("hostile repository: a section left out for room comes back after the cuts", () => {
  it("the rules left out of the first render are fitted with their own steps", () => {
    const data = hostileData(5, 4);
    const out = renderWithinBudget({ templates: [...templates(), RULES], data }, engine, {
      maxTokens: MAX,
      treeLines: TREE,
      countTokens: countLines,
    });
    // Before: ~42,000 tokens (the rules back whole), fits false, the always-rules step never taken.
    expect(out.budget.initialTokens).toBeGreaterThan(50_000);
    expect(out.budget.fits).toBe(true);
    expect(out.budget.tokens).toBeLessThanOrEqual(MAX);
    expect(countLines(out.text)).toBeLessThanOrEqual(MAX);
    expect(out.text.length).toBeLessThan(MAX_PROMPT_CHARS);
    const rules = textOf(out, "project_rules") ?? "";
    expect(rules).toContain("/work/app/.cursor/rules/r0.mdc");
    expect(rules).not.toContain("rule 0 line");
    const cuts = out.budget.cuts.map((c) => `${c.section} ${c.step}`);
    expect(cuts).toContain("project_context context-files");
    expect(cuts).toContain("project_rules always-rules");
    expect(out.diagnostics.filter((d) => d.code === "budget-cut")).toHaveLength(cuts.length);
    const codes = out.diagnostics.map((d) => d.code);
    expect(codes).not.toContain("budget-exceeded");
    expect(codes).not.toContain("prompt-too-large");
    expect(codes).not.toContain("budget-left-out");
  });

  it("a section without steps that comes back is left out again, and the warning says so", () => {
    const big = template("notes", "{{#list alwaysRules join='\\n'}}{{content}}{{/list}}", 75);
    const data = hostileData(5, 4);
    const out = renderWithinBudget({ templates: [...templates(), big], data }, engine, {
      maxTokens: MAX,
      treeLines: TREE,
      countTokens: countLines,
    });
    // Before: the notes back whole after the context cut, ~42,000 tokens under a budget of 200.
    expect(out.budget.fits).toBe(true);
    expect(out.budget.tokens).toBeLessThanOrEqual(MAX);
    expect(countLines(out.text)).toBeLessThanOrEqual(MAX);
    expect(textOf(out, "notes")).toBeUndefined();
    expect(out.leftOut).toEqual(["notes"]);
    const tooLarge = out.diagnostics.find((d) => d.code === "prompt-too-large");
    expect(tooLarge?.message).toContain("left out: notes");
    const left = out.diagnostics.find((d) => d.code === "budget-left-out");
    expect(left?.level).toBe("warning");
    expect(left?.message).toMatch(
      /^section "notes", left out for want of room \(prompt-too-large\), stays out of the fitted prompt: with it the prompt is about \d+ tokens, over the budget of 200 even with every shrink step applied$/,
    );
  });

  it("when the rest is over the budget too, the section stays out and the warning says why", () => {
    const data = hostileData(5, 4);
    const out = renderWithinBudget({ templates: [...templates(), RULES], data }, engine, {
      maxTokens: 1,
      treeLines: TREE,
      countTokens: countLines,
    });
    expect(out.budget.fits).toBe(false);
    expect(textOf(out, "project_rules")).toBeUndefined();
    const codes = out.diagnostics.map((d) => d.code);
    expect(codes).toContain("prompt-too-large");
    expect(codes).toContain("budget-exceeded");
    const left = out.diagnostics.find((d) => d.code === "budget-left-out");
    expect(left?.message).toBe(
      'section "project_rules", left out for want of room (prompt-too-large), stays out of the fitted prompt: the rest of the prompt is over the budget of 1 without it',
    );
    // The error names sections without steps, not the rules, which have one.
    const over = out.diagnostics.find((d) => d.code === "budget-exceeded");
    expect(over?.message).not.toContain("project_rules");
  });

  it("a section with a higher priority comes back whole: the context is cut further", () => {
    // 7 MiB of context (~73,000 lines) and 2 MiB of rules (~21,000): fitted to 40,000
    // without the rules, the context keeps 3 files; with them back it keeps 1.
    const data = hostileData(7, 2);
    const out = renderWithinBudget(
      { templates: [...templates(), rulesSection(50)], data },
      engine,
      {
        maxTokens: 40_000,
        treeLines: TREE,
        countTokens: countLines,
      },
    );
    expect(out.budget.fits).toBe(true);
    expect(out.budget.tokens).toBeLessThanOrEqual(40_000);
    expect(textOf(out, "project_rules")).toContain("rule 3 line");
    expect(textOf(out, "project_rules")).not.toContain("left out");
    const context = textOf(out, "project_context") ?? "";
    const kept = [0, 1, 2, 3, 4, 5, 6].filter((i) => context.includes(`context ${i} line`));
    expect(kept).toHaveLength(1);
    expect(out.budget.cuts.map((c) => c.section)).not.toContain("project_rules");
    expect(out.diagnostics.map((d) => d.code)).not.toContain("budget-left-out");
  });

  it("fitting stays within its total of renders", () => {
    let renders = 0;
    const counting = Object.create(engine);
    counting.render = (...args: Parameters<typeof engine.render>) => {
      renders++;
      return engine.render(...args);
    };
    const data = hostileData(5, 4);
    const all = [...templates(), RULES];
    renderWithinBudget({ templates: all, data }, counting, {
      maxTokens: MAX,
      treeLines: TREE,
      countTokens: countLines,
    });
    // 64 renders of the prompt at most (MAX_FIT_RENDERS), each template once.
    expect(renders).toBeLessThanOrEqual(64 * all.length);
  });
});
