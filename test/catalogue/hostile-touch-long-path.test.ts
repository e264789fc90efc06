import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { tempDir } from "../api/_helpers.js";

// A tool path comes from the agent's side (a model steered by the repository
// it reads). One missing path was resolved a folder at a time, each step
// building the next path: its length squared. A path of 16,000 folders
// (32 KB) held one call for 13 s, 30,000 for 29 s, in a pi session's tool
// result or a host's session.contextFor. No file's path is longer than
// PATH_MAX (4096), so a longer one is answered at once.

/** Far above looking at a few paths on a loaded machine, far below what the walk up took. */
const BOUND_MS = 2000;

describe("hostile repository: a touched path longer than any file's", () => {
  it("a 32 KB path: answered at once with touch-unresolvable; a path within the bound still works", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "a"), { recursive: true });
    writeFileSync(join(project, "a", "AGENTS.md"), "Nested.\n");
    const options = { cwd: project, home: join(root, "home") };
    const long = `${"a/".repeat(16_000)}x.ts`;
    const started = performance.now();
    const got = await loadContextForPaths([long], options);
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    const abs = join(project, long);
    expect(got).toEqual({
      files: [],
      diagnostics: [
        {
          level: "info",
          code: "touch-unresolvable",
          // Measured as written, before it is resolved (rev79h F3).
          message: `nothing loaded for this path: it is ${long.length} characters long as written, and no file's path is longer than 4096`,
          path: abs.slice(0, 200),
        },
      ],
    });
    const near = await loadContextForPaths(["a/missing/x.ts"], options);
    expect(near.files).toEqual([
      { path: join(project, "a", "AGENTS.md"), content: "Nested.", kind: "context" },
    ]);
  }, 120_000);
});
