import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `check` reads skills, slash-command templates, presets and the project's
// layer within 20 s (check-load-cut), then checks the templates, renders its
// data matrix (20 s of its own) and compares ejected sections with their
// builtins. The static check and the comparing heard no budget: past the 20 s
// they ran on, however long (review rev43d F1: 15.7 s and 12.8 s of CPU in a
// 72 s check). They now stop at the same budget (or the caller's signal),
// each with a warning at the first file left: check-templates-cut (and then
// no data case is rendered: its 20 s would come on top) and check-drift-cut.
// The caller's signal, given at once, stands in for the 20 s here.

/** Your own layer with two sections that claim to be ejected copies and read an unknown field each. */
function twoEjectedSections() {
  const root = tempDir();
  const mine = join(root, "agent", "sections");
  mkdirSync(mine, { recursive: true });
  for (const name of ["a", "b"]) {
    writeFileSync(
      join(mine, `${name}.md`),
      `---\nejected-from: sha256:000000000000\n---\n{{nope.${name}}}\n`,
    );
  }
  return { options: pinned(root), mine };
}

describe("hostile repository: check's steps after the loading hear its budget", () => {
  it("a check stopped by its caller checks no template, renders no data case and compares no ejected section", async () => {
    // Your own layer is read whatever the signal: its sections reach the static check and the drift.
    const { options, mine } = twoEjectedSections();
    const report = await checkProject({ ...options, signal: AbortSignal.abort() });
    const codes = report.diagnostics.map((d) => d.code);
    // Nothing was checked: the unknown fields are not reported.
    expect(codes).not.toContain("unknown-field");
    expect(codes).not.toContain("section-drift");
    const cut = report.diagnostics.find((d) => d.code === "check-templates-cut");
    expect(cut?.message).toMatch(
      /^check's 20 s for reading and checking the templates had passed \(or the caller stopped check\); not checked: \d+ files, the first /,
    );
    expect(cut?.path).toBeDefined();
    expect(report.dataCases).toBe(0);
    expect(report.diagnostics.find((d) => d.code === "check-matrix-cut")?.message).toMatch(
      /^rendered 0 of the \d+ pairs .*: the templates were not all checked within check's budget \(check-templates-cut\)/,
    );
    const drift = report.diagnostics.filter((d) => d.code === "check-drift-cut");
    expect(drift).toEqual([
      {
        level: "warning",
        code: "check-drift-cut",
        message: `check's 20 s for reading and checking had passed (or the caller stopped check): 2 sections carrying ejected-from were not compared with the builtin they were copied from, the first ${join(mine, "a.md")}`,
        path: join(mine, "a.md"),
      },
    ]);
  });

  it("without a signal, the same project is checked whole: both unknown fields and both drifts", async () => {
    const { options } = twoEjectedSections();
    const report = await checkProject(options);
    const codes = report.diagnostics.map((d) => d.code);
    expect(codes.filter((c) => c === "unknown-field")).toHaveLength(2);
    expect(codes.filter((c) => c === "section-drift")).toHaveLength(2);
    expect(codes).not.toContain("check-templates-cut");
    expect(codes).not.toContain("check-drift-cut");
    expect(report.dataCases).toBeGreaterThan(0);
  });
});
