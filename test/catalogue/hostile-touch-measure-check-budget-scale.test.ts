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

/** A project of `count` glob rules of 9,000 bytes on src/, and a touch of src/a.ts under a 9,500-byte cap. */
async function touch(count: number) {
  const root = tempDir();
  const files: Record<string, string> = {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/src/a.ts": "export {};\n",
  };
  for (let i = 0; i < count; i++)
    files[`project/.cursor/rules/r${String(i).padStart(3, "0")}.mdc`] =
      `---\nglobs: "src/**"\n---\n${rule(i)}`;
  writeFiles(root, files);
  const rules: Rule[] = Array.from({ length: count }, (_, i) => ({
    name: `r${i}`,
    path: join(root, `project/.cursor/rules/r${String(i).padStart(3, "0")}.mdc`),
    content: rule(i),
    activation: "glob",
    globs: ["src/**"],
    source: "cursor",
    layer: "project",
  }));
  return cpuTimed(() =>
    loadContextForPaths([join(root, "project/src/a.ts")], {
      cwd: join(root, "project"),
      home: join(root, "home"),
      rules,
      textCap: { max: 9_500 },
    }),
  );
}

describe("hostile repository: measuring files for a host's cap spends the call's check budget", () => {
  it("110 and 220 glob rules of 9,000 bytes under a 9,500-byte cap", async () => {
    // Before: 2.7 s of CPU for the 110 (each rule checked to be measured), twice that for 220.
    // Now the budget bounds it: 0.3 s for either here once warm (the first call, with its
    // compiles, took 0.8-1.05 s at a load of 5-10, against a bound of 1.5 s). CI machines are
    // up to 2x slower: each is bounded at 3 s, and what tells the old code apart is the growth,
    // the 110 more rules costing it another 2.7 s (here 0.02 s).
    await touch(5); // The first call's compiles are not what is compared.
    const sizes: number[] = [];
    for (const count of [110, 220]) {
      const { cpuMs, value } = await touch(count);
      expect(cpuMs).toBeLessThan(3_000);
      expect(value.files.length).toBe(1);
      expect(value.diagnostics.map((d) => d.code)).toContain("touch-text-cut");
      sizes.push(cpuMs);
    }
    const [small = 0, large = 0] = sizes;
    expect(large - small, `${small} ms for 110 rules, ${large} ms for 220`).toBeLessThan(1_000);
  }, 30_000);
});
