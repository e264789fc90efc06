import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject, MAX_TEMPLATE_PROBLEMS } from "../../src/author/check/check.js";
import type { CheckReport } from "../../src/author/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// check's static walk gave each call of an unknown partial a message naming
// EVERY partial there is (each layer's partial files and the template's own
// inline ones), and each undeclared `{{vars.x}}` one naming every declared
// var; all of them were built, then 20 a template kept. A section of 4,900
// `{{> nope}}` beside 999 partial files of 240-character names took 1.4 GB and
// 10 s of CPU; with one inline partial named by 900 KiB of text, `check` died
// of V8's out-of-memory abort at 4.3 GB, with no report (issue 24, review
// rev44b F1). Now only the kept problems are built, the rest counted, and a
// message names a few partials or vars, each cut to 64 characters.

const CALLS = 4_900;

function project(files: Record<string, string>): { root: string; pi: string } {
  const root = tempDir();
  const pi = join(root, "project", ".pi");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(pi, path, ".."), { recursive: true });
    writeFileSync(join(pi, path), text);
  }
  return { root, pi };
}

function section(body: string): string {
  return `---\norder: 900\n---\n${body}`;
}

/** The section's problems of `code`, and its count of the ones not shown. */
function problemsOf(report: CheckReport, path: string, code: string) {
  const shown = report.diagnostics.filter((d) => d.path === path && d.code === code);
  const capped = report.diagnostics.find(
    (d) => d.path === path && d.code === "template-problems-capped",
  );
  return { shown, capped: capped?.message };
}

describe("hostile repository: check's messages for thousands of bad calls", () => {
  it("400 partial files of long names and 4,900 unknown partial calls: 20 messages built, each naming a few", async () => {
    const files: Record<string, string> = { "sections/s.md": section("{{> nope}}".repeat(CALLS)) };
    for (let i = 0; i < 400; i++) files[`partials/${"p".repeat(236)}${i}.md`] = "x";
    const { root, pi } = project(files);
    const { cpuMs, value: report } = await cpuTimed(() => checkProject(pinned(root)));
    // Before: 4,900 messages of 96 KB each (about 1 GB built, 20 kept): 5.0 s of CPU
    // here at a load of 10; now 2.2 s, the walk milliseconds of it, the rest the check of the 400
    // files and the data matrix.
    expect(cpuMs).toBeLessThan(4_500);
    const { shown, capped } = problemsOf(report, join(pi, "sections", "s.md"), "unknown-partial");
    expect(shown).toHaveLength(MAX_TEMPLATE_PROBLEMS);
    for (const d of shown) {
      // Before: each named all 400 names, 96 KB a message.
      expect(d.message.length).toBeLessThan(1_000);
      expect(d.message).toMatch(
        /^unknown partial "nope"; the partials here are: p{63}…, .* and 392 more$/,
      );
    }
    expect(capped).toBe(
      `${CALLS - MAX_TEMPLATE_PROBLEMS} more problems in this template are not shown (${MAX_TEMPLATE_PROBLEMS} are)`,
    );
    // The data matrix still runs (before, check's 20 s budget passed first on a busy machine).
    expect(report.dataCases).toBeGreaterThan(0);
  }, 120_000);

  it("one inline partial named by 128 KiB of text and 4,900 unknown calls: the name is cut, the messages few", async () => {
    const name = "N".repeat(128 * 1024);
    const { root, pi } = project({
      "partials/p.md": "p",
      "sections/s.md": section(`{{#*inline "${name}"}}x{{/inline}}\n${"{{> nope}}".repeat(CALLS)}`),
    });
    const { cpuMs, value: report } = await cpuTimed(() => checkProject(pinned(root)));
    // Before: 4,900 copies of the 128 KiB name, joined twice (over 1 GB): 5.4 s of CPU here;
    // now 1.2 s.
    expect(cpuMs).toBeLessThan(3_000);
    const { shown, capped } = problemsOf(report, join(pi, "sections", "s.md"), "unknown-partial");
    expect(shown).toHaveLength(MAX_TEMPLATE_PROBLEMS);
    for (const d of shown) {
      expect(d.message).toBe(
        `unknown partial "nope"; the partials here are: p, ${"N".repeat(63)}…`,
      );
    }
    expect(capped).toMatch(new RegExp(`^${CALLS - MAX_TEMPLATE_PROBLEMS} more problems`));
  }, 120_000);

  it("undeclared vars among 8 KB of declared names: each warning names a few, and a near one", async () => {
    const names = Array.from(
      { length: 140 },
      (_, i) => `v${String(i).padStart(3, "0")}${"x".repeat(44)}`,
    );
    const { root, pi } = project({
      "sysprompt.yaml": `vars:\n  team: a\n${names.map((n) => `  ${n}: a\n`).join("")}`,
      "sections/s.md": section(
        `{{vars.taem}}${Array.from({ length: CALLS }, (_, i) => `{{vars.n${i}}}`).join("")}`,
      ),
    });
    const report = await checkProject(pinned(root));
    const { shown, capped } = problemsOf(report, join(pi, "sections", "s.md"), "var-undeclared");
    expect(shown).toHaveLength(MAX_TEMPLATE_PROBLEMS);
    for (const d of shown) expect(d.message.length).toBeLessThan(1_000);
    expect(shown[0]?.message).toMatch(
      /^"vars\.taem" is not declared \(declared: team, v000x{44}, .* and 133 more; did you mean "team"\?\)/,
    );
    expect(capped).toMatch(new RegExp(`^${CALLS + 1 - MAX_TEMPLATE_PROBLEMS} more problems`));
  }, 120_000);
});
