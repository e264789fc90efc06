import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, SYSTEM } from "../gather/_git.js";

// `explain --simulate --git` rendered in a copy in the cache folder whose `.git` is an empty
// folder: sysprompt took it for the copy's repository, git did not, and git (run with -C in
// the copy) walked up past the render's `ceilingDir` to whatever repository held the cache
// folder (a dotfiles home): rev-parse and config ran there 16 times a run, and a `git-outside`
// warning blamed the project's `.git/config`. The ceiling is now git's too
// (GIT_CEILING_DIRECTORIES), and a simulation leaves the git section out, saying so
// (`simulate-git`). Review rev38d F2.

/** `root/home`: a repository (a dotfiles home) with one commit, `HOME-SUBJECT`. */
function dotfilesHome(root: string): string {
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  git(home, "init", "-q", "-b", "main");
  writeFileSync(join(home, "f"), "x\n");
  git(home, "add", ".");
  git(home, "commit", "-q", "-m", "HOME-SUBJECT");
  return home;
}

describe("hostile-simulate-git-ceiling: git never looks above the render's ceiling", {
  timeout: 30_000,
}, () => {
  it("a folder with an empty .git under a repository, with ceilingDir: git stays below it", async () => {
    const root = tempDir();
    const home = dotfilesHome(root);
    const copy = join(home, ".cache", "run", "p");
    mkdirSync(join(copy, ".git"), { recursive: true });
    writeFileSync(join(copy, "AGENTS.md"), "# p\n");
    const result = await renderSystemPrompt(
      pinned(root, { cwd: copy, ceilingDir: copy, env: { ...SYSTEM, HOME: home }, git: true }),
    );
    expect(result.text).not.toContain("HOME-SUBJECT");
    const codes = result.diagnostics.map((d) => d.code);
    expect(codes).not.toContain("git-outside");
    expect(codes).toContain("git-no-repository");
  });

  it("explain --simulate --git: the git section is left out with an info, and git blames nothing", async () => {
    const root = tempDir();
    const home = dotfilesHome(root);
    const project = join(root, "project");
    mkdirSync(project);
    git(project, "init", "-q", "-b", "main");
    writeFileSync(join(project, "AGENTS.md"), "# p\n");
    git(project, "add", ".");
    git(project, "commit", "-q", "-m", "P-SUBJECT");
    const report = await simulatePrompt(
      pinned(root, { cwd: project, env: { ...SYSTEM, HOME: home }, git: true }),
      { sandboxDir: join(home, ".cache", "simulate"), session: false },
    );
    const codes = report.diagnostics.map((d) => d.code);
    expect(codes.filter((c) => c.startsWith("git-"))).toEqual([]);
    expect(codes).toContain("simulate-git");
    expect(report.baseline.sections.map((s) => s.name)).not.toContain("git");
  });
});
