import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import {
  MAX_SKILL_WALK_FOLDERS,
  MAX_UNREADABLE_NAMED,
  walkSkillsRoot,
} from "../../src/skills/_walk.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50b F8 (MEDIUM): 133,000 folders with names that are not UTF-8 under a trusted
// project's `.pi/skills` gave one `name-not-utf8` diagnostic each (the walk's 5,000-folder cap
// did not count folders it could not list), and `diagnostics.push(...found.diagnostics)`
// overflowed the stack: the skills step failed, and its fallback, no skills, took yours out of
// the prompt too. Now a folder that cannot be listed counts against the cap, the first few are
// named and the rest counted in one line, and a failed step keeps what it had read (yours).

vi.setConfig({ testTimeout: 60_000 });

const USER_SKILL = "USER-SKILL-MARKER deploy the staging cluster safely";

function undecodable(root: string, count: number): void {
  mkdirSync(root, { recursive: true });
  for (let i = 0; i < count; i++) {
    mkdirSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xff]), Buffer.from(`${i}`)]));
  }
}

describe("hostile repository: a skills root of folders that cannot be read", () => {
  it("counts them against the walk's folder cap and names only the first few", async () => {
    const root = join(tempDir(), "skills");
    undecodable(root, MAX_SKILL_WALK_FOLDERS + 10);
    const { diagnostics } = await walkSkillsRoot(root);
    expect(diagnostics.map((d) => d.code)).toEqual([
      ...Array(MAX_UNREADABLE_NAMED).fill("name-not-utf8"),
      "skills-dir-unreadable",
      "skills-walk-limit",
    ]);
    // The root itself was listed: one folder of the cap.
    expect(diagnostics[MAX_UNREADABLE_NAMED]?.message).toMatch(
      new RegExp(`^${MAX_SKILL_WALK_FOLDERS - 1 - MAX_UNREADABLE_NAMED} more folders`),
    );
  });

  it("a render keeps your skill and says it in a dozen lines, not thousands", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/skills/mine/SKILL.md": `---\nname: mine\ndescription: ${USER_SKILL}\n---\nbody\n`,
    });
    for (let g = 0; g < 3; g++) undecodable(join(root, `project/.pi/skills/g${g}`), 2000);
    const result = await renderSystemPrompt({ ...pinned(root), deadlineMs: 30_000 });
    expect(result.text).toContain(USER_SKILL);
    expect(result.diagnostics.filter((d) => d.code === "step-failed")).toEqual([]);
    expect(result.diagnostics.filter((d) => d.code === "name-not-utf8")).toHaveLength(
      MAX_UNREADABLE_NAMED,
    );
    expect(result.diagnostics.filter((d) => d.code === "skills-walk-limit")).toHaveLength(1);
  });
});
