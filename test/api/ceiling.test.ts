import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "./_helpers.js";

/**
 * `<root>/above/` holds an AGENTS.md, a `.git`, a skill and a `.gitignore`;
 * `<root>/above/ceiling/project` is cwd. Rendered with and without
 * `ceilingDir: <root>/above/ceiling`.
 */
function planted(): { root: string; ceiling: string } {
  const root = tempDir();
  const above = join(root, "above");
  const ceiling = join(above, "ceiling");
  // A git folder as git tells one (HEAD, objects/, refs/): an empty `.git` is no repository to git.
  mkdirSync(join(above, ".git", "objects"), { recursive: true });
  mkdirSync(join(above, ".git", "refs"));
  writeFileSync(join(above, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(above, "AGENTS.md"), "PLANTED ABOVE\n");
  writeFileSync(join(above, ".gitignore"), "hidden-by-above.txt\n");
  const skill = join(above, ".agents", "skills", "planted");
  mkdirSync(skill, { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: planted\ndescription: A planted skill.\n---\nx\n",
  );
  mkdirSync(join(ceiling, "project"), { recursive: true });
  writeFileSync(join(ceiling, "project", "hidden-by-above.txt"), "x\n");
  return { root, ceiling };
}

describe("ceilingDir: nothing above it is looked at", () => {
  it("no context file, .git, .agents/skills or .gitignore above the ceiling counts", async () => {
    const { root, ceiling } = planted();
    const options = {
      ...pinned(ceiling),
      agentDir: join(ceiling, "agent"),
      // Outside `above`: a project root that holds the home folder is narrowed to cwd.
      home: join(root, "home"),
      workspaceTree: true,
      treeMtime: "2026-01-01T00:00:00Z",
    };
    const without = (await renderSystemPrompt(options)).text;
    const within = (await renderSystemPrompt({ ...options, ceilingDir: ceiling })).text;
    // Without a ceiling, each of them shows (so the test can fail).
    expect([
      without.includes("PLANTED ABOVE"),
      without.includes("A planted skill."),
      without.includes("hidden-by-above.txt"),
    ]).toEqual([true, true, false]);
    expect([
      within.includes("PLANTED ABOVE"),
      within.includes("A planted skill."),
      within.includes("hidden-by-above.txt"),
    ]).toEqual([false, false, true]);
  });

  it("must be a path", async () => {
    const { ceiling } = planted();
    await expect(
      renderSystemPrompt({ ...pinned(ceiling), ceilingDir: 3 as unknown as string }),
    ).rejects.toThrow(/ceilingDir/);
  });
});
