import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import type { Rule } from "../../src/gather/rules/types.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev66e F4: on touch with a host's text cap, `fitText` closed and checked every file under
// the cap OUTSIDE any budget only to measure it, then gave one: 110 glob rules of 9,000 bytes (each
// `<div>` then `- x` lines) took 2.7 s of CPU in a Claude Code hook call, past its 5 s at load, and
// every later call repeated it. The whole call (the total's cut, the measuring) now spends one
// budget; past it a file is measured by its fallback, with room for the closers its check may add.

function rule(i: number): string {
  const head = `# Rule ${i}\n\n<div>\n\n`;
  return `${head}${"- x\n".repeat(Math.floor((9_000 - head.length) / 4))}`;
}

describe("hostile repository: measuring files for a host's cap spends the call's check budget", () => {
  it("110 glob rules of 9,000 bytes under a 9,500-byte cap", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/src/a.ts": "export {};\n",
    };
    for (let i = 0; i < 110; i++)
      files[`project/.cursor/rules/r${String(i).padStart(3, "0")}.mdc`] =
        `---\nglobs: "src/**"\n---\n${rule(i)}`;
    writeFiles(root, files);
    const rules: Rule[] = Array.from({ length: 110 }, (_, i) => ({
      name: `r${i}`,
      path: join(root, `project/.cursor/rules/r${String(i).padStart(3, "0")}.mdc`),
      content: rule(i),
      activation: "glob",
      globs: ["src/**"],
      source: "cursor",
      layer: "project",
    }));
    const { cpuMs, value } = await cpuTimed(() =>
      loadContextForPaths([join(root, "project/src/a.ts")], {
        cwd: join(root, "project"),
        home: join(root, "home"),
        rules,
        textCap: { max: 9_500 },
      }),
    );
    // Before: 2.7 s of CPU (each rule checked to be measured); now some 0.5 s. Slack for load.
    expect(cpuMs).toBeLessThan(1_500);
    expect(value.files.length).toBe(1);
    expect(value.diagnostics.map((d) => d.code)).toContain("touch-text-cut");
  }, 30_000);
});
