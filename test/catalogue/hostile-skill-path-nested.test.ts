import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { expandSkillCommand } from "../../src/skills/expand.js";
import { loadSkills } from "../../src/skills/load.js";
import { pinned, tempDir } from "../api/_helpers.js";

// `skillPaths` (loadSkills' `paths`) naming the project's own skills folder (`skills`
// from its top, `../skills` from a subfolder of a tarball) was read as the user's: a
// SKILL.md the tree linked to a file out of it (another project's rule file, with a
// `description:`) was listed, its description in the prompt, untrusted too. A skill path
// into the project is now the project's, by the rule --append-system-prompt's path is
// (namedProjectPath): walked and read through the door within it. Review rev38d F4;
// from a clone of yours inside the tarball (services/mine), `../../skills` was still read
// as yours until a path out of a repository into the folder around it was that folder's
// (review rev39a F1).

function tree(root: string): string {
  const t = join(root, "project");
  const client = join(root, "home", "work", "client", ".cursor", "rules");
  mkdirSync(client, { recursive: true });
  writeFileSync(
    join(client, "deploy.mdc"),
    "---\ndescription: CLIENT-RULE-MARKER\n---\nCLIENT-BODY-MARKER token=abc\n",
  );
  mkdirSync(join(t, "skills", "s"), { recursive: true });
  mkdirSync(join(t, "skills", "plain"), { recursive: true });
  mkdirSync(join(t, "src"), { recursive: true });
  symlinkSync(join(client, "deploy.mdc"), join(t, "skills", "s", "SKILL.md"));
  writeFileSync(
    join(t, "skills", "plain", "SKILL.md"),
    "---\nname: plain\ndescription: PLAIN-TREE-MARKER\n---\nPLAIN-BODY\n",
  );
  return t;
}

describe("hostile-skill-path-nested: a skill path into the project is the project's", () => {
  for (const [where, sub, named] of [
    ["from the top", "", "skills"],
    ["from a tarball's subfolder", "src", "../skills"],
    // Your own clone in a tarball's services/, as its README says (review rev39a F1).
    ["from your clone in a tarball's subfolder", "services/mine", "../../skills"],
  ] as const) {
    it(`${where}: a SKILL.md linked out of the tree is not read; the tree's own skill is the project's`, async () => {
      const root = tempDir();
      const t = tree(root);
      const cwd = join(t, sub);
      if (sub.startsWith("services")) {
        mkdirSync(join(cwd, ".git"), { recursive: true });
        writeFileSync(join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
      }
      const result = await renderSystemPrompt(
        pinned(root, { cwd, projectTrusted: false, skillPaths: [named], tools: ["read"] }),
      );
      expect(result.text).not.toContain("CLIENT-RULE-MARKER");
      expect(result.diagnostics.map((d) => d.code)).toContain("file-outside-project");
      expect(result.text).toContain("PLAIN-TREE-MARKER");
      const opts = { cwd, home: join(root, "home"), env: {} };
      const loaded = await loadSkills({ ...opts, projectTrusted: false, paths: [named] });
      expect(loaded.skills.map((s) => `${s.name}:${s.source}`)).toEqual(["plain:project"]);
      // Expanded from the same folder, read again within the tree.
      expect(expandSkillCommand("/skill:plain", loaded.skills, opts)).toContain("PLAIN-BODY");
    });
  }

  it("your own skills folder named by path stays yours, through your link", async () => {
    const root = tempDir();
    const t = tree(root);
    const real = join(root, "home", "Dropbox", "skills", "mine");
    mkdirSync(real, { recursive: true });
    writeFileSync(join(real, "SKILL.md"), "---\nname: mine\ndescription: MY-SKILL-MARKER\n---\n");
    symlinkSync(join(root, "home", "Dropbox", "skills"), join(root, "home", "myskills"));
    const loaded = await loadSkills({
      cwd: join(t, "src"),
      home: join(root, "home"),
      env: {},
      projectTrusted: false,
      paths: ["~/myskills"],
    });
    expect(loaded.skills.map((s) => `${s.name}:${s.source}`)).toEqual(["mine:option"]);
  });
});
