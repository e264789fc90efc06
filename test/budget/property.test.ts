import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { initialState, patchFor, STEPS } from "../../src/budget/steps.js";
import type { TokenCounter } from "../../src/budget/tokens.js";
import { o200kCounter } from "../../src/budget/tokens.js";
import type { PromptData } from "../../src/data.js";
import type { TreeLine } from "../../src/gather/tree/_tree-layout.js";
import { renderSections, type SectionPatch } from "../../src/sections/render.js";
import { DATA, engine, shrinkTo, templates } from "./_world.js";

/**
 * The prompt with every step of every section applied as far as it goes,
 * sections in priority order, except a step that would not make the prompt
 * shorter; built step by step here rather than by the fitting loop under test.
 */
function everyStepApplied(
  data: PromptData,
  treeLines: TreeLine[] | undefined,
  count: TokenCounter,
  repositoryOnly = false,
): string {
  const patches = new Map<string, SectionPatch>();
  const render = () => renderSections({ templates: templates(), data, patches }, engine);
  const tokens = () => {
    const { sections } = render();
    return (
      sections.reduce((n, s) => n + count(s.text), 0) +
      Math.max(0, sections.length - 1) * count("\n\n")
    );
  };
  const shrinking = templates()
    .flatMap((t) => (t.meta.shrink ? [{ name: t.name, shrink: t.meta.shrink }] : []))
    .sort((a, b) => a.shrink.priority - b.shrink.priority);
  for (const t of shrinking) {
    let state = initialState(data, treeLines);
    for (const name of t.shrink.steps) {
      const levels = repositoryOnly
        ? STEPS[name].repositoryLevels(state)
        : STEPS[name].levels(state);
      if (levels === 0) continue;
      const before = tokens();
      const next = STEPS[name].apply(state, levels);
      patches.set(t.name, patchFor(next, data));
      if (tokens() < before) state = next;
      else patches.set(t.name, patchFor(state, data));
    }
  }
  return render().text;
}

/** A folder's lines, gather-style: entries, maybe a `… K more` before the last, folders opened. */
const folder = (depth: number): fc.Arbitrary<TreeLine[]> =>
  fc
    .tuple(
      fc.array(depth < 3 ? fc.oneof(fc.constant(null), folder(depth + 1)) : fc.constant(null), {
        maxLength: 6,
      }),
      fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }),
    )
    .map(([entries, more]) => {
      const pad = "  ".repeat(depth);
      const lines: TreeLine[] = [];
      entries.forEach((sub, i) => {
        if (more !== undefined && i === entries.length - 1 && i > 0) {
          lines.push({ depth, text: `${pad}… ${more} more` });
        }
        lines.push({ depth, text: `${pad}e${i}${sub ? "/" : ".ts  1B  2026-01-01 00:00"}` });
        if (sub) lines.push(...sub);
      });
      return lines;
    });

const world = fc.record({
  tree: fc.option(folder(1), { nil: null }),
  skills: fc.array(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 8 }),
      description: fc.string({ maxLength: 80 }),
      location: fc.constant("/s/x/SKILL.md"),
      origin: fc.constantFrom("user" as const, "project" as const),
    }),
    { maxLength: 4 },
  ),
  agentsMd: fc.uniqueArray(
    fc.constantFrom(
      "a/AGENTS.md",
      "b/c/AGENTS.md",
      "d/e/f/AGENTS.md",
      "g/AGENTS.md",
      "h/i/AGENTS.md",
    ),
  ),
  contextFiles: fc.array(
    fc.record({
      path: fc.constantFrom(
        "/AGENTS.md",
        "/work/AGENTS.md",
        "/work/app/AGENTS.md",
        "/u/.pi/AGENTS.md",
      ),
      content: fc.string({ maxLength: 400 }),
      origin: fc.constantFrom("user" as const, "project" as const),
    }),
    { maxLength: 4 },
  ),
});

function dataOf(
  w: fc.Arbitrary<unknown> extends never
    ? never
    : {
        tree: TreeLine[] | null;
        skills: PromptData["skills"];
        agentsMd: string[];
        contextFiles: PromptData["contextFiles"];
      },
): { data: PromptData; treeLines?: TreeLine[] } {
  const treeLines = w.tree ? [{ depth: 0, text: "project/" }, ...w.tree] : undefined;
  return {
    data: {
      ...DATA,
      skills: w.skills,
      agentsMd: w.agentsMd,
      contextFiles: w.contextFiles,
      workspaceTree: treeLines
        ? { rendered: treeLines.map((l) => l.text).join("\n"), truncated: false }
        : null,
    },
    ...(treeLines ? { treeLines } : {}),
  };
}

function property(count: TokenCounter) {
  return fc.property(world, fc.nat({ max: 400 }), (w, n) => {
    const { data, treeLines } = dataOf(w);
    const run = (budget: number) =>
      shrinkTo(
        budget,
        { data },
        { countTokens: count, ...(treeLines ? { treeLines } : { treeLines: undefined }) },
      );
    const initial = run(Number.MAX_SAFE_INTEGER).budget.initialTokens;
    const budget = Math.round((n / 400) * (initial + 10));
    const out = run(budget);
    // Within the budget, or every step that shortens the prompt went as far as it goes on the
    // repository's text; yours is cut too only when that makes the prompt fit (rev50b F1).
    if (out.budget.tokens > budget) {
      expect(out.text).toBe(everyStepApplied(data, treeLines, count, true));
    }
    // Fitting never makes the prompt longer.
    expect(out.budget.tokens).toBeLessThanOrEqual(out.budget.initialTokens);
    expect(out.budget.fits).toBe(out.budget.tokens <= budget);
    // Deterministic: the same input gives the same prompt and the same report.
    expect(run(budget)).toEqual(out);
  });
}

describe("fitting a budget, for any budget and data", () => {
  it("with a counter of a quarter of the characters", () => {
    fc.assert(
      property((text) => Math.ceil(text.length / 4)),
      { numRuns: 200 },
    );
  });

  it("with the o200k tokenizer", () => {
    fc.assert(property(o200kCounter()), { numRuns: 40 });
  });
});
