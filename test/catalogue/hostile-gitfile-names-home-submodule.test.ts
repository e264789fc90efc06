import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev102a F1 (medium): the rev99a F7 fix (hostile-gitfile-names-your-git-folder) accepted
// a `.git` file naming any folder below `modules/` of the repository around it, and looked for
// that repository with no ceiling: a home kept in git (`~/.git`) with a submodule `.private`
// (`~/.git/modules/.private`) made a hostile `~/Downloads/evil` with `gitdir:
// $HOME/.git/modules/.private` a "submodule", and your patterns in that module's
// `info/exclude` its ignore patterns (`--untrusted` refused a right guess as ignored and
// imported a wrong one; the tree hid it). Now a submodule's git folder is accepted only when it
// names this folder back as git writes it (`core.worktree` in its `config`).
//
// Review rev102a F4 (low): `gitdir: $HOME/.ssh` cut every import (a git folder outside), while
// `gitdir: $HOME/nonexistent` cut none (a `.git` naming no folder has no exclude file): one bit
// per render about whether any path exists. Now where a `gitdir:` leads is judged before whether
// it exists: a missing folder outside the project is refused as an existing one is.

const RIGHT = "salary-2027.xlsx";
const GUESSES = [RIGHT, "salary-2026.xlsx"];
const files = (gitdir?: string): Record<string, string> => {
  const out: Record<string, string> = {
    "AGENTS.md": `# Notes\n@${GUESSES[0]}\n\n@${GUESSES[1]}\n`,
  };
  if (gitdir !== undefined) out[".git"] = `gitdir: ${gitdir}\n`;
  for (const g of GUESSES) out[g] = `guess ${g}\n`;
  return out;
};

/** A home kept in git with a submodule `.private`, and a hostile folder in its Downloads. */
function dotfilesHome() {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  execFileSync("git", ["init", "-q", home]);
  const modules = join(home, ".git/modules/.private");
  execFileSync("git", ["init", "-q", "--bare", modules]);
  execFileSync("git", ["config", "-f", join(modules, "config"), "core.bare", "false"]);
  execFileSync("git", [
    "config",
    "-f",
    join(modules, "config"),
    "core.worktree",
    "../../../.private",
  ]);
  writeFileSync(join(modules, "info/exclude"), `${RIGHT}\n`);
  writeFiles(join(home, ".private"), { ".git": "gitdir: ../.git/modules/.private\n" });
  const evil = join(home, "Downloads/evil");
  writeFiles(evil, files(modules));
  return { root, home, evil };
}

const render = (root: string, cwd: string, extra = {}) =>
  renderSystemPrompt(pinned(root, { cwd, projectTrusted: false, ...extra }));

const guessed = (text: string) => GUESSES.map((g) => text.includes(`guess ${g}`));

describe("hostile-gitfile-names-home-submodule: a .git file naming a submodule of your dotfiles home", () => {
  it("--untrusted treats a right guess and a wrong one alike, none as excluded", async () => {
    const { root, evil } = dotfilesHome();
    const result = await render(root, evil);
    const messages = result.diagnostics.map((d) => d.message).join("\n");
    expect(messages).not.toContain("excluded by .git/info/exclude");
    const [right, wrong] = guessed(result.text);
    expect(right).toBe(wrong);
  });

  it("the tree lists every guess", async () => {
    const { root, evil } = dotfilesHome();
    const result = await render(root, evil, {
      workspaceTree: true,
      treeMtime: "2026-01-10T09:00:00Z",
    });
    for (const g of GUESSES) expect(result.text, g).toContain(`  ${g}  `);
  });

  it("the submodule itself, named back by its git folder, still has its exclude read", async () => {
    const { root, home } = dotfilesHome();
    const own = join(home, ".private");
    writeFiles(own, { [RIGHT]: "x\n", "shown.md": "y\n" });
    const result = await render(root, own, {
      projectTrusted: true,
      workspaceTree: true,
      treeMtime: "2026-01-10T09:00:00Z",
    });
    expect(result.text).toContain("  shown.md  ");
    expect(result.text).not.toContain(RIGHT);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("ignore-patterns-cut");
  });
});

describe("hostile-gitfile-names-home-submodule: a .git file naming a path that may not exist", () => {
  // Each pair: a folder that exists and one that does not, written directly or through a link.
  const SHAPES = {
    direct: (home: string, name: string, _dir: string) => join(home, name),
    link: (home: string, name: string, dir: string) => {
      symlinkSync(join(home, name), join(dir, "lnk"));
      return "lnk";
    },
    // A git folder of the project's own whose `commondir` names the path.
    commondir: (home: string, name: string, dir: string) => {
      execFileSync("git", ["init", "-q", dir]);
      writeFileSync(join(dir, ".git/commondir"), `${join(home, name)}\n`);
      return undefined;
    },
  };
  for (const [shape, gitdir] of Object.entries(SHAPES)) {
    it(`${shape}: an existing folder and a missing one cut the imports alike`, async () => {
      const outcomes: string[] = [];
      for (const name of [".ssh", "nonexistent"]) {
        const root = tempDir();
        const home = join(root, "home");
        mkdirSync(join(home, ".ssh"), { recursive: true });
        const project = join(root, "project");
        mkdirSync(project, { recursive: true });
        writeFiles(project, files(gitdir(home, name, project)));
        const result = await render(root, project);
        const refusals = result.diagnostics.filter((d) => d.code === "import-private");
        outcomes.push(`${guessed(result.text).join()} ${refusals.length}`);
      }
      expect(outcomes[1]).toBe(outcomes[0]);
      expect(outcomes[0]).toBe("false,false 2");
    });
  }
});
