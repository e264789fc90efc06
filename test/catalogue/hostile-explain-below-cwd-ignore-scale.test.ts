import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/index.js";
import { MAX_BELOW_CWD_DEPTH, MAX_BELOW_CWD_FOLDERS } from "../../src/gather/rules/nested.js";
import { pinned, tempDir } from "../api/_helpers.js";

// After its render, `explain` walks up to 2,000 folders below cwd for rule
// files that come on touch, and asks of each whether git ignores it: every
// pattern of the walk, for the folder and each folder above it. With no
// deadline: a .gitignore of 2,000 patterns of 25 classes each (300 KB, under
// the 1 MiB pattern weight) and 2,000 folders of 200-letter names in chains
// 11 deep held `explain --deadline 1000` for 3 min 54 s, 40 s of CPU (the
// review's attack14). The walk now stops at what the render left of its
// deadline, and says it was cut.

const DEADLINE_MS = 300;

describe("hostile repository: explain's walk below cwd, each folder tested against heavy ignore patterns", () => {
  it("stops at the deadline and says so", async () => {
    const root = tempDir();
    const cwd = join(root, "project");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    let ignore = "";
    for (let i = 0; i < 2000; i++) ignore += `q${i}${"*[a-z]".repeat(25)}*z\n`;
    writeFileSync(join(cwd, ".gitignore"), ignore);
    let folders = 0;
    for (let chain = 0; folders < MAX_BELOW_CWD_FOLDERS; chain++) {
      let path = cwd;
      for (let depth = 0; depth < MAX_BELOW_CWD_DEPTH - 1; depth++) {
        path = join(path, `${"a".repeat(200)}${depth === 0 ? chain : 0}`);
        mkdirSync(path, { recursive: true });
        folders++;
      }
    }
    const started = performance.now();
    const report = await explainPrompt(pinned(root, { deadlineMs: DEADLINE_MS }));
    const took = performance.now() - started;
    // Searched in part; or, when the render itself used the deadline on a loaded machine, not at all.
    expect(report.diagnostics.filter((d) => d.code === "rules-below-cwd-cut")).toEqual([
      expect.toBeOneOf([
        {
          level: "info",
          code: "rules-below-cwd-cut",
          message:
            "explain searched part of the folders below cwd for rule files that come on touch: the walk stopped at its cap or the deadline",
          path: cwd,
        },
        {
          level: "warning",
          code: "rules-below-cwd-cut",
          message:
            "explain did not search the folders below cwd for rule files that come on touch: the deadline passed first; a longer --deadline searches them",
          path: cwd,
        },
      ]),
    ]);
    // The deadline, one folder's check in progress, the token counts.
    expect(took).toBeLessThan(DEADLINE_MS + 4000);
  }, 120_000);
});
