import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { gatherGit } from "../../src/gather/git/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, repoAt, SYSTEM } from "./_git.js";

// Real git over a status of hundreds of kilobytes: seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

// git status prints one record per changed path; sysprompt reads 256 KiB of
// it. A longer list is counted from the part read, and the data says so:
// the counts are lower bounds, and the section says "at least".

/** Untracked files whose `? <name>\0` records add up to more than 256 KiB. */
const FILES = 2800;
const NAME = (i: number) => `${String(i).padStart(5, "0")}-${"n".repeat(100)}.txt`;

describe("git status over the read cap", () => {
  it("counts from the part read are marked as lower bounds, in the data and in the section", async () => {
    const root = realpathSync(tempDir());
    const project = repoAt(join(root, "project"), "main", "Own");
    for (let i = 0; i < FILES; i++) writeFileSync(join(project, NAME(i)), "");
    const found = await gatherGit({ cwd: project, env: SYSTEM, exclude: [project] });
    const untracked = found.git?.untracked ?? 0;
    // 256 KiB of `? <name>\0` records, give or take the headers and the record cut in two.
    const records = Math.floor((256 * 1024) / (NAME(0).length + 3));
    expect([found.git?.truncated, Math.abs(untracked - records) <= 1]).toEqual([true, true]);
    expect(untracked).toBeLessThan(FILES);
    const result = await renderSystemPrompt(pinned(root, { cwd: project, env: SYSTEM, git: true }));
    const files = result.sections
      .find((s) => s.name === "git")
      ?.text.split("\n")
      .find((l) => l.startsWith("- Files"));
    expect(files).toBe(
      `- Files (at least: git listed more changes than are read): 0 staged, 0 changed but not staged, ${untracked} untracked`,
    );
  });

  it("a list under the cap is counted whole and not marked", async () => {
    const root = realpathSync(tempDir());
    const project = repoAt(join(root, "project"), "main", "Own");
    mkdirSync(join(project, "d"));
    for (let i = 0; i < 10; i++) writeFileSync(join(project, NAME(i)), "");
    git(project, "add", NAME(0));
    const found = await gatherGit({ cwd: project, env: SYSTEM, exclude: [project] });
    expect([found.git?.staged, found.git?.untracked, found.git?.truncated]).toEqual([1, 9, false]);
  });
});
