import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProbe } from "../../src/gather/environment/probe.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { plant, restorePathAfterEach } from "./_planted.js";

// A hostile repository, the git section and the probes: a PATH entry inside the
// project (a `bin/` or `.venv/bin` that `uv run`, `poetry run`, direnv's
// PATH_add or a Makefile put on PATH, absolute) never gives the git or the
// lspci that runs, also when the working folder is below the project root, or
// inside a submodule of the repository that holds the entry (attack review
// attack16: with cwd `project/src`, the git step looked only at cwd and the
// workspace roots, and ran the project's bin/git).

const SYSTEM_PATH = process.env.PATH ?? "/usr/bin:/bin";

function git(dir: string, ...args: string[]): void {
  execFileSync("git", args, {
    cwd: dir,
    env: {
      PATH: SYSTEM_PATH,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

/** A repository at `dir` with one commit. */
function repo(dir: string): string {
  mkdirSync(join(dir, "src"), { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "src", "a.txt"), "a\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "One");
  return dir;
}

restorePathAfterEach();

describe("hostile-git-path-in-project: a binary on a PATH entry inside the project never runs", () => {
  it("git from the project's bin/ does not run from a folder below the project root", async () => {
    const root = tempDir();
    const project = repo(join(root, "project"));
    const ran = join(root, "planted-ran");
    plant(join(project, "bin"), "git", ran);
    const PATH = [join(project, "bin"), SYSTEM_PATH].join(":");
    const result = await renderSystemPrompt(
      pinned(root, { cwd: join(project, "src"), env: { PATH }, git: true }),
    );
    expect(existsSync(ran)).toBe(false);
    // The system git ran instead.
    expect(result.sections.find((s) => s.name === "git")?.text).toContain("- Branch: main");
  });

  it("nor from the bin/ of the repository around a submodule the working folder is in", async () => {
    const root = tempDir();
    const outer = repo(join(root, "project"));
    const inner = repo(join(outer, "vendor", "lib"));
    const ran = join(root, "planted-ran");
    plant(join(outer, "bin"), "git", ran);
    const PATH = [join(outer, "bin"), SYSTEM_PATH].join(":");
    const result = await renderSystemPrompt(
      pinned(root, { cwd: join(inner, "src"), env: { PATH }, git: true }),
    );
    expect(existsSync(ran)).toBe(false);
    expect(result.sections.find((s) => s.name === "git")?.text).toContain("- Branch: main");
  });

  it("the environment probe's lspci neither, from the repository around a submodule", async () => {
    const root = tempDir();
    const outer = repo(join(root, "project"));
    const inner = repo(join(outer, "vendor", "lib"));
    const ran = join(root, "planted-ran");
    plant(join(outer, "bin"), "lspci", ran);
    const PATH = [join(outer, "bin"), "/nonexistent"].join(":");
    process.env.PATH = PATH;
    await renderSystemPrompt(
      pinned(root, {
        cwd: join(inner, "src"),
        env: { PATH },
        machine: { platform: "linux", arch: "x64", runProbe },
        deadlineMs: 20_000,
      }),
    );
    expect(existsSync(ran)).toBe(false);
  });
});
