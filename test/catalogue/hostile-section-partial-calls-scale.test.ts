import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// fx89c's record (fx92d): a trusted project's section of 4,000 `{{> p}}` calls was compiled by
// Handlebars in one synchronous step of some 1.5 s (several hundred microseconds of code a call),
// before the render's first check of its stop time: `render --deadline 1000` ran 4.5-6 s. A
// template may now call partials at most MAX_TEMPLATE_PARTIAL_CALLS (500) times: past that it is
// refused before it is parsed, as a template past its tags or words is, the error placed at the
// call that crossed it, and the section left out; your sections stay.

const MARKER = "USER-RULE-MARKER: be careful.";

function project(calls: number): string {
  const root = tempDir();
  let section = "---\norder: 100\n---\nSECTION-START\n";
  for (let r = 0; r < calls; r++) section += `P${r}: {{> p}}\n`;
  writeFiles(root, {
    "home/.pi/agent/AGENTS.md": `${MARKER}\n`,
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/.pi/partials/p.md": "y",
    "project/.pi/sections/s0.md": section,
  });
  return root;
}

function render(root: string) {
  return renderSystemPrompt({
    cwd: join(root, "project"),
    home: join(root, "home"),
    agentDir: join(root, "home/.pi/agent"),
    deadlineMs: 60_000,
  });
}

describe("hostile repository: a project's section calling its partials thousands of times", () => {
  it("is refused before it is compiled, at the call past the cap, and left out", async () => {
    const r = await render(project(4_000));
    const error = r.diagnostics.find((d) => d.code === "template");
    expect(error?.message).toContain("more than 500 partial calls");
    expect(error?.path).toContain("s0.md");
    // The 501st call, on the section's line 505 (three of frontmatter, then SECTION-START).
    expect(error?.line).toBe(505);
    expect(r.text).not.toContain("SECTION-START");
    expect(r.text).toContain(MARKER);
  }, 60_000);

  it("a section calling partials a few hundred times is below it", async () => {
    const r = await render(project(300));
    expect(r.diagnostics.filter((d) => d.level === "error")).toEqual([]);
    expect(r.text).toContain("SECTION-START");
    expect(r.text).toContain("P299: y");
  }, 60_000);
});
