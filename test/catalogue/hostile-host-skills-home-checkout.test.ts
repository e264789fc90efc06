import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { preparePrompt } from "../../src/render-system-prompt.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// pi hands over the skills it resolved, and a host's skill whose real file
// lies in the project root is the project's (hostile-host-skills-project-scale),
// except the home folder's hidden entries when the root is the home folder.
// With HOME at the checkout's root (a dev container's HOME=$PWD), the
// project's own .pi/skills and .agents/skills are such entries: they were the
// user's, outside the skills index's 1 MiB total and the budget's
// repository-first round (review rev36b, a12). A home folder that is the
// repository around cwd is the project's whole, from a subfolder too.

const SKILL = "---\ndescription: d\n---\nbody\n";

describe("hostile repository: a host's skills when the home folder is the checkout", () => {
  it("its .pi/skills and .agents/skills are the project's; a skill outside it stays yours", async () => {
    const root = tempDir();
    const project = join(root, "p");
    writeFiles(root, {
      "p/.git/HEAD": "ref: refs/heads/main\n",
      "p/src/main.ts": "",
      "p/.pi/skills/a/SKILL.md": SKILL,
      "p/.agents/skills/b/SKILL.md": SKILL,
      "p/skills/c/SKILL.md": SKILL,
      "agent/skills/mine/SKILL.md": SKILL,
    });
    const skills = [
      { name: "a", description: "d", filePath: join(project, ".pi/skills/a/SKILL.md") },
      { name: "b", description: "d", filePath: join(project, ".agents/skills/b/SKILL.md") },
      { name: "c", description: "d", filePath: join(project, "skills/c/SKILL.md") },
      { name: "mine", description: "d", filePath: join(root, "agent/skills/mine/SKILL.md") },
    ];
    for (const cwd of [project, join(project, "src")]) {
      const prepared = await preparePrompt({
        cwd,
        home: project,
        env: {},
        skills,
        tools: ["read"],
      });
      const origins = prepared.data.skills.map((s) => `${s.name}:${s.origin}`);
      // Yours first in the index (rev50c F5).
      expect(origins, cwd).toEqual(["mine:user", "a:project", "b:project", "c:project"]);
    }
    // With the home folder elsewhere, the same skills are classified as before.
    const prepared = await preparePrompt({
      cwd: project,
      home: join(root, "home"),
      env: {},
      skills,
      tools: ["read"],
    });
    expect(prepared.data.skills.map((s) => s.origin)).toEqual([
      "user",
      "project",
      "project",
      "project",
    ]);
  });
});
