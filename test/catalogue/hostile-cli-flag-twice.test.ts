import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev58d F7: a flag that takes one value, given twice, kept the last without a word:
// `render --section rules --section tools` printed only tools, `-o a.md -o b.md` wrote b.md,
// `--cwd . --cwd /` rendered `/`, all exit 0. A script that meant two got one. Now a usage error
// naming the flag; the flags the help marks repeatable (`--var`, `--root`, …) take every value.

function project() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent"]) mkdirSync(join(root, dir), { recursive: true });
  return root;
}

describe("hostile-cli-flag-twice: a single-value flag given twice is a usage error", () => {
  it("--section, -o and --cwd twice: exit 2 naming the flag, nothing written", async () => {
    const root = project();
    const p = join(root, "p");
    const cases: [string[], string][] = [
      [
        ["render", "--section", "rules", "--section", "tools"],
        '--section: given 2 times ("rules", "tools")',
      ],
      [["render", "-o", "a.md", "-o", "b.md"], '--output: given 2 times ("a.md", "b.md")'],
      [["render", "--cwd", ".", "--cwd", "/"], '--cwd: given 2 times (".", "/")'],
      [["export", "--agent", "codex", "--out", "x.md", "--out", "y.md"], "--out: given 2 times"],
    ];
    for (const [argv, said] of cases) {
      const out = await cli(root, p, argv);
      expect(out.code, argv.join(" ")).toBe(2);
      expect(out.stderr, argv.join(" ")).toContain(said);
      expect(out.stdout, argv.join(" ")).toBe("");
    }
    for (const name of ["a.md", "b.md", "x.md", "y.md"])
      expect(existsSync(join(p, name))).toBe(false);
  });

  it("the repeatable flags still take every value", async () => {
    const root = project();
    const out = await cli(root, join(root, "p"), [
      "render",
      "--guideline",
      "FIRST-RULE",
      "--guideline",
      "SECOND-RULE",
      "--var",
      "a=1",
      "--var",
      "b=2",
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("FIRST-RULE");
    expect(out.stdout).toContain("SECOND-RULE");
  });
});
