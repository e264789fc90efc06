import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev99a F7 (medium): a project's `.git` file whose `gitdir:` names your own git folder
// (`gitdir: /home/you/priv/.git`, or `../home/.git` from a clone in a dotfiles home) made that
// folder's `info/exclude` the project's ignore patterns: the workspace tree left out exactly the
// files named like one of your lines and listed the wrong guesses, and `--untrusted` refused a
// right guess as "excluded by .git/info/exclude" while it inlined a wrong one, one bit per
// guessed name. The git section already refused such a `.git` (`git-outside`), but the exclude
// file's reader resolved the `gitdir:` on its own, with no test. Now the one place that resolves
// a `.git` for git's files applies the git section's test to every reader: a git folder outside
// the project that is no worktree linking back to it and no submodule of the repository around
// it is refused, and no file in it is read (said as an ignore file not read).

const RIGHT = "salary-2027.xlsx";
const GUESSES = [RIGHT, "salary-2026.xlsx", "salary-2025.xlsx"];

function project(gitdir: (root: string) => string) {
  const root = tempDir();
  const priv = join(root, "home/priv");
  mkdirSync(priv, { recursive: true });
  execFileSync("git", ["init", "-q", priv]);
  writeFileSync(join(priv, ".git/info/exclude"), `${RIGHT}\n`);
  const files: Record<string, string> = {
    "AGENTS.md": `# Notes\n@${GUESSES[0]}\n\n@${GUESSES[1]}\n`,
    ".git": `gitdir: ${gitdir(root)}\n`,
  };
  for (const g of GUESSES) files[g] = `guess ${g}\n`;
  writeFiles(join(root, "project"), files);
  return root;
}

const SHAPES = {
  absolute: (root: string) => join(root, "home/priv/.git"),
  relative: () => "../home/priv/.git",
};

describe("hostile-gitfile-names-your-git-folder: a .git file naming your own git folder", () => {
  for (const [shape, gitdir] of Object.entries(SHAPES)) {
    it(`${shape}: the tree lists every guess, trusted and not, and says why`, async () => {
      const root = project(gitdir);
      for (const projectTrusted of [true, false]) {
        const result = await renderSystemPrompt(
          pinned(root, { projectTrusted, workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" }),
        );
        for (const g of GUESSES)
          expect(result.text, `${g} ${projectTrusted}`).toContain(`  ${g}  `);
        const said = result.diagnostics.filter((d) => d.code === "ignore-patterns-cut");
        expect(said.map((d) => d.message).join("\n")).toContain(
          "a git folder outside this project",
        );
      }
    });

    it(`${shape}: --untrusted treats a right guess and a wrong one alike, none as excluded`, async () => {
      const root = project(gitdir);
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      const messages = result.diagnostics.map((d) => d.message).join("\n");
      expect(messages).not.toContain("excluded by .git/info/exclude");
      const right = result.text.includes(`guess ${GUESSES[0]}`);
      const wrong = result.text.includes(`guess ${GUESSES[1]}`);
      expect(right).toBe(wrong);
      // Nothing below is proven kept by git's lists: both refused, as below an unread ignore file.
      const refusals = result.diagnostics.filter((d) => d.code === "import-private");
      expect(refusals).toHaveLength(2);
      for (const d of refusals) expect(d.message).toContain("under ignore rules not read whole");
    });
  }

  it("a worktree linking back and a submodule of the repository around it still have their exclude read", async () => {
    const root = tempDir();
    const main = join(root, "project");
    mkdirSync(main, { recursive: true });
    execFileSync("git", ["init", "-q", main]);
    writeFileSync(join(main, ".git/info/exclude"), "hidden-here.md\n");
    writeFiles(main, { "hidden-here.md": "x\n", "shown.md": "y\n" });
    // A submodule's layout: `.git` file into the repository's `.git/modules/sub`.
    const modules = join(main, ".git/modules/sub");
    execFileSync("git", ["init", "-q", "--bare", modules]);
    execFileSync("git", ["config", "-f", join(modules, "config"), "core.bare", "false"]);
    execFileSync("git", ["config", "-f", join(modules, "config"), "core.worktree", "../../../sub"]);
    writeFileSync(join(modules, "info/exclude"), "sub-hidden.md\n");
    writeFiles(join(main, "sub"), {
      ".git": "gitdir: ../.git/modules/sub\n",
      "sub-hidden.md": "z\n",
      "sub-shown.md": "w\n",
    });
    const result = await renderSystemPrompt(
      pinned(root, { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" }),
    );
    expect(result.text).toContain("  shown.md  ");
    expect(result.text).toContain("sub-shown.md");
    expect(result.text).not.toContain("hidden-here.md");
    expect(result.text).not.toContain("sub-hidden.md");
  });

  it("a worktree made by git (its admin folder naming it back) has the main repository's exclude read", async () => {
    const root = tempDir();
    const main = join(root, "project");
    mkdirSync(main, { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: main });
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "start");
    git("worktree", "add", "-q", join(root, "wt"));
    writeFileSync(join(main, ".git/info/exclude"), "hidden-here.md\n");
    writeFiles(join(root, "wt"), { "hidden-here.md": "x\n", "shown.md": "y\n" });
    const result = await renderSystemPrompt(
      pinned(root, {
        cwd: join(root, "wt"),
        workspaceTree: true,
        treeMtime: "2026-01-10T09:00:00Z",
      }),
    );
    expect(result.text).toContain("  shown.md  ");
    expect(result.text).not.toContain("hidden-here.md");
    expect(result.diagnostics.map((d) => d.code)).not.toContain("ignore-patterns-cut");
  });
});
