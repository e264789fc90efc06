import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_TOTAL_CONTEXT_BYTES } from "../../src/gather/context/_context-total.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Before the total cap and the shared reads, ten folders each importing the
// same hundred 256 KiB files took 25 s and 2.7 GB, and the section then went
// over the render cap and was dropped whole, the user's own file with it.
// Now each file is read once and the text is bounded before dedupe and rules
// see it. The bound is wide (a 2-core machine shared by eight runs): the
// point is seconds, not tens of them.
const SLACK_MS = 10_000;
const LEVELS = 10;
const IMPORTS = 100;
const KIB = 1024;

describe("ten levels of context files importing the same hundred large files", () => {
  it("render in seconds, within the total cap, keeping the user's file", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "big"));
    for (let i = 0; i < IMPORTS; i++) {
      // Distinct paragraphs in each file, so dedupe has real work.
      const lines = Array.from({ length: 256 }, (_, l) => `f${i} p${l} ${"w ".repeat(500)}\n\n`);
      writeFileSync(join(project, "big", `f${i}.md`), lines.join("").slice(0, 256 * KIB));
    }
    const imports = Array.from({ length: IMPORTS }, (_, i) => `@${project}/big/f${i}.md`).join(
      "\n",
    );
    let dir = project;
    for (let level = 0; level < LEVELS; level++) {
      writeFileSync(join(dir, "AGENTS.md"), `Level ${level}.\n\n${imports}\n`);
      dir = join(dir, `l${level}`);
      mkdirSync(dir);
    }
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "AGENTS.md"), "Answer in French.\n");
    const started = performance.now();
    const result = await renderSystemPrompt(pinned(root, { cwd: dir, deadlineMs: 60_000 }));
    const elapsed = performance.now() - started;
    const section = result.sections.find((s) => s.name === "project_context")?.text ?? "";
    expect(section).toContain("<user_instructions");
    expect(section).toContain("Answer in French.");
    expect(Buffer.byteLength(section)).toBeLessThan(DEFAULT_MAX_TOTAL_CONTEXT_BYTES + 64 * KIB);
    expect(result.diagnostics.filter((d) => d.code === "context-total-cut").length).toBeGreaterThan(
      0,
    );
    expect(elapsed).toBeLessThan(SLACK_MS);
  }, 120_000);
});
