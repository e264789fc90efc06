import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Review rev104a F4 (low): the workspace tree's warning for a context file
// that is a link out of the project to a file of yours (`sub/AGENTS.md ->
// ~/.bashrc`) gave the hard-link advice, naming your file ("cp .bashrc
// .bashrc.tmp && mv …"), when `~/.bashrc` had several names: the tree
// counted the target's names before asking where the link leads. The door
// asks where first; its one order (`listedRefusal`, src/repo-files/reach.ts)
// now judges the tree's links too: the link out is refused as a link out,
// whatever its target's link count.

describe("hostile repository: a context file linked out of the project to a file of yours with several names", () => {
  it("is refused in the tree as a link out, with no advice naming your file", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const home = join(root, "home");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "sub"), { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, ".bashrc"), "export TOKEN=secret\n");
    linkSync(join(home, ".bashrc"), join(home, ".bashrc.bak"));
    symlinkSync(join(home, ".bashrc"), join(project, "sub", "AGENTS.md"));
    writeFileSync(join(project, "AGENTS.md"), "# Root\n");
    for (const trusted of [true, false]) {
      const result = await renderSystemPrompt(
        pinned(root, { cwd: project, workspaceTree: true, projectTrusted: trusted }),
      );
      const said = result.diagnostics.find((d) => d.code === "agents-md-link-refused");
      expect(said?.path).toBe(join(project, "sub", "AGENTS.md"));
      expect(said?.message).toContain(
        `sub/AGENTS.md (the first: it resolves to ${join(home, ".bashrc")}, outside the project root ${project}`,
      );
      expect(said?.message).not.toMatch(/names|\.bashrc\.tmp/);
      expect(result.text).not.toContain("secret");
    }
  });

  it("a project's own file with several names is still refused for them", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "sub"), { recursive: true });
    writeFileSync(join(project, "notes.md"), "notes\n");
    linkSync(join(project, "notes.md"), join(project, "other.md"));
    symlinkSync(join(project, "notes.md"), join(project, "sub", "AGENTS.md"));
    const result = await renderSystemPrompt(pinned(root, { cwd: project, workspaceTree: true }));
    const said = result.diagnostics.find((d) => d.code === "agents-md-link-refused");
    expect(said?.message).toContain("(the first: it has 2 names (hard links to one file)");
  });
});
