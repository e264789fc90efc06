import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// rev98a F2 (medium): the door refuses a repository's file with more than one name (rev96a F1),
// but an ignore file was read whatever its link count. A project `.gitignore` that is a second
// name of your `~/.bashrc` (a tarball's hard-link member naming `../home/.bashrc`) made your lines
// git patterns: the workspace tree left out exactly the file named like one of your lines
// (`HISTSIZE=10000`) and listed the wrong guesses, and `--untrusted` refused that import as
// "ignored by git" while it inlined a wrong guess: one bit per guessed name reached the prompt.
// A shipped `.git/info/exclude` that is a hard link did the same, and so did one that is a
// symbolic link out of the repository's git folder. Such a file is now an ignore file not read
// whole: its names shown in the tree, said so, and the door refuses below it under --untrusted,
// a right guess and a wrong one alike. A link within the git folder is still followed.

const LINE = "HISTSIZE=10000";
const GUESSES = [LINE, "HISTSIZE=5000", "HISTSIZE=1000"];

type Shape = "gitignore-hard" | "exclude-hard" | "exclude-symlink-out";

function project(shape: Shape): { root: string; project: string } {
  const root = tempDir();
  const project = join(root, "project");
  writeFiles(root, { "home/.bashrc": `export ${LINE}\n${LINE}\nalias ll='ls -l'\n` });
  mkdirSync(project, { recursive: true });
  execFileSync("git", ["init", "-q", project]);
  const files: Record<string, string> = {
    "AGENTS.md": "# Notes\n@HISTSIZE=10000\n\n@HISTSIZE=5000\n",
  };
  for (const g of GUESSES) files[g] = `guess ${g}\n`;
  writeFiles(project, files);
  const bashrc = join(root, "home/.bashrc");
  const exclude = join(project, ".git/info/exclude");
  mkdirSync(join(project, ".git/info"), { recursive: true });
  if (shape === "gitignore-hard") linkSync(bashrc, join(project, ".gitignore"));
  else {
    execFileSync("rm", ["-f", exclude]);
    if (shape === "exclude-hard") linkSync(bashrc, exclude);
    else symlinkSync(bashrc, exclude);
  }
  return { root, project };
}

describe("hostile-ignore-file-hard-link: an ignore file that is a second name of your file", () => {
  for (const shape of ["gitignore-hard", "exclude-hard", "exclude-symlink-out"] as const) {
    it(`${shape}: the tree lists every guess, trusted and not`, async () => {
      const { root } = project(shape);
      for (const projectTrusted of [true, false]) {
        const result = await renderSystemPrompt(
          pinned(root, { projectTrusted, workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" }),
        );
        for (const g of GUESSES)
          expect(result.text, `${g} ${projectTrusted}`).toContain(`  ${g}  `);
      }
    });

    it(`${shape}: --untrusted refuses a right guess and a wrong one alike, none as ignored`, async () => {
      const { root } = project(shape);
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      expect(result.text).not.toContain("guess HISTSIZE");
      const refusals = result.diagnostics.filter((d) => d.code === "import-private");
      expect(refusals).toHaveLength(2);
      for (const d of refusals) {
        expect(d.message).not.toContain("ignored by git");
        expect(d.message).not.toContain("excluded by");
        expect(d.message).toContain("under ignore rules not read whole");
      }
      const why =
        shape === "exclude-symlink-out"
          ? "a link leading out of the repository's git folder"
          : "it has 2 names (hard links to one file)";
      expect(refusals[0]?.message).toContain(why);
    });
  }

  for (const shape of ["gitignore-hard", "exclude-hard", "exclude-symlink-out"] as const) {
    it(`${shape}: the tree says the ignore file was not read, once`, async () => {
      const { root } = project(shape);
      const result = await renderSystemPrompt(
        pinned(root, { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" }),
      );
      const cut = result.diagnostics.filter((d) => d.code === "ignore-patterns-cut");
      expect(cut).toHaveLength(1);
      const why =
        shape === "exclude-symlink-out" ? "out of the repository's git folder" : "2 names";
      expect(cut[0]?.message).toContain(why);
    });
  }

  it("an exclude file linked within the git folder is still followed, as git follows it", async () => {
    const { root, project: p } = project("exclude-hard");
    const exclude = join(p, ".git/info/exclude");
    execFileSync("rm", ["-f", exclude]);
    writeFileSync(join(p, ".git/my-exclude"), `${LINE}\n`);
    symlinkSync("../my-exclude", exclude);
    const result = await renderSystemPrompt(
      pinned(root, {
        projectTrusted: false,
        workspaceTree: true,
        treeMtime: "2026-01-10T09:00:00Z",
      }),
    );
    expect(result.text).not.toContain(`  ${LINE}  `);
    expect(result.text).toContain("guess HISTSIZE=5000");
    const refused = result.diagnostics.find((d) => d.code === "import-private");
    expect(refused?.message).toContain("ignored by git");
  });

  it("a Mercurial working copy's hard-linked .hgignore hides nothing either (rev82e F1)", async () => {
    const root = tempDir();
    const p = join(root, "project");
    writeFiles(root, { "home/.bashrc": `syntax: glob\n${LINE}\n` });
    const files: Record<string, string> = { ".hg/requires": "store\n" };
    for (const g of GUESSES) files[g] = `guess ${g}\n`;
    writeFiles(p, files);
    linkSync(join(root, "home/.bashrc"), join(p, ".hgignore"));
    const result = await renderSystemPrompt(
      pinned(root, {
        projectTrusted: false,
        workspaceTree: true,
        treeMtime: "2026-01-10T09:00:00Z",
      }),
    );
    for (const g of GUESSES) expect(result.text, g).toContain(`  ${g}  `);
  });
});
