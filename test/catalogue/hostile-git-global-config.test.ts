import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, SYSTEM } from "../gather/_git.js";

// HOME or XDG_CONFIG_HOME inside the checkout (a CI job may set them so) makes
// the project's `.gitconfig` or `.config/git/config` git's global config, which
// may do what a repository's own config may not: trace2 targets append lines the
// config chooses (trace2.configParams) to any file, a `.pth` file Python runs
// among them. Git never reads such a global config; yours, outside the project,
// still counts.

/** `<root>/project`: a repository with one commit and one untracked file, `u.txt`. */
function project(root: string): string {
  const dir = join(root, "project");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "a\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "Own");
  writeFileSync(join(dir, "u.txt"), "u\n");
  return dir;
}

/** A global config whose trace2 target is `target`, with a chosen line to write there. */
const trace2 = (target: string) =>
  `[trace2]\n\tnormalTarget = ${target}\n\tconfigParams = x.y\n[x]\n\ty = "\\nimport os"\n`;

const gitSection = async (root: string, cwd: string, env: Record<string, string>) => {
  const result = await renderSystemPrompt(
    pinned(root, { cwd, env: { ...SYSTEM, ...env }, git: true, projectTrusted: false }),
  );
  return result.sections.find((s) => s.name === "git")?.text ?? "";
};

describe("hostile repository: git never reads a global config the project wrote", {
  timeout: 30_000,
}, () => {
  it("HOME inside the checkout: its .gitconfig's trace2 target gets no line", async () => {
    const root = tempDir();
    const cwd = project(root);
    const target = join(root, "site", "zz.pth");
    mkdirSync(join(root, "site"));
    mkdirSync(join(cwd, ".home"));
    writeFileSync(join(cwd, ".home", ".gitconfig"), trace2(target));
    const text = await gitSection(root, cwd, { HOME: join(cwd, ".home") });
    expect(text).toContain("Branch: main");
    expect(existsSync(target)).toBe(false);
  });

  it("XDG_CONFIG_HOME inside the checkout: its git/config's trace2 target gets no line", async () => {
    const root = tempDir();
    const cwd = project(root);
    const target = join(root, "site", "zz.pth");
    mkdirSync(join(root, "site"));
    mkdirSync(join(root, "home"));
    mkdirSync(join(cwd, ".config", "git"), { recursive: true });
    writeFileSync(join(cwd, ".config", "git", "config"), trace2(target));
    const text = await gitSection(root, cwd, {
      HOME: join(root, "home"),
      XDG_CONFIG_HOME: join(cwd, ".config"),
    });
    expect(text).toContain("Branch: main");
    expect(existsSync(target)).toBe(false);
  });

  it("a HOME that is a link into the checkout is judged by its real path: its settings are not read", async () => {
    const root = tempDir();
    const cwd = project(root);
    mkdirSync(join(cwd, ".home"));
    // Hides every untracked file from git status: the section would say 0.
    writeFileSync(join(cwd, ".home", "ignore"), "u.txt\n.home/\n");
    writeFileSync(
      join(cwd, ".home", ".gitconfig"),
      `[core]\n\texcludesFile = ${join(cwd, ".home", "ignore")}\n`,
    );
    symlinkSync(join(cwd, ".home"), join(root, "home-link"));
    const text = await gitSection(root, cwd, { HOME: join(root, "home-link") });
    // u.txt and .home/ are untracked.
    expect(text).toContain("0 changed but not staged, 2 untracked");
  });

  it("your own global config, outside the project, still counts (core.excludesFile)", async () => {
    const root = tempDir();
    const cwd = project(root);
    mkdirSync(join(root, "home"));
    writeFileSync(join(root, "home", "ignore"), "u.txt\n");
    writeFileSync(
      join(root, "home", ".gitconfig"),
      `[core]\n\texcludesFile = ${join(root, "home", "ignore")}\n`,
    );
    const text = await gitSection(root, cwd, { HOME: join(root, "home") });
    expect(text).toContain("0 changed but not staged, 0 untracked");
  });
});
