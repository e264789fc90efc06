import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderWithRoom } from "../../src/budget/fit.js";
import { createEngine } from "../../src/engine/index.js";
import { preparePrompt, renderSystemPrompt } from "../../src/index.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Attack review rev88b F1/F2: a trusted project's one-line partial `<x_{{a}}> y`, printed
// 8,000 times with a new argument each time (two sections of 4,000 `{{> p a="s-r"}}`), held
// `render --deadline 1000` 6 s of CPU with no warning: each print of a new text was held and
// closed afresh (a CommonMark render, an HTML parse), a fixed cost no meter charged, and
// nothing in the sections' render read the deadline. Now each such print charges the
// element-name reader's meter a fixed part (`PARTIAL_PRINT_NAME_UNITS`), and a project's
// section still rendering past the render's stop time (`renderStop`: the deadline, or a
// grace from the render's start) stops; your sections, rendered first, stay.

const MARKER = "USER-RULE-MARKER: be careful.";

/** A project whose partial `p` is printed `prints` times, each with a new argument, in each of `sections` sections. */
function project(prints: number, sections: number): string {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.pi/agent/AGENTS.md": `${MARKER}\n`,
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/partials/p.md": "<x_{{a}}> y\n",
  };
  for (let s = 0; s < sections; s++) {
    let section = `---\norder: ${100 + s}\n---\n`;
    for (let r = 0; r < prints; r++) section += `P${r}:\n\n{{> p a="${s}-${r}"}}\n\n`;
    files[`project/.pi/sections/s${s}.md`] = section;
  }
  writeFiles(root, files);
  return root;
}

function options(root: string, deadlineMs: number) {
  return {
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs,
  };
}

describe("hostile repository: a project's partial printed thousands of times, each a new text", () => {
  it("charges each print of a new text to the render's meter, and stops the section past it", async () => {
    // 2,400 prints in five sections of 480 (a template may call partials at most 500 times,
    // MAX_TEMPLATE_PARTIAL_CALLS): the meter is the prompt's, spent across its sections.
    const root = project(480, 5);
    // A deadline far off: the meter alone stops it.
    const r = await renderSystemPrompt(options(root, 600_000));
    const stops = r.diagnostics.filter((d) => d.code === "template");
    expect(stops).toHaveLength(1);
    expect(stops[0]?.message).toContain("element-name reader");
    // Some 2,000 prints spend it (1,024 units each of 2 Mi): in the fifth section.
    expect(stops[0]?.path).toContain("s4.md");
    // The four before it are printed whole (the fourth's `<` as text: the closers' check of
    // the repository's texts is spent by then).
    for (const s of [0, 1, 2, 3]) expect(r.text).toContain(`x_${s}-479> y`);
    expect(r.text).not.toContain("x_4-");
    expect(r.text).toContain(MARKER);
  }, 120_000);

  it("a project printing its partials a few dozen times is far below it", async () => {
    const root = project(40, 2);
    const r = await renderSystemPrompt(options(root, 60_000));
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    for (const s of [0, 1]) expect(r.text).toContain(`<x_${s}-39> y`);
    expect(r.text).toContain(MARKER);
  }, 60_000);

  it("stops a project's section still rendering at the render's stop time; yours stay", async () => {
    const root = project(200, 2);
    const prepared = await preparePrompt(options(root, 60_000));
    // A clock that passes the stop time at its 50th reading: mid-way through the first section's prints.
    let readings = 0;
    const stopAt = { at: 50, clock: () => ++readings };
    const out = withCheckBudget(() =>
      renderWithRoom({ ...prepared, stopAt }, createEngine(), new Set()),
    );
    const stop = out.diagnostics.find((d) => d.code === "template");
    expect(stop?.message).toContain("deadline passed");
    expect(stop?.path).toContain("s0.md");
    expect(out.stopped).toEqual(["s0"]);
    // The section after it is left out unrendered, as when the prompt's work is spent.
    expect(out.unworked).toEqual(["s1"]);
    expect(out.text).not.toContain("<x_");
    expect(out.text).toContain(MARKER);
    // Read at each of the section's prints until the stop, not once per print after it.
    expect(readings).toBe(50);
  }, 60_000);
});
