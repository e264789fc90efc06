import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { denseFile, denseParseMs } from "./_dense-yaml.js";

// A trusted project's .pi/sections and .pi/partials are read until they hold
// 8 MiB together, and each file's frontmatter was parsed in one synchronous
// loop that heard no deadline. Under every YAML limit, a 32 KiB flow list
// `x: [a,a,a,…]` takes yaml 60-230 ms to parse, so 259 such sections (8 MiB)
// held `render --deadline 1000` for 42 s (the review's attack14; 41 s for
// `sections`, 70 s for `explain`), and `check`, which reads the layer with no
// budget, for 76 s. The loops now hear the render's signal (check's load
// budget) between two files.

// Parsed whole, some 200 × 50 ms here: far past the deadline however loaded the machine is.
const FILES = 200;
const DEADLINE_MS = 300;

/** A trusted project whose `folder` holds FILES dense files; the ms one parse of them takes here. */
function denseProject(folder: "sections" | "partials"): { root: string; parseMs: number } {
  const root = tempDir();
  const dir = join(root, "project", ".pi", folder);
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, "project", ".git"));
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(dir, `s${i}.md`), denseFile(`order: ${i}\n`, `Dense ${i}.`));
  }
  return { root, parseMs: denseParseMs() };
}

describe("hostile repository: a layer folder of dense YAML frontmatter", () => {
  // A first render loads what every render needs (the tokenizer, the builtin layer): not timed.
  beforeAll(async () => {
    await renderSystemPrompt(pinned(tempDir()));
  }, 60_000);

  it.each(["sections", "partials"] as const)(
    "is parsed no further than the render's deadline (%s)",
    async (folder) => {
      const { root, parseMs } = denseProject(folder);
      // The premise: parsed whole, the folder takes several deadlines.
      expect(parseMs * FILES).toBeGreaterThan(3 * DEADLINE_MS);
      const started = performance.now();
      const result = await renderSystemPrompt(pinned(root, { deadlineMs: DEADLINE_MS }));
      const took = performance.now() - started;
      expect(result.steps.find((s) => s.name === "project")?.status).toBe("timeout");
      // The deadline, then one parse in progress, the other steps and the render: far from all parses.
      expect(took).toBeLessThan((parseMs * FILES) / 2);
    },
    60_000,
  );

  it("check stops parsing the project's sections at its signal, and says so", async () => {
    const { root, parseMs } = denseProject("sections");
    expect(parseMs * FILES).toBeGreaterThan(3 * DEADLINE_MS);
    const started = performance.now();
    const report = await checkProject({
      ...pinned(root),
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    const took = performance.now() - started;
    const cut = report.diagnostics.filter((d) => d.code === "check-load-cut");
    expect(cut.map((d) => d.message)).toEqual([
      expect.stringMatching(/^stopped reading the .*project's sections and partials/),
    ]);
    expect(took).toBeLessThan((parseMs * FILES) / 2);
  }, 60_000);
});
