import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { tempDir } from "../api/_helpers.js";
import { put } from "./_nobody.js";

// rev82a F3: with the home folder a plain folder inside the checkout (`HOME=$PWD/home`,
// `HOME=$CI_PROJECT_DIR/home`), the door refuses an import of its files ("inside the home folder
// …, which a project above it never reaches"), but the workspace tree listed `home/`, your
// `Documents/TAXES-2026-PRIVATE.pdf` with its size and time. The tree asks the door's own rule.

describe("hostile repository: the workspace tree never lists a home folder inside the project", () => {
  it("tree-home-inside-project: the home folder and its files are not listed, trusted or not", async () => {
    const project = join(tempDir(), "f2");
    const home = join(project, "home");
    put(join(project, "AGENTS.md"), "See @home/Documents/TAXES-2026-PRIVATE.pdf\n");
    put(join(project, "src", "main.c"), "int main;\n");
    put(join(home, "Documents", "TAXES-2026-PRIVATE.pdf"), "x\n");
    put(join(home, "notes", "AGENTS.md"), "HOME-NOTES\n");
    execFileSync("git", ["init", "-q", project]);
    for (const trusted of [true, false]) {
      const tree = await buildWorkspaceTree(project, {
        mtime: "2026-01-01T00:00:00Z",
        home,
        projectTrusted: trusted,
      });
      expect(tree.rendered).toContain("main.c");
      expect(tree.rendered).not.toContain("TAXES");
      expect(tree.rendered).not.toContain("Documents");
      expect(tree.agentsMd).not.toContain("home/notes/AGENTS.md");
    }
    // From the home folder itself, its plain files are listed as before (the home is the root).
    const own = await buildWorkspaceTree(home, { mtime: "2026-01-01T00:00:00Z", home });
    expect(own.rendered).toContain("TAXES-2026-PRIVATE.pdf");
  });
});
