import { describe, expect, it } from "vitest";
import type { PromptData } from "../../src/data.js";
import { createEngine, type Engine } from "../../src/engine/index.js";
import { MAX_PROMPT_CALLS, MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { renderSections } from "../../src/sections/render.js";
import type { SectionTemplate } from "../../src/sections/types.js";

// Each section's render is capped (200,000 calls, 8 MiB of text), but a
// trusted project brings up to 1,000 sections, and what one render may do
// was counted per section, a failed one not at all. Attack review 11:
// 1,000 sections of ten nested {{#each}} over the four tools (each stopped
// at its own 200,000 calls) made `render --deadline 1000` take 55 s; 50
// sections of {{len (join agentsMd appendPrompt)}} (200 names, a 900 KB
// APPEND_SYSTEM.md: one join built 180 MB before its output was counted)
// 34 s; one section of 65,536 {{#when}}s comparing the 900 KB
// APPEND_SYSTEM.md with a 900 KB literal 8 s, under every cap. Now the
// renders of one prompt share one budget (calls, text, and the characters
// and list items helpers are given), and join refuses a result over a
// render's output before building it.

function section(name: string, body: string, order = 5): SectionTemplate {
  return {
    name,
    meta: { ...defaultMeta(name), order },
    body,
    bodyLine: 1,
    source: { layer: "project", path: `/p/.pi/sections/${name}.md` },
  };
}

/** The engine, counting its renders. */
function counting(): { engine: Engine; renders: () => number } {
  const engine = createEngine();
  let renders = 0;
  const wrapped: Engine = Object.create(engine);
  wrapped.render = (...args: Parameters<Engine["render"]>) => {
    renders++;
    return engine.render(...args);
  };
  return { engine: wrapped, renders: () => renders };
}

const loops = (depth: number, inner: string) =>
  `${"{{#each @root.tools}}".repeat(depth)}${inner}${"{{/each}}".repeat(depth)}`;

describe("hostile repository: sections that each spend their whole render budget", () => {
  it("share one budget: the sections after it are left out unrendered", () => {
    const { engine, renders } = counting();
    const count = 1000;
    const templates = Array.from({ length: count }, (_, i) =>
      section(`s${String(i).padStart(4, "0")}`, loops(10, "")),
    );
    const data = { tools: ["a", "b", "c", "d"] } as unknown as PromptData;
    const out = renderSections({ data, templates }, engine);
    // Each render stops at its own cap; the prompt's cap is reached after a few.
    expect(renders()).toBeLessThanOrEqual(MAX_PROMPT_CALLS / MAX_RENDER_CALLS + 1);
    const left = out.diagnostics.find((d) => d.code === "prompt-render-work");
    expect(left?.level).toBe("error");
    expect(left?.message).toContain(`and ${count - renders() - 5} more`);
    expect(out.sections).toEqual([]);
  });

  it("a join of a long separator between many names is refused before it is built", () => {
    const agentsMd = Array.from({ length: 200 }, (_, i) => `d${i}/AGENTS.md`);
    const sep = 900 * 1024;
    const data = { agentsMd, appendPrompt: "A".repeat(sep) } as unknown as PromptData;
    const length = agentsMd.join("").length + 199 * sep;
    const templates = [section("j", "{{len (join @root.agentsMd @root.appendPrompt)}}")];
    const out = renderSections({ data, templates }, createEngine());
    const error = out.diagnostics.find((d) => d.code === "template");
    expect(error?.message).toContain(
      `Helper "join": would be ${length} characters (200 items), over the 8388608 a render may produce`,
    );
  });

  it("long texts compared again and again stop at what helpers may be given", () => {
    const n = 900 * 1024;
    const data = {
      tools: ["a", "b", "c", "d"],
      appendPrompt: `${"A".repeat(n)}B`,
    } as unknown as PromptData;
    // 4^8 = 65,536 comparisons, under the 200,000 calls a render may make.
    const body = loops(8, `{{#when @root.appendPrompt "==" "${"A".repeat(n)}C"}}x{{/when}}`);
    const started = performance.now();
    const out = renderSections({ data, templates: [section("w", body)] }, createEngine());
    const error = out.diagnostics.find((d) => d.code === "template");
    expect(error?.message).toContain("helpers were given more than 256 Mi characters");
    // Before: about 8 s (no error). Generous for a loaded machine.
    expect(performance.now() - started).toBeLessThan(4000);
  });
});
