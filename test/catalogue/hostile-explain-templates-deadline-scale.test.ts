import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { explainPrompt } from "../../src/author/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { denseFile, denseParseMs } from "./_dense-yaml.js";

// explain and watch read the slash-command templates beside their render,
// with no deadline: a trusted project's .pi/prompts is read to 8 MiB, and
// 259 templates of dense YAML frontmatter (see _dense-yaml.ts) held
// `explain --deadline 1000` for 30 s after its render (the review's
// attack14), and every re-render of `watch` as long. They are read within
// what the render left of its deadline, and past it not at all, with a
// `load-deadline` warning.

const FILES = 200;
const DEADLINE_MS = 300;

describe("hostile repository: slash-command templates of dense YAML beside a render", () => {
  // A first explain loads what every one needs (the tokenizer, the builtin layer): not timed.
  beforeAll(async () => {
    await explainPrompt(pinned(tempDir()));
  }, 60_000);

  it("explain reads them no further than the render's deadline, and says so", async () => {
    const root = tempDir();
    const dir = join(root, "project", ".pi", "prompts");
    mkdirSync(dir, { recursive: true });
    mkdirSync(join(root, "project", ".git"));
    for (let i = 0; i < FILES; i++) {
      writeFileSync(join(dir, `p${i}.md`), denseFile(`description: p${i}\n`, `Prompt ${i} $1.`));
    }
    const parseMs = denseParseMs();
    // The premise: read whole, the templates take several deadlines.
    expect(parseMs * FILES).toBeGreaterThan(3 * DEADLINE_MS);
    const started = performance.now();
    const report = await explainPrompt(pinned(root, { deadlineMs: DEADLINE_MS }));
    const took = performance.now() - started;
    expect(report.templates.promptTemplates).toBe(0);
    expect(report.diagnostics.filter((d) => d.code === "load-deadline")).toEqual([
      {
        level: "warning",
        code: "load-deadline",
        message: expect.stringMatching(
          /^stopped reading the slash-command templates at the \d+ ms deadline/,
        ),
      },
    ]);
    expect(took).toBeLessThan((parseMs * FILES) / 2);
  }, 60_000);

  it("explain counts a project's few templates as before", async () => {
    const root = tempDir();
    const dir = join(root, "project", ".pi", "prompts");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "review.md"), "---\ndescription: Review\n---\nReview $1.\n");
    const report = await explainPrompt(pinned(root));
    expect(report.templates.promptTemplates).toBe(1);
    expect(report.diagnostics.filter((d) => d.code === "load-deadline")).toEqual([]);
  });
});
