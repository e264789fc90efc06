import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject, MAX_CHECK_LOAD_MS } from "../../src/author/check/check.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `check` reads every skill, slash-command template and preset of a trusted
// project, each with a YAML block the repository writes, parsed
// synchronously: a block of stray `]` is one parse error a character (64 KiB
// of them: about a second). 200 skills and 100 templates of such blocks ran
// `sysprompt check` for 243 s, 40 presets for 69 s, 1,000 would be most of
// an hour. That reading stops at MAX_CHECK_LOAD_MS (or the caller's
// signal), with a warning, as the render matrix does at its own budget.

/** A YAML text of `size` characters that is one parse error after another. */
const flood = (size: number) => "]]]]]]]]]]]]]]]]]]]]]]]\n".repeat(Math.ceil(size / 24));

function floodedProject(root: string, count: number): void {
  const pi = join(root, "project", ".pi");
  for (const dir of ["agents", "prompts"]) mkdirSync(join(pi, dir), { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = `n${String(i).padStart(3, "0")}`;
    writeFileSync(join(pi, "agents", `${name}.yaml`), flood(60 * 1024));
    writeFileSync(join(pi, "prompts", `${name}.md`), `---\n${flood(30 * 1024)}---\nbody\n`);
    mkdirSync(join(pi, "skills", name), { recursive: true });
    writeFileSync(
      join(pi, "skills", name, "SKILL.md"),
      `---\nname: ${name}\n${flood(30 * 1024)}---\nbody\n`,
    );
  }
}

describe("hostile repository: check's reading of skills, templates and presets is bounded", () => {
  it("30 of each, all YAML error floods: check stops reading at its signal and says so", async () => {
    const root = tempDir();
    floodedProject(root, 30);
    const started = performance.now();
    // A signal already given: since the YAML front end refuses stray brackets before the parse, the
    // floods read fast, and a 200 ms signal could come after the reading was done (a race, not a bound).
    // Since the project's layer is reached with check's signal too (fx92d), it may be the first reading stopped.
    const report = await checkProject({ ...pinned(root), signal: AbortSignal.abort() });
    const took = performance.now() - started;
    const cut = report.diagnostics.filter((d) => d.code === "check-load-cut");
    expect(cut).toHaveLength(1);
    expect(cut[0]?.message).toMatch(
      /^stopped reading the (project's sections and partials|skills|slash-command templates|presets)/,
    );
    // Read whole, the floods take tens of seconds; the rest of check (the matrix) a few.
    expect(took).toBeLessThan(10_000);
    expect(MAX_CHECK_LOAD_MS).toBe(20_000);
  }, 60_000);
});
