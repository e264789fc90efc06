import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderWithinBudget } from "../../src/budget/fit.js";
import type { PromptData } from "../../src/data.js";
import { createEngine, type Engine } from "../../src/engine/index.js";
import { MAX_PROMPT_TAGS } from "../../src/engine/limits.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { renderSections } from "../../src/sections/render.js";
import type { SectionTemplate } from "../../src/sections/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { templates as builtins, countLines, DATA, TREE } from "../budget/_world.js";

// Review rev41b (issue 24): a prompt may compile at most MAX_PROMPT_TAGS tags
// together, but the count started from zero in each render and a template
// already in the engine's cache was not counted again. So each render of the
// same prompt compiled two more of a trusted project's sections of ~4,800
// tags: the same prepared prompt rendered four times held 2, 4, 6, then 8 of
// them; a prompt session's turns 2, 46, 83 with nothing changed on disk; and
// each of fitting's renders compiled two more (--max-tokens 100000: 22 renders,
// 42.7 s of CPU and 1.40 GB). Every template a render uses now counts, cached
// or not, so the cache only saves time; and a template the limit refused is
// kept for reuse within a fit, not tried again in each of its renders.
// (Slow tier: the two templates each case compiles take a second.)

/** Tags of each hostile section: two fit under the prompt's total (MAX_PROMPT_TAGS), three do not. */
const TAGS = 3_400;
const COUNT = 6;

/** The hostile sections' names, in order: h0, h1, … */
const names = Array.from({ length: COUNT }, (_, i) => `h${i}`);

/** Sections of TAGS distinct tags each (a source of their own, so each is compiled). */
function hostile(order: number): SectionTemplate[] {
  return names.map((name, i) => ({
    name,
    meta: { ...defaultMeta(name), order: order + i, tag: false },
    body: `${name}: ${`{{v${i}}}`.repeat(TAGS)}`,
    bodyLine: 1,
    source: { layer: "project", path: `/p/.pi/sections/${name}.md` },
  }));
}

/** An engine that records, by section body, each render and whether its template was compiled. */
function watched(): { engine: Engine; calls: Map<string, number>; compiled: Set<string> } {
  const base = createEngine();
  const calls = new Map<string, number>();
  const compiled = new Set<string>();
  const engine: Engine = Object.create(base);
  engine.render = (...args: Parameters<Engine["render"]>) => {
    const [source] = args;
    calls.set(source, (calls.get(source) ?? 0) + 1);
    try {
      const text = base.render(...args);
      compiled.add(source);
      return text;
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("Template not compiled")) {
        compiled.add(source);
      }
      throw error;
    }
  };
  return { engine, calls, compiled };
}

const held = (sections: readonly { name: string }[]) =>
  sections.map((s) => s.name).filter((n) => names.includes(n));

describe("hostile repository: sections that together pass the prompt's compile total", () => {
  it("every render of the same input holds the same sections, and compiles nothing more", () => {
    expect(2 * TAGS).toBeLessThanOrEqual(MAX_PROMPT_TAGS);
    expect(3 * TAGS).toBeGreaterThan(MAX_PROMPT_TAGS);
    const { engine, compiled } = watched();
    const templates = hostile(5);
    const input = { data: {} as PromptData, templates };
    const first = renderSections(input, engine);
    expect(held(first.sections)).toEqual(["h0", "h1"]);
    for (let i = 0; i < 3; i++) {
      const again = renderSections(input, engine);
      // Before: h0-h3, then h0-h5: what the renders before had compiled was not counted again.
      expect(held(again.sections)).toEqual(["h0", "h1"]);
      expect(again.text).toBe(first.text);
      expect(again.diagnostics).toEqual(first.diagnostics);
    }
    expect([...compiled].length).toBe(2);
  }, 120_000);

  it("fitting's renders compile nothing the first render refused, and do not try it again", () => {
    const { engine, calls, compiled } = watched();
    const own = hostile(900);
    const templates = [...builtins(), ...own];
    const out = renderWithinBudget({ templates, data: DATA }, engine, {
      maxTokens: 1,
      treeLines: TREE,
      countTokens: countLines,
    });
    expect(out.budget.cuts.length).toBeGreaterThan(0);
    expect(held(out.sections)).toEqual(["h0", "h1"]);
    // Before: each of fitting's renders compiled two more, until all six were.
    expect([...compiled].filter((s) => own.some((t) => t.body === s))).toEqual([
      own[0]?.body,
      own[1]?.body,
    ]);
    // Refused once, and that refusal given again to each of fitting's renders (the same templates
    // counted before it). Before: tried, and compiled, again in every render.
    expect(calls.get(own[2]?.body ?? "")).toBe(1);
  }, 120_000);

  it("a prepared prompt rendered again and again gives the same bytes", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    mkdirSync(join(root, "project", ".git"), { recursive: true });
    for (const [i, name] of names.entries()) {
      writeFileSync(
        join(sections, `${name}.md`),
        `---\norder: ${900 + i}\n---\n${`{{#if cwd}}${name}-${"k".repeat(i + 1)}{{/if}}`.repeat(TAGS / 2)}\n`,
      );
    }
    const prepared = await preparePrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    const engine = createEngine();
    const first = renderPrepared(prepared, engine);
    expect(held(first.sections)).toEqual(["h0", "h1"]);
    for (let i = 0; i < 3; i++) {
      const again = renderPrepared(prepared, engine);
      // Before: 4, then 6 of them; the prompt's cached prefix drifted from turn to turn.
      expect(held(again.sections)).toEqual(["h0", "h1"]);
      expect(again.text).toBe(first.text);
    }
  }, 120_000);
});
