import { describe, expect, it } from "vitest";
import type { PromptData } from "../../src/data.js";
import { createEngine } from "../../src/engine/index.js";
import { MAX_PROMPT_TAGS, MAX_TEMPLATE_TAGS } from "../../src/engine/limits.js";
import { defaultMeta } from "../../src/sections/meta.js";
import { renderSections } from "../../src/sections/render.js";
import type { SectionTemplate } from "../../src/sections/types.js";
import type { Layer } from "../../src/types.js";

// Review rev42d F3 (issue 24): the prompt's templates may hold 10,000 tags
// together (MAX_PROMPT_TAGS), counted in the order the sections render. A
// trusted project's two sections of 5,000 tags at order 1 and 2 spent them,
// and the builtin preamble and every section after it (your AGENTS.md, your
// --append-system-prompt, your own sections) were "Template not compiled".
// The total now counts the project's templates only: your own and the
// builtin ones keep their per-template caps, and a project cannot spend
// their room. (Slow tier: two sections of 4,990 tags, ~0.5 s.)

const TAGS = MAX_TEMPLATE_TAGS - 10;

function section(name: string, body: string, order: number, layer: Layer): SectionTemplate {
  return {
    name,
    meta: { ...defaultMeta(name), order, tag: false },
    body,
    bodyLine: 1,
    source: { layer, path: `/${layer}/sections/${name}.md` },
  };
}

/** `\{{…}}` counts as a tag and compiles to plain text: the cheapest tags to compile. */
const tags = (n: number, mark: string) => `${mark}${`\\{{${mark}}}`.repeat(n)}`;

describe("hostile repository: project templates that spend the prompt's tags", () => {
  it("leave your own and the builtin sections and partials compiled", () => {
    expect(2 * TAGS + 30).toBeGreaterThan(MAX_PROMPT_TAGS);
    const templates = [
      section("p0", tags(TAGS, "P0"), 1, "project"),
      section("p1", tags(TAGS, "P1"), 2, "project"),
      // The project's own past the total: still refused.
      section("p2", "P2 {{> pp}}", 3, "project"),
      section("preamble", `BUILTIN ${tags(40, "B")}`, 10, "builtin"),
      section("mine", "MINE {{> mp}}", 95, "user"),
    ];
    const partials = { pp: tags(30, "PP"), mp: `MYPARTIAL ${tags(40, "M")}` };
    const out = renderSections(
      {
        templates,
        partials,
        ownPartials: new Set([partials.mp]),
        data: { cwd: "/w" } as PromptData,
      },
      createEngine(),
    );
    const names = out.sections.map((s) => s.name);
    // Before: p0 and p1 only; the preamble and yours "Template not compiled".
    expect(names).toEqual(["p0", "p1", "preamble", "mine"]);
    expect(out.text).toContain("MYPARTIAL");
    const refused = out.diagnostics.filter((d) => d.message.includes("Template not compiled"));
    expect(refused.map((d) => d.message)).toEqual([
      expect.stringMatching(
        /^In partial "pp": Template not compiled: the prompt's templates hold more than 10000 tags/,
      ),
    ]);
  }, 60_000);
});
