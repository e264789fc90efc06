import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// pi hands over the skills it resolved (`options.skills`), and each was taken
// as the user's (`source: "option"`): a repository's own skills escaped the
// skills index's 1 MiB total and a budget's repository-first round (review
// rev35b). A host's skill whose real file lies in the project root is the
// project's now; one in your agent dir stays yours.

describe("hostile repository: a host's skills in the project are the project's", () => {
  it("2,000 project skills of 1 KB handed over by the host stop at the index's 1 MiB total", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/skills/mine/SKILL.md": "---\nname: mine\ndescription: mine\n---\n",
    });
    const options = pinned(root, { tools: ["read"] });
    const skills = [
      {
        name: "mine",
        description: "USER-SKILL-MARKER deploy staging",
        filePath: join(root, "agent/skills/mine/SKILL.md"),
      },
      ...Array.from({ length: 2000 }, (_, i) => ({
        name: `proj${i}`,
        description: `${"d".repeat(1000)} ${i}`,
        filePath: join(root, `project/.pi/skills/proj${i}/SKILL.md`),
      })),
    ];
    const result = await renderSystemPrompt({ ...options, skills });
    expect(result.text).toContain("USER-SKILL-MARKER");
    expect(result.text).toContain("proj0");
    expect(result.text).not.toContain("proj1999");
    expect(result.text.length).toBeLessThan(1.3 * 1024 * 1024);
  });
});
