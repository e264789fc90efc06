import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// Review rev88d F2: check's render of the project (`renderedDiagnostics`, which says what only a
// render reads: rule and context files) ignored check's signal and what was left of its 20 s
// budget: `checkProject({ signal: AbortSignal.abort() })` still ran a whole render, with its own
// 5 s deadline, and said a `.cursor` rule's `rule-frontmatter-not-yaml`. The render now stops
// with check: none once check's signal (its caller's, its budget) has fired, and its gathering
// ends when that signal fires.

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "p/.cursor/rules", "home/.pi/agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/.cursor/rules/r.mdc"), '---\nglobs: ["**/*.ts"]\nbad: [\n---\nx\n');
  writeFileSync(join(root, "p/a.txt"), "a\n");
  return {
    cwd: join(root, "p"),
    agentDir: join(root, "home/.pi/agent"),
    home: join(root, "home"),
    env: {},
  };
}

describe("hostile-check-render-stops-scale: check's render stops with check", () => {
  it("an aborted check runs no render, and says so", async () => {
    const options = project();
    // The render's word, said by check when it runs whole.
    const whole = await checkProject(options);
    expect(whole.diagnostics.map((d) => d.code)).toContain("rule-frontmatter-not-yaml");
    const report = await checkProject({ ...options, signal: AbortSignal.abort() });
    const codes = report.diagnostics.map((d) => d.code);
    expect(codes).not.toContain("rule-frontmatter-not-yaml");
    const cut = report.diagnostics.filter((d) => d.code === "check-load-cut");
    expect(cut).toHaveLength(1);
    expect(cut[0]?.message).toContain("check's render");
  });

  it("a render given a stop that has fired gives up its gathering steps, far before its deadline", async () => {
    const options = { ...project(), workspaceTree: true, deadlineMs: 60_000 };
    const ran = await preparePrompt(options);
    expect(ran.steps.filter((s) => s.status === "timeout")).toEqual([]);
    const started = performance.now();
    const stopped = await preparePrompt(options, undefined, "api", AbortSignal.abort());
    expect(performance.now() - started).toBeLessThan(10_000);
    const given = stopped.steps.filter((s) => s.status === "timeout").map((s) => s.name);
    expect(given).toContain("tree");
    expect(stopped.diagnostics.map((d) => d.code)).toContain("step-timeout");
  });
});
