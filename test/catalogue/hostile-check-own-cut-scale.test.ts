import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { checkProject } from "../../src/author/check/check.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `check` reads skills and slash-command templates within its budget (20 s,
// or the caller's signal). Stopped there by a repository's slow skills or
// templates, it kept none, yours with the repository's: your own skill and
// template were neither counted nor checked (review rev45b F7, which found
// the same in list and expand). What your folders gave, read first, is now
// kept. Here the project's skills root and templates answer after 4 s, and
// check's signal fires at 1.5 s.

const SLOW_MS = 4_000;

vi.mock("../../src/skills/_walk.js", async (importOriginal) => {
  const walk = await importOriginal<typeof import("../../src/skills/_walk.js")>();
  return {
    ...walk,
    walkSkillsRoot: async (...args: Parameters<typeof walk.walkSkillsRoot>) => {
      if (args[0].includes("/project/")) await new Promise((done) => setTimeout(done, SLOW_MS));
      return walk.walkSkillsRoot(...args);
    },
  };
});

vi.mock("../../src/repo-files/index.js", async (importOriginal) => {
  const files = await importOriginal<typeof import("../../src/repo-files/index.js")>();
  return {
    ...files,
    readRepoTexts: async (...args: Parameters<typeof files.readRepoTexts>) => {
      if (args[0].some((p) => p.includes("/project/.pi/prompts/"))) {
        await new Promise((done) => setTimeout(done, SLOW_MS));
      }
      return files.readRepoTexts(...args);
    },
  };
});

describe("hostile repository: slow skills and templates cut check's reading", () => {
  it("your own skill and template are still counted and checked", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "agent/skills/myskill/SKILL.md": "---\nname: myskill\ndescription: my skill\n---\nMine.\n",
      // A problem of yours that check reports: no description.
      "agent/skills/wrong/SKILL.md": "---\nname: wrong\n---\nMine.\n",
      "agent/prompts/mine.md": "---\ndescription: mine\n---\nDo $1 my way.\n",
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/skills/theirs/SKILL.md": "---\nname: theirs\ndescription: theirs\n---\nT.\n",
      "project/.pi/prompts/theirs.md": "---\ndescription: theirs\n---\nTheir way.\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const clean = await checkProject(pinned(root));
    const yours = clean.diagnostics.filter((d) => d.path?.includes("/agent/skills/wrong/"));
    // The premise: unhurried, check counts yours and theirs and reports your skill's problem.
    expect([clean.skills, clean.promptTemplates]).toEqual([2, 2]);
    expect(yours.length).toBeGreaterThan(0);

    const report = await checkProject({ ...pinned(root), signal: AbortSignal.timeout(1_500) });
    expect(report.diagnostics.filter((d) => d.code === "check-load-cut")).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^stopped reading the (skills, slash-command templates|slash-command templates, skills)[ ,]/,
        ),
      }),
    ]);
    expect([report.skills, report.promptTemplates]).toEqual([1, 1]);
    expect(report.diagnostics.filter((d) => d.path?.includes("/agent/skills/wrong/"))).toEqual(
      yours,
    );
  }, 60_000);
});
