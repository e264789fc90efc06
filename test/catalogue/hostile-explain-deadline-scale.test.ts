import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// After its render, `explain` searches the folders below cwd for rule files
// that come on touch, within what the render left of its deadline. Once the
// render had used it all, the search was given a signal that fired at once,
// and the search for the project root threw that signal's reason: explain
// rejected with a TimeoutError (the CLI: a stack trace, exit 1, no report).
// A slow repository or a project whose render outlasts the deadline made it
// happen at any deadline (review rev45b F4: 1-2 of 4 runs at --deadline 200).
// Here a cwd 200 folders below its root and a deadline of 1 ms: the walk up
// to `.git` outlasts the signal every time. Now the search is not made, and
// a warning says what was not searched.

const DEPTH = 200;

describe("hostile repository: explain when the render used its whole deadline", () => {
  it("gives its report with a warning that the folders below cwd were not searched", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project", ".git"), { recursive: true });
    let cwd = join(root, "project");
    for (let i = 0; i < DEPTH; i++) cwd = join(cwd, "d");
    mkdirSync(cwd, { recursive: true });
    const report = await explainPrompt(pinned(root, { cwd, deadlineMs: 1 }));
    expect(report.sections.length).toBeGreaterThan(0);
    expect(report.diagnostics.filter((d) => d.code === "rules-below-cwd-cut")).toEqual([
      {
        level: "warning",
        code: "rules-below-cwd-cut",
        message:
          "explain did not search the folders below cwd for rule files that come on touch: the deadline passed first; a longer --deadline searches them",
        path: cwd,
      },
    ]);
  }, 60_000);
});
