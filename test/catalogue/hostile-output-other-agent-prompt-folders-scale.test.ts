import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev57a F4 through the CLI: `-o .github/agents/helper.agent.md` and
// `-o docs/.github/notes.md` exited 2 as GitHub's configuration. `.github` is judged at the top
// of the repository it lies in: the project's and a nested clone's are GitHub's, a subfolder's not.

describe("hostile-output-other-agent-prompt-folders: -o into another agent's prompt folder (slow tier: CLI runs)", () => {
  it("a Copilot agent file and docs/.github are written; the top's and a clone's workflows are not", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "p/sub/.git", "p/src", "home", "agent"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    const p = join(root, "p");
    for (const file of [".github/agents/helper.agent.md", "docs/.github/notes.md"]) {
      const out = await cli(root, p, ["render", "-o", file]);
      expect([file, out.code]).toEqual([file, 0]);
      expect(existsSync(join(p, file))).toBe(true);
    }
    for (const file of ["sub/.github/workflows/x.yml", ".github/workflows/x.yml"]) {
      const out = await cli(root, p, ["render", "-o", file]);
      expect([file, out.code]).toEqual([file, 2]);
      expect(out.stderr).toContain("GitHub's configuration (.github/workflows/x.yml");
      expect(existsSync(join(p, file))).toBe(false);
    }
    const up = await cli(root, join(p, "src"), ["render", "-o", "../.github/workflows/y.yml"]);
    expect(up.code).toBe(2);
  });
});
