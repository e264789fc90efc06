import { describe, expect, it } from "vitest";
import type { PromptData } from "../../src/data.js";
import { createEngine, type Engine, MAX_PROMPT_CHARS } from "../../src/engine/index.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { renderSections } from "../../src/sections/render.js";
import type { SectionTemplate } from "../../src/sections/types.js";

// The whole prompt is capped at 8 MiB, and a section that does not fit is
// left out; but every section after it was still rendered (each up to the
// 8 MiB a section may render) and its text kept, only to be left out in
// turn. A trusted project's .pi of one 1 MiB partial and 999 sections each
// including it seven times (8 KB of files) took render 82 s and ended in
// V8's out-of-memory abort at 4 GB, and so did check and explain. What the
// render works through is now bounded too: once the sections rendered, kept
// or not, hold twice the prompt's cap (or the prompt's work is spent: here its
// 16 MiB of text read again, first), the rest are left out unrendered.

describe("hostile repository: many sections that each render megabytes", () => {
  it("are rendered no further than twice the prompt's cap", () => {
    const engine = createEngine();
    let renderedChars = 0;
    const counting: Engine = Object.create(engine);
    counting.render = (...args: Parameters<Engine["render"]>) => {
      const text = engine.render(...args);
      renderedChars += text.length;
      return text;
    };
    const count = 20;
    const templates: SectionTemplate[] = Array.from({ length: count }, (_, i) => ({
      name: `big${i}`,
      meta: { ...defaultMeta(`big${i}`), order: 900 + i },
      body: "{{> big}}",
      bodyLine: 1,
      source: { layer: "project", path: `/p/.pi/sections/big${i}.md` },
    }));
    const big = "x".repeat(7 * 1024 * 1024);
    const out = renderSections(
      // The sections read no data.
      { data: {} as PromptData, templates, partials: { big } },
      counting,
    );
    expect(out.text.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
    expect(out.sections.map((s) => s.name)).toEqual(["big0"]);
    // Every section left out is named, rendered or not. Each render's partial is read again by
    // its finishing step, and the prompt's 16 MiB of such reads is spent at the third section:
    // big1 does not fit, big2 is stopped by that count, and the rest are not rendered.
    const named = out.diagnostics.map((d) => [d.code, d.path, d.message]);
    expect(named).toContainEqual([
      "prompt-too-large",
      "/p/.pi/sections/big1.md",
      "the prompt would be over 8 MiB of text, every section together; left out: big1",
    ]);
    expect(named).toContainEqual([
      "template",
      "/p/.pi/sections/big2.md",
      expect.stringContaining("read their text again past 16 MiB"),
    ]);
    const rest = out.diagnostics.find((d) => d.code === "prompt-render-work");
    expect(rest?.message).toContain(
      `left out, not rendered: big3, big4, big5, big6, big7 and ${count - 8} more`,
    );
    expect(renderedChars).toBeLessThanOrEqual(3 * MAX_PROMPT_CHARS);
  });
});
