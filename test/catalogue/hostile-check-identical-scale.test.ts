import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { MAX_PROMPT_TAGS, MAX_TEMPLATE_TAGS } from "../../src/engine/limits.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `check` checks templates until they hold one prompt's total of tags
// (check-templates-cut), and then renders no data case. That total was
// counted by the engine's PromptWork, which counts each distinct TEXT once
// (right for a render: it compiles a text once however many files hold it),
// while check parses, walks and compiles every FILE. Review rev43d F1: 279
// identical sections and 279 identical partials of 4,285 tags each (under the
// 5,000-tag cap of one template, 8 MiB a folder) were all checked without
// reaching the cut, and the data matrix ran its 20 s after them: `sysprompt
// check` took 57 s of CPU (72 s with `ejected-from:` in each section), its
// render 1.9 s. The total is now counted for each file checked.

describe("hostile repository: check of many identical templates", () => {
  it("counts each file toward the prompt's total of tags: the cut comes, and no data case is rendered", async () => {
    const root = tempDir();
    const pi = join(root, "project", ".pi");
    mkdirSync(join(pi, "sections"), { recursive: true });
    mkdirSync(join(pi, "partials"), { recursive: true });
    const copies = 8;
    const body = "{{a.b}}".repeat(4285);
    expect(4285).toBeLessThan(MAX_TEMPLATE_TAGS);
    expect(3 * 4285).toBeGreaterThan(MAX_PROMPT_TAGS);
    for (let i = 0; i < copies; i++) {
      writeFileSync(join(pi, "sections", `s${i}.md`), `---\norder: ${i}\n---\n${body}`);
      writeFileSync(join(pi, "partials", `p${i}.md`), body);
    }
    const report = await checkProject(pinned(root));
    const cut = report.diagnostics.find((d) => d.code === "check-templates-cut");
    expect(cut?.level).toBe("warning");
    // Each file checked reports its unknown field `a` 4,285 times, shown 20 times and the rest
    // counted in one template-problems-capped: at most two files fit in the total.
    const checked = new Set(
      report.diagnostics
        .filter((d) => d.code === "template-problems-capped" && d.path?.startsWith(pi))
        .map((d) => d.path),
    );
    expect(checked.size).toBeGreaterThanOrEqual(1);
    expect(checked.size).toBeLessThanOrEqual(2);
    expect(cut?.message).toContain(`not checked: ${2 * copies - checked.size} files, the first`);
    expect(cut?.path).toBeDefined();
    expect(checked.has(cut?.path)).toBe(false);
    // Before: 16 files checked, no cut, and 48 data cases rendered (10-20 s of CPU here).
    expect(report.dataCases).toBe(0);
    expect(report.diagnostics.filter((d) => d.code === "check-matrix-cut")).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^rendered 0 of the \d+ pairs/) }),
    ]);
  }, 120_000);
});
