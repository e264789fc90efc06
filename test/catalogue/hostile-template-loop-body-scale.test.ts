import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine, PromptWork, TemplateError } from "../../src/engine/engine.js";
import { MAX_RENDER_CALLS } from "../../src/engine/limits.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Attack review rev44d F2, loop half (issue 24): each pass of a loop counted
// as one call however many tags its body held (up to 5,000), and so did each
// run of an `{{#if}}`, `{{#with}}` or `{{#unless}}` body, an inline partial's,
// a partial block's or a partial's own: two nested `{{#each}}` over a trusted
// project's 200 rules around 4,000 empty lookups ran 15.8 s of CPU at
// `render --deadline 1000`, a third loop 71 s. Now each run of a program
// counts its own tags as calls (counted when it is compiled), so the call cap
// stops it with the usual error, at the innermost block.
//
// What fails on the old code is the error expected, not the time: the 14.4 million
// lookups of the cases below would take some 1.4 s of CPU (at the 15.8 s for 160 million
// above). The CPU bounds keep a case from running long before it stops: 0.35-0.71 s here
// (the first case's includes the first compile), 2.5 s with CI machines up to 2x slower.

const STOP = `Render stopped after ${MAX_RENDER_CALLS} helper calls, blocks, partials and tags run`;
const lookups = "{{z}}".repeat(4000);
const list = Array.from({ length: 60 }, (_, i) => i);

/** Renders `source` over `{ l: list }`: its text, or the error's message and place. */
const attempt = (source: string, partials: Record<string, string> = {}) =>
  cpuTimed(() => {
    try {
      return createEngine().render(source, { l: list }, { partials, work: new PromptWork() });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      return { message: error.message, line: error.line, column: error.column };
    }
  });

describe("hostile repository: loop bodies of thousands of tags", () => {
  it("two nested loops over 60 items around 4,000 lookups stop at the call cap, at the inner loop", async () => {
    // Was 3,600 passes of 4,000 lookups each: 14.4 million lookups, rendered as "".
    const { cpuMs, value } = await attempt(
      `{{#each l}}\n {{#each ../l}}${lookups}{{/each}}{{/each}}`,
    );
    expect(value).toEqual({ message: expect.stringContaining(STOP), line: 2, column: 2 });
    expect(cpuMs).toBeLessThan(2500);
  });

  it.each([
    ["an {{#if}} body", `{{#if 1}}${lookups}{{/if}}`],
    ["an {{#unless}} body", `{{#unless 0}}${lookups}{{/unless}}`],
    ["a {{#with}} body", `{{#with 1}}${lookups}{{/with}}`],
    ["an {{else}} body", `{{#if 0}}{{else}}${lookups}{{/if}}`],
    ["a section over a value", `{{#z}}{{else}}${lookups}{{/z}}`],
    ["a partial's body", "{{> p}}"],
    ["an inline partial's body", `{{#*inline "q"}}${lookups}{{/inline}}{{> q}}`],
    ["a partial block's body", `{{#> L}}${lookups}{{/L}}`],
  ])("%s run in two nested loops counts its tags at each run", async (_name, body) => {
    const partials = { p: lookups, L: "{{> @partial-block}}" };
    const { cpuMs, value } = await attempt(
      `{{#each l}}{{#each ../l}}${body}{{/each}}{{/each}}`,
      partials,
    );
    expect(value).toMatchObject({ message: expect.stringContaining(STOP) });
    expect(cpuMs).toBeLessThan(2500);
  });

  it("a trusted project's section of three loops over its rules, through renderSystemPrompt", async () => {
    const root = tempDir();
    const pi = join(root, "project", ".pi");
    mkdirSync(join(pi, "sections"), { recursive: true });
    const rules = join(root, "project", ".cursor", "rules");
    mkdirSync(rules, { recursive: true });
    for (let i = 0; i < 40; i++) {
      writeFileSync(join(rules, `r${i}.mdc`), `---\nglobs: "*.r${i}"\n---\nrule ${i}\n`);
    }
    writeFileSync(
      join(pi, "sections", "x.md"),
      `---\norder: 5\n---\nX{{#each onDemandRules}}{{#each @root.onDemandRules}}{{#each @root.onDemandRules}}${lookups}{{/each}}{{/each}}{{/each}}\n`,
    );
    // Was 64,000 passes of 4,000 lookups (256 million): minutes, then the call cap.
    const { cpuMs, value: result } = await cpuTimed(() =>
      renderSystemPrompt(pinned(root, { deadlineMs: 1000 })),
    );
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({
        level: "error",
        code: "template",
        message: expect.stringContaining(STOP),
        path: join(pi, "sections", "x.md"),
        line: 4,
        column: 1 + "X{{#each onDemandRules}}{{#each @root.onDemandRules}}".length,
      }),
    );
    expect(result.sections.map((s) => s.name)).not.toContain("x");
    expect(cpuMs).toBeLessThan(3000);
  });

  it("loops of a few tags still render, and the tags they run count", () => {
    const engine = createEngine();
    const work = new PromptWork();
    expect(
      engine.render(
        "{{#each l}}{{#if @first}}[{{/if}}{{this}}{{#unless @last}},{{/unless}}{{/each}}]",
        { l: ["a", "b", "c"] },
        { work },
      ),
    ).toBe("[a,b,c]");
    // The render and its one tag; `each` and its 3 passes of 3 tags each; an
    // `if` and an `unless` a pass (an `unless` calls `if`: two calls), one
    // `if` body and two `unless` bodies, of no tag; and each helper call's
    // one parameter (`each`, 3 `if`, 3 `unless` and the 3 `if` they call).
    expect(work.calls).toBe(1 + 1 + 1 + 3 * (1 + 3) + 3 + 3 * 2 + 1 + 2 + (1 + 3 + 3 + 3));
  });
});
