import { describe, expect, it } from "vitest";
import type { PromptData } from "../../src/data.js";
import { createEngine, PromptWork } from "../../src/engine/engine.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { renderSections } from "../../src/sections/render.js";
import type { SectionTemplate } from "../../src/sections/types.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev43b F1 (issue 24): a trusted project of 999 tiny sections
// and 999 tiny partials (94 KB of text, under every cap and total). Each
// section's render made a function for every partial of the prompt, a
// million per prompt: 3.5 s of CPU for `render --deadline 1100`, 1.6-3.8 s
// per turn of a session and 837 MB peaks of garbage. Now each partial's
// function is made once, and a render looks its partials up without
// building an object of them.

function section(name: string, body: string): SectionTemplate {
  return {
    name,
    meta: { ...defaultMeta(name), order: 5 },
    body,
    bodyLine: 1,
    source: { layer: "project", path: `/p/.pi/sections/${name}.md` },
  };
}

describe("hostile repository: many sections times many partials", () => {
  it("999 sections calling 4 of 999 partials render without a function per partial per section", async () => {
    const partials: Record<string, string> = {};
    for (let i = 0; i < 999; i++) partials[`p${i}`] = "{{#if agentName}}y{{/if}}";
    const templates = Array.from({ length: 999 }, (_, i) =>
      section(`s${String(i).padStart(4, "0")}`, `{{> p${i}}}{{> p1}}{{> p2}}{{> p3}}`),
    );
    const data = { agentName: "pi" } as unknown as PromptData;
    const engine = createEngine();
    // Twice to compile and warm up, then measured.
    for (let i = 0; i < 2; i++)
      renderSections({ data, templates, partials, work: new PromptWork() }, engine);
    const { cpuMs, value } = await cpuTimed(() =>
      renderSections({ data, templates, partials, work: new PromptWork() }, engine),
    );
    expect(value.diagnostics).toEqual([]);
    expect(value.sections).toHaveLength(999);
    expect(value.sections.every((s) => s.text === `<${s.name}>\nyyyy\n</${s.name}>`)).toBe(true);
    // Was 1.4-2.5 s (a million functions and their garbage); now 0.2-0.3 s.
    expect(cpuMs).toBeLessThan(700);
  });
});
