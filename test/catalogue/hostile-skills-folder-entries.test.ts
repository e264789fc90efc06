import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAX_SKILL_FOLDER_ENTRIES, walkSkillsRoot } from "../../src/skills/_walk.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// A skills walk capped the folders it enters (5,000), not the entries of
// one folder: a trusted project's .pi/skills linked to a folder of a
// million files was listed whole (198 MB), then sorted in one synchronous
// call that held the deadline's timer 750 ms past it. A skills folder holds
// some dozens of skills; one of more than MAX_SKILL_FOLDER_ENTRIES entries
// is not listed further, with a warning.

/** Entries read from folder handles. */
const read = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), { entry: () => read.count++ });
});

vi.setConfig({ testTimeout: 60_000 });

describe("hostile repository: a skills folder of very many entries", () => {
  it("is listed no further than the cap, with a warning", async () => {
    const base = tempDir();
    const root = join(base, "skills");
    bigFolder(root, 2 * MAX_SKILL_FOLDER_ENTRIES);

    read.count = 0;
    const { diagnostics } = await walkSkillsRoot(root);
    // The spy heard the listing (a count of 0 would pass the bound for nothing).
    expect(read.count).toBeGreaterThan(0);
    expect(read.count).toBeLessThanOrEqual(MAX_SKILL_FOLDER_ENTRIES + 1);
    expect(diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "skills-folder-too-large",
      root,
    ]);
  });
});
