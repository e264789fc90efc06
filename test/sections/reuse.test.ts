import { describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/index.js";
import { renderSections, SectionReuse } from "../../src/sections/render.js";
import { DATA, template } from "../budget/_world.js";

// Fitting renders the same templates and data again and again: a section whose
// patch did not change is given its earlier text, or its earlier error, with its
// work counted against the prompt's limits again. The prompt must be the one a
// render afresh makes, whatever stopped where.

/** Loops over a list of `n` items three deep: n^3 block bodies. */
const LOOP = "x{{#each list}}{{#each ../list}}{{#each ../../list}}{{/each}}{{/each}}{{/each}}x";

describe("SectionReuse", () => {
  it("gives the prompt a render afresh gives: texts, errors, and sections left out unworked", () => {
    const engine = createEngine();
    // 60^3 = 216,000 bodies: past one render's 200,000 (its own limit); the second crosses
    // the prompt's 400,000; the third is left out unworked.
    const data = { ...DATA, list: Array.from({ length: 60 }, (_, i) => i) } as typeof DATA;
    const templates = [
      template("first", "plain {{cwd}}", 1),
      template("loop1", LOOP, 2),
      template("loop2", LOOP, 3),
      template("after", "after", 4),
    ];
    const fresh = renderSections({ templates, data }, engine);
    const reuse = new SectionReuse();
    const outs = [1, 2, 3].map(() => renderSections({ templates, data, reuse }, engine));
    for (const out of outs) {
      expect(out.text).toBe(fresh.text);
      expect(out.diagnostics).toEqual(fresh.diagnostics);
      expect(out.sections.map((s) => s.name)).toEqual(fresh.sections.map((s) => s.name));
    }
    expect(fresh.diagnostics.map((d) => d.code)).toEqual([
      "template",
      "template",
      "prompt-render-work",
    ]);
    // Rendered afresh only the first time.
    expect(reuse.rendered).toBe(3);
  });

  it("renders a section again when its patch is another object", () => {
    const engine = createEngine();
    const templates = [template("a", "{{cwd}}", 1)];
    const reuse = new SectionReuse();
    renderSections({ templates, data: DATA, reuse }, engine);
    const patched = renderSections(
      { templates, data: DATA, reuse, patches: new Map([["a", { data: { cwd: "/other" } }]]) },
      engine,
    );
    expect(patched.text).toBe("/other");
    expect(reuse.rendered).toBe(2);
  });
});
