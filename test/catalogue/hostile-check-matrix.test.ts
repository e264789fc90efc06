import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject, MAX_CHECK_RENDERS } from "../../src/author/check/check.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `check` renders the sections with every data case, once for the plain
// files and once more for each variant: a project of many variants and large
// sections ran for 250 s and 3 GB. The matrix stops at MAX_CHECK_RENDERS
// renders (or its text or time budget), with a warning that says so.

describe("hostile repository: check's matrix is bounded", () => {
  it("six variants of a section: the renders stop at the cap, with a warning", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    for (let i = 1; i <= 6; i++) {
      writeFileSync(
        join(sections, `cwd@v${i}.md`),
        `---\nmodels: ["m-${i}"]\n---\nVariant ${i}.\n`,
      );
    }
    const report = await checkProject(pinned(root));
    const cut = report.diagnostics.filter((d) => d.code === "check-matrix-cut");
    expect(cut).toHaveLength(1);
    // Seven stacks of ours and the builtin's own variants: more pairs than are rendered.
    const [done, total] = (/rendered (\d+) of the (\d+) pairs/.exec(cut[0]?.message ?? "") ?? [])
      .slice(1)
      .map(Number);
    expect(done).toBe(MAX_CHECK_RENDERS);
    expect(total).toBeGreaterThanOrEqual(7 * report.dataCases);
  }, 120_000);
});
