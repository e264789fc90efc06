import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { MAX_PROMPT_TAGS } from "../../src/engine/limits.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Once check's templates reach one prompt's total of tags (check-templates-cut),
// no data case is rendered: each render would compile the rest again. The
// summary then read "0 data cases", and the only word of the matrix was a
// clause at the end of the templates' warning, so a reader (or a CI step
// counting check-matrix-cut) saw no sign that no render problem could be
// reported. The matrix now says so itself, as when it stops at its caps:
// one check-matrix-cut warning, "rendered 0 of the N pairs", and why.

describe("hostile repository: check's matrix after the templates' tag total", () => {
  it("says it rendered none of its pairs, and why", async () => {
    const root = tempDir();
    const sections = join(root, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    // Three sections of 4,800 tags (2,400 blocks): the third passes the prompt's total. Each its
    // own text: a template a prompt uses twice counts once.
    for (let i = 0; i < 3; i++) {
      const body = Array.from({ length: 2400 }, (_, j) => `{{#if a${j}}}x${i}{{/if}}`).join("");
      writeFileSync(join(sections, `s${i}.md`), `---\norder: 5\n---\n${body}\n`);
    }
    expect(3 * 4800).toBeGreaterThan(MAX_PROMPT_TAGS);
    const report = await checkProject(pinned(root));
    expect(report.diagnostics.map((d) => d.code)).toContain("check-templates-cut");
    expect(report.dataCases).toBe(0);
    const cut = report.diagnostics.filter((d) => d.code === "check-matrix-cut");
    expect(cut).toHaveLength(1);
    expect(cut[0]?.level).toBe("warning");
    expect(cut[0]?.message).toMatch(
      /^rendered 0 of the \d+ pairs of sections and data \(each variant's stack with every data case\): the templates checked reached one prompt's total of tags \(check-templates-cut\), and each render would compile the rest again: none is rendered, so a problem only a render shows is not reported$/,
    );
  }, 60_000);
});
