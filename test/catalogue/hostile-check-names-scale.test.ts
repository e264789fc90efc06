import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject, MAX_TEMPLATE_PROBLEMS } from "../../src/author/check/check.js";
import type { CheckReport } from "../../src/author/types.js";
import { CAPPED_CODE } from "../../src/engine/message.js";
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
//
// The 4,900 calls are split over 10 sections of 490 (fx94a): a template may call partials
// at most 500 times (MAX_TEMPLATE_PARTIAL_CALLS); the messages built, their total, are the same.

const CALLS = 4_900;
const SECTIONS = 10;
const PER_SECTION = CALLS / SECTIONS;
const sectionNames = Array.from({ length: SECTIONS }, (_, k) => `s${k}.md`);

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
function problemOf(report: CheckReport, path: string, code: string) {
  const shown = report.diagnostics.filter((d) => d.path === path && d.code === code);
  const capped = report.diagnostics.find(
    (d) => d.path === path && d.code === "template-problems-capped",
  );
  return { shown, capped: capped?.message };
}

/**
 * The problems of `code` the report shows in the sections of `pi`, and each section's count
 * of the ones its template did not keep. The report shows the first
 * MAX_DIAGNOSTICS_PER_KIND of a code (the first section's 20) and counts the rest.
 */
function problemsOf(report: CheckReport, pi: string, code: string) {
  const sections = sectionNames.map((name) => problemOf(report, join(pi, "sections", name), code));
  const shown = sections.flatMap((s) => s.shown);
  expect(shown).toHaveLength(MAX_TEMPLATE_PROBLEMS);
  const rest = report.diagnostics.find(
    (d) => d.code === CAPPED_CODE && d.message.includes(`[${code}]`),
  );
  expect(rest?.message).toMatch(
    new RegExp(`^… and ${(SECTIONS - 1) * MAX_TEMPLATE_PROBLEMS} more \\[${code}\\]`),
  );
  return { shown, capped: sections.map((s) => s.capped) };
}

describe("hostile repository: check's messages for thousands of bad calls", () => {
  it("400 partial files of long names and 4,900 unknown partial calls in 10 sections: 20 messages built a section, each naming a few", async () => {
    const files: Record<string, string> = {};
    for (const name of sectionNames)
      files[`sections/${name}`] = section("{{> nope}}".repeat(PER_SECTION));
    for (let i = 0; i < 400; i++) files[`partials/${"p".repeat(236)}${i}.md`] = "x";
    const { root, pi } = project(files);
    const { cpuMs, value: report } = await cpuTimed(() => checkProject(pinned(root)));
    // Before: 4,900 messages of 96 KB each (about 1 GB built, 20 a section kept): 5.0 s of CPU
    // here at a load of 10; now 2.2 s, the walk milliseconds of it, the rest the check of the 400
    // files and the data matrix.
    expect(cpuMs).toBeLessThan(4_500);
    const { shown, capped } = problemsOf(report, pi, "unknown-partial");
    for (const d of shown) {
      // Before: each named all 400 names, 96 KB a message.
      expect(d.message.length).toBeLessThan(1_000);
      expect(d.message).toMatch(
        /^unknown partial "nope"; the partials here are: p{63}…, .* and 392 more$/,
      );
    }
    expect(capped).toEqual(
      sectionNames.map(
        () =>
          `${PER_SECTION - MAX_TEMPLATE_PROBLEMS} more problems in this template are not shown (${MAX_TEMPLATE_PROBLEMS} are)`,
      ),
    );
    // The data matrix still runs (before, check's 20 s budget passed first on a busy machine).
    expect(report.dataCases).toBeGreaterThan(0);
  }, 120_000);

  it("an inline partial named by 128 KiB of text in each of 10 sections and 4,900 unknown calls: the name is cut, the messages few", async () => {
    const name = "N".repeat(128 * 1024);
    const files: Record<string, string> = { "partials/p.md": "p" };
    for (const s of sectionNames) {
      files[`sections/${s}`] = section(
        `{{#*inline "${name}"}}x{{/inline}}\n${"{{> nope}}".repeat(PER_SECTION)}`,
      );
    }
    const { root, pi } = project(files);
    const { cpuMs, value: report } = await cpuTimed(() => checkProject(pinned(root)));
    // Before: 4,900 copies of the 128 KiB name, joined twice (over 1 GB): 5.4 s of CPU here;
    // now 1.2 s.
    expect(cpuMs).toBeLessThan(3_000);
    const { shown, capped } = problemsOf(report, pi, "unknown-partial");
    for (const d of shown) {
      expect(d.message).toBe(
        `unknown partial "nope"; the partials here are: p, ${"N".repeat(63)}…`,
      );
    }
    expect(capped).toHaveLength(SECTIONS);
    for (const c of capped) {
      expect(c).toMatch(new RegExp(`^${PER_SECTION - MAX_TEMPLATE_PROBLEMS} more problems`));
    }
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
    const { shown, capped } = problemOf(report, join(pi, "sections", "s.md"), "var-undeclared");
    expect(shown).toHaveLength(MAX_TEMPLATE_PROBLEMS);
    for (const d of shown) expect(d.message.length).toBeLessThan(1_000);
    expect(shown[0]?.message).toMatch(
      /^"vars\.taem" is not declared \(declared: team, v000x{44}, .* and 133 more; did you mean "team"\?\)/,
    );
    expect(capped).toMatch(new RegExp(`^${CALLS + 1 - MAX_TEMPLATE_PROBLEMS} more problems`));
  }, 120_000);
});
