import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// Your `.git/info/exclude` keeps a file private from an untrusted project. In a
// linked worktree, a submodule or a `--separate-git-dir` clone, `.git` is a
// file and git reads the exclude file of the common git folder (the main
// repository's `.git`, `.git/modules/<name>` of the repository around it, the
// separate folder): only `<root>/.git/info/exclude` was read, so there your
// excluded credentials came in through the project's `@credentials.json`.

/** Renders `cwd` as an untrusted project; its AGENTS.md imports credentials.json. */
async function render(base: string, cwd: string) {
  writeFileSync(join(cwd, "credentials.json"), '{"token": "MARKER-CRED"}\n');
  writeFileSync(join(cwd, "AGENTS.md"), "# Project\n@credentials.json\n");
  const agentDir = join(base, "home", ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  return renderSystemPrompt({ cwd, agentDir, home: join(base, "home"), projectTrusted: false });
}

/** The exclude file `<gitDir>/info/exclude`, naming credentials.json. */
function exclude(gitDir: string): void {
  mkdirSync(join(gitDir, "info"), { recursive: true });
  writeFileSync(join(gitDir, "info", "exclude"), "credentials.json\n");
}

const refusedAsExcluded = (result: Awaited<ReturnType<typeof render>>) => {
  expect(result.text).not.toContain("MARKER-CRED");
  const refused = result.diagnostics.filter((d) => d.code === "import-private");
  expect(refused.map((d) => d.message.includes("credentials.json"))).toEqual([true]);
};

describe("hostile repository: your exclude file in the common git folder", () => {
  it("a linked worktree: the main repository's .git/info/exclude applies", async () => {
    const base = tempDir();
    const main = join(base, "main", ".git");
    exclude(main);
    const admin = join(main, "worktrees", "wt");
    mkdirSync(admin, { recursive: true });
    const wt = join(base, "wt");
    mkdirSync(wt);
    writeFileSync(join(wt, ".git"), `gitdir: ${admin}\n`);
    writeFileSync(join(admin, "gitdir"), `${join(wt, ".git")}\n`);
    writeFileSync(join(admin, "commondir"), "../..\n");
    refusedAsExcluded(await render(base, wt));
  });

  it("a submodule: .git/modules/<name>/info/exclude of the repository around it applies", async () => {
    const base = tempDir();
    const outer = join(base, "outer");
    exclude(join(outer, ".git", "modules", "lib"));
    const lib = join(outer, "lib");
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(lib, ".git"), "gitdir: ../.git/modules/lib\n");
    refusedAsExcluded(await render(base, lib));
  });

  it("a --separate-git-dir clone inside the project: the separate folder's info/exclude applies", async () => {
    const base = tempDir();
    const project = join(base, "project");
    const gitDir = join(project, "gitstore", "repo.git");
    exclude(gitDir);
    writeFileSync(join(project, ".git"), "gitdir: gitstore/repo.git\n");
    refusedAsExcluded(await render(base, project));
  });

  it("a --separate-git-dir clone out of the project: another repository's git folder, its exclude not read, nothing proven kept", async () => {
    // Review rev99a F7: a `.git` file may name any git folder (yours, `~/priv/.git`); one out of
    // the project that is no worktree linking back and no submodule is refused as the git
    // section refuses it, its exclude file unread, and the door refuses below it.
    const base = tempDir();
    const gitDir = join(base, "elsewhere", "repo.git");
    exclude(gitDir);
    const project = join(base, "project");
    mkdirSync(project);
    writeFileSync(join(project, ".git"), `gitdir: ${gitDir}\n`);
    const result = await render(base, project);
    expect(result.text).not.toContain("MARKER-CRED");
    const refused = result.diagnostics.filter((d) => d.code === "import-private");
    expect(refused.map((d) => d.message)).toEqual([
      expect.stringContaining("a git folder outside this project"),
    ]);
    expect(refused[0]?.message).toContain("under ignore rules not read whole");
  });

  it("a commondir, or an exclude file, that is a FIFO is not opened: the render goes on", async () => {
    for (const fifo of ["commondir", "exclude"]) {
      const base = tempDir();
      // In the project: a git folder out of it is refused before any of its files is opened.
      const project = join(base, "project");
      const gitDir = join(project, "gitstore", "repo.git");
      mkdirSync(join(gitDir, "info"), { recursive: true });
      const at = fifo === "commondir" ? join(gitDir, "commondir") : join(gitDir, "info", "exclude");
      execFileSync("mkfifo", [at]);
      writeFileSync(join(project, ".git"), "gitdir: gitstore/repo.git\n");
      const result = await render(base, project);
      // Nothing read names credentials.json: the import is not ignored by git, so it is read.
      expect(result.text).toContain("MARKER-CRED");
    }
  });
});
