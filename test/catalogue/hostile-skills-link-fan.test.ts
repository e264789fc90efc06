import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { walkSkillsRoot } from "../../src/skills/_walk.js";
import { tempDir } from "../api/_helpers.js";

// A skills root follows links, and enters each real folder once. But the
// walk listed a folder before it asked whether its real path had been
// entered already: 3,000 links to one folder of 5,000 files listed 15
// million entries, the 5,000-folder cap never counted them, and a trusted
// project's render lost every skill to the step's deadline (3.2 s at
// --deadline 3000, the real skill after the links never found). A folder
// already entered is now passed over before it is listed.

/** Entries read from folder handles or whole listings, per folder path. */
const read = vi.hoisted(() => ({ byPath: new Map<string, number>() }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), {
    entry: (path) => read.byPath.set(path, (read.byPath.get(path) ?? 0) + 1),
    // A small folder is read in one call.
    whole: (path, count) => read.byPath.set(path, (read.byPath.get(path) ?? 0) + count),
  });
});

describe("hostile repository: many links in a skills root to one folder", () => {
  it("list that folder once, and the skill after them is found", async () => {
    const project = join(tempDir(), "project");
    const big = join(project, "big");
    const root = join(project, ".pi", "skills");
    mkdirSync(big, { recursive: true });
    for (let i = 0; i < 300; i++) writeFileSync(join(big, `f${i}`), "");
    mkdirSync(join(root, "zz-skill"), { recursive: true });
    writeFileSync(join(root, "zz-skill", "SKILL.md"), "---\nname: zz-skill\ndescription: d\n---\n");
    for (let i = 0; i < 200; i++)
      symlinkSync("../../big", join(root, `l${String(i).padStart(3, "0")}`));

    const { candidates } = await walkSkillsRoot(root);
    expect(candidates.map((c) => c.filePath)).toEqual([join(root, "zz-skill", "SKILL.md")]);
    // Every listing in all: since rev89h F1 a folder is listed through the descriptor the walk
    // holds (`/proc/self/fd/N`), not by the link's path, so the entries are counted together.
    const listed = [...read.byPath].reduce((sum, [, n]) => sum + n, 0);
    // One link's listing of the 300 files (with the root's 201 and the skill's 1), not 200 of
    // them (60,000 entries).
    expect(listed).toBeGreaterThanOrEqual(300);
    expect(listed).toBeLessThan(1000);
  });
});
