import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { readScenario } from "../../src/author/snapshot/_scenario.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

// Review rev50d F7 (low): one file whose name is not UTF-8 (a Latin-1 name,
// `src/data\xff.bin`, read by nothing) stopped `explain --simulate` whole:
// "nothing simulated … gone while it was copied", wrong, since the file is there
// and only its name cannot be opened. Now it is left out of the copy (the render
// in the copy cannot read it either, as the real render cannot), named in
// `skipped` with why, and the simulation goes on; `snapshot` said such a
// scenario file was "no such file".

const SLOW = 120_000;

describe("hostile repository: a file name that is not UTF-8 in explain --simulate", () => {
  it(
    "is left out of the copy with its reason, and the project is simulated",
    async () => {
      const root = tempDir();
      const dir = join(root, "project");
      cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
      mkdirSync(join(dir, ".git"));
      // A name Node lists as `data\uFFFD.bin` and cannot open by that name.
      writeFileSync(Buffer.from(join(dir, "src", "data\xff.bin"), "latin1"), "x");
      const report = await simulatePrompt(pinned(root), {
        sandboxDir: join(root, "sandboxes"),
        session: false,
      });
      expect(report.skipped).toEqual([
        {
          path: join(dir, "src", "data\uFFFD.bin"),
          reason:
            "its name is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it",
        },
      ]);
      expect(report.actions.find((a) => a.action === "source-edited")?.detail).toBe("src/main.ts");
    },
    SLOW,
  );

  it("snapshot says such a scenario file cannot be opened by its name, not that it is missing", async () => {
    const root = tempDir();
    writeFileSync(Buffer.from(join(root, "s\xff.scenario.yaml"), "latin1"), "tools: [read]\n");
    await expect(readScenario(join(root, "s\uFFFD.scenario.yaml"))).rejects.toThrow(
      /cannot read it: the name of this file is not valid UTF-8 \(shown with U\+FFFD\), so it cannot be opened by that name; rename it/,
    );
  });
});
