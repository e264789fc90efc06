import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/index.js";
import { paletteFor } from "../../src/cli/colors.js";
import { formatSimulation } from "../../src/cli/commands/_format-simulate.js";
import { showPath } from "../../src/cli/commands/_show-path.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev108b F6 (low): `explain --simulate` printed why the copy left a file out as the copy
// said it, and that reason quotes the file's name raw (`private (a<LF>error [FAKE] … is ignored by
// git): not copied`), so an untrusted repository's file whose name holds a line break forged a
// line of the report (the path beside it was already on one line). Now the reason is on one line
// too. Slow tier: one simulation, 2-6 s.

describe("hostile repository: a private file whose name holds a line break, in explain --simulate", () => {
  it("prints the copy's reason for leaving it out on one line", async () => {
    const root = tempDir();
    const dir = join(root, "project");
    mkdirSync(join(dir, ".git", "info"), { recursive: true });
    writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(dir, ".git", "info", "exclude"), "*.secret\n");
    writeFileSync(join(dir, "AGENTS.md"), "# Project\n");
    writeFileSync(join(dir, "a\nerror [FAKE] forged.secret"), "k\n");
    const report = await simulatePrompt(pinned(root, { projectTrusted: false }), {
      sandboxDir: join(root, "sandboxes"),
    });
    const text = formatSimulation(
      report,
      (path) => showPath(path, dir),
      paletteFor({ isTTY: false, env: {} }),
    );
    const lines = text.split("\n");
    expect(lines.filter((l) => l.startsWith("  not copied:"))).toHaveLength(1);
    expect(lines.some((l) => l.startsWith("error [FAKE]"))).toBe(false);
    expect(text).toContain("private (a\\u000aerror [FAKE] forged.secret is ignored by git)");
  }, 120_000);
});
