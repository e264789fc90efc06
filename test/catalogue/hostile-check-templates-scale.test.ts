import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject, MAX_TEMPLATE_PROBLEMS } from "../../src/author/check/check.js";
import { MAX_TEMPLATE_TAGS } from "../../src/engine/limits.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `check` compiles every template of every layer and reports each unknown
// field where it is read. Attack review 11: a trusted project's 40 sections
// of 4,990 distinct {{aN}} tags (1.4 MB) made `sysprompt check` run 62 s and
// 1 GB, then crash with `RangeError: Maximum call stack size exceeded`: its
// 200,000 unknown-field diagnostics were pushed as the arguments of one call.
// Now the templates checked share one prompt's total of tags (the rest are
// named in one check-templates-cut warning, and no data case is rendered, as
// check-matrix-cut says: each render would compile them again), and one template reports at most
// MAX_TEMPLATE_PROBLEMS problems, the rest counted. (Slow tier: one template
// at the tag cap is compiled.)

describe("hostile repository: check of many templates at the tag cap", () => {
  it("checks templates up to the prompt's total, and caps each one's problems", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    const count = 12;
    const tags = MAX_TEMPLATE_TAGS - 10;
    for (let i = 0; i < count; i++) {
      const body = `{{a${i}}}`.repeat(tags);
      writeFileSync(
        join(sections, `s${String(i).padStart(2, "0")}.md`),
        `---\norder: 5\n---\n${body}\n`,
      );
    }
    const started = performance.now();
    const report = await checkProject(pinned(root));
    const elapsed = performance.now() - started;
    const first = join(sections, "s00.md");
    const ofFirst = report.diagnostics.filter((d) => d.path === first);
    expect(ofFirst.filter((d) => d.code === "unknown-field")).toHaveLength(MAX_TEMPLATE_PROBLEMS);
    expect(ofFirst.find((d) => d.code === "template-problems-capped")?.message).toBe(
      `${tags - MAX_TEMPLATE_PROBLEMS} more problems in this template are not shown (${MAX_TEMPLATE_PROBLEMS} are)`,
    );
    const cut = report.diagnostics.find((d) => d.code === "check-templates-cut");
    expect(cut?.message).toContain(`not checked: ${count - 1} files, the first`);
    expect(report.dataCases).toBe(0);
    expect(report.diagnostics.length).toBeLessThan(100);
    // Before: 12 templates compiled and 59,880 diagnostics, 15-30 s. Generous for a loaded machine.
    expect(elapsed).toBeLessThan(15_000);
  }, 120_000);
});
