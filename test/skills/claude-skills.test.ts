import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { loadSkills } from "../../src/skills/index.js";
import { copyFixture, skillAt } from "./_helpers.js";

describe(".claude/skills (Claude Code's folder)", () => {
  test("is searched in cwd and each ancestor up to the git root, after .agents/skills of the same folder", async () => {
    const t = copyFixture("claude-skills");
    mkdirSync(join(t, "repo/.git"));
    const p = (rel: string) => join(t, "repo", rel, "SKILL.md");
    const result = await loadSkills({
      cwd: join(t, "repo/app"),
      agentDir: join(t, "home/.pi/agent"),
      home: join(t, "home"),
    });
    expect(result).toEqual({
      skills: [
        skillAt(p(".agents/skills/review"), "review", "Review a change (.agents copy).", "project"),
        skillAt(p(".claude/skills/triage"), "triage", "Triage an incoming issue.", "project"),
      ],
      diagnostics: [
        {
          level: "warning",
          code: "name-collision",
          message: `skill "review": ${p(".agents/skills/review")} (project) wins over ${p(".claude/skills/review")} (project)`,
          path: p(".claude/skills/review"),
        },
      ],
    });
  });

  test("is a project folder: skipped for an untrusted project", async () => {
    const t = copyFixture("claude-skills");
    mkdirSync(join(t, "repo/.git"));
    const result = await loadSkills({
      cwd: join(t, "repo"),
      agentDir: join(t, "home/.pi/agent"),
      home: join(t, "home"),
      projectTrusted: false,
    });
    expect(result.skills).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.path])).toContainEqual([
      "project-untrusted",
      join(t, "repo/.claude/skills"),
    ]);
  });
});
