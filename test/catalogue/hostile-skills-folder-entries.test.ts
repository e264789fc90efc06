import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAX_SKILL_FOLDER_ENTRIES, walkSkillsRoot } from "../../src/skills/_walk.js";
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
  const fs = await importOriginal<typeof import("node:fs")>();
  const opendirSync = ((...args: Parameters<typeof fs.opendirSync>) => {
    const dir = fs.opendirSync(...args);
    const readSync = dir.readSync.bind(dir);
    dir.readSync = () => {
      const entry = readSync();
      if (entry) read.count++;
      return entry;
    };
    return dir;
  }) as typeof fs.opendirSync;
  return { ...fs, default: { ...fs, opendirSync }, opendirSync };
});

vi.setConfig({ testTimeout: 60_000 });

describe("hostile repository: a skills folder of very many entries", () => {
  it("is listed no further than the cap, with a warning", async () => {
    const base = tempDir();
    const root = join(base, "skills");
    mkdirSync(root, { recursive: true });
    const seed = join(base, "seed");
    writeFileSync(seed, "");
    const count = 2 * MAX_SKILL_FOLDER_ENTRIES;
    // Hard links to one file: quick to make, each one entry.
    for (let i = 0; i < count; i++) linkSync(seed, join(root, `f${i}`));

    read.count = 0;
    const { diagnostics } = await walkSkillsRoot(root);
    expect(read.count).toBeLessThanOrEqual(MAX_SKILL_FOLDER_ENTRIES + 1);
    expect(diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "skills-folder-too-large",
      root,
    ]);
  });
});
