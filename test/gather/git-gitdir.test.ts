import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { gatherGit } from "../../src/gather/git/index.js";
import type { Diagnostic } from "../../src/types.js";
import { tempDir } from "../api/_helpers.js";
import { git, repoAt, repoCopies, SYSTEM } from "./_git.js";

// Each case builds real repositories (a dozen git processes) before it renders:
// seconds on a loaded machine, more than vitest's 5 s default once in a while.
vi.setConfig({ testTimeout: 30_000 });

// Which repository the git section reads. A `.git` may be a file
// `gitdir: <path>` (or a link): git follows it anywhere, so a project could
// name another repository of the user's and have its branch and commits put
// in the prompt. Linked worktrees, submodules and a folder the user allows
// keep working; everything else is refused with a warning on the `.git`.

/** The victim and the "Own" and "Main commit" repositories recur: git builds each once, a case gets a copy. */
const repoCopy = repoCopies();

const gather = (cwd: string, extra: { ceilingDir?: string; allowGitDirs?: string[] } = {}) =>
  gatherGit({ cwd, env: SYSTEM, exclude: [cwd], ...extra });

/** `<root>/victim`: a private repository on `secret-branch`, one commit "Victim secret". */
function victim(root: string): string {
  return repoCopy(join(root, "victim"), "secret-branch", "Victim secret");
}

/** `<root>/project` with a `.git` file holding `text`. */
function projectWithGitFile(root: string, text: string | Uint8Array): string {
  const project = join(root, "project");
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, ".git"), text);
  return project;
}

const refused = (code: string, message: string, path: string, line?: number): Diagnostic => ({
  level: "warning",
  code,
  message: `${message}; the git section is left out`,
  path,
  ...(line !== undefined ? { line } : {}),
});

const ALLOW = "to read it anyway, allow that folder with --allow-git-dir (allowGitDirs)";

const outsideGitFile = (gitDir: string) =>
  `.git leads to ${gitDir}, a git folder outside this project that is neither a worktree linking back here nor a submodule of the repository around it: its branches and commits are another repository's (${ALLOW})`;

describe("a .git that leads elsewhere", () => {
  it("a .git file naming another repository (absolute, or relative with CRLF) is refused, nothing of it read", async () => {
    const root = realpathSync(tempDir());
    const other = victim(root);
    for (const text of [`gitdir: ${other}/.git\n`, "gitdir: ../victim/.git\r\n"]) {
      const project = projectWithGitFile(root, text);
      expect(await gather(project)).toEqual({
        git: null,
        diagnostics: [
          refused("git-outside", outsideGitFile(join(other, ".git")), join(project, ".git"), 1),
        ],
      });
    }
  });

  it("a .git link to another repository's .git, or to a .git file naming it, is refused", async () => {
    const root = realpathSync(tempDir());
    const other = victim(root);
    const project = join(root, "project");
    mkdirSync(project);
    symlinkSync(join(other, ".git"), join(project, ".git"));
    expect((await gather(project)).diagnostics).toEqual([
      refused("git-outside", outsideGitFile(join(other, ".git")), join(project, ".git")),
    ]);
    rmSync(join(project, ".git"));
    writeFileSync(join(root, "pointer"), "gitdir: ../victim/.git\n");
    symlinkSync(join(root, "pointer"), join(project, ".git"));
    // Relative to the folder holding .git, as git reads it: project/../victim/.git.
    expect((await gather(project)).diagnostics).toEqual([
      refused("git-outside", outsideGitFile(join(other, ".git")), join(project, ".git"), 1),
    ]);
  });

  it("a .git file naming another repository's worktree admin folder (which links to another worktree) is refused", async () => {
    const root = realpathSync(tempDir());
    const other = victim(root);
    git(other, "worktree", "add", "-q", "-b", "side", join(root, "victim-side"));
    const admin = join(other, ".git", "worktrees", "victim-side");
    const project = projectWithGitFile(root, `gitdir: ${admin}\n`);
    expect((await gather(project)).diagnostics).toEqual([
      refused("git-outside", outsideGitFile(admin), join(project, ".git"), 1),
    ]);
  });

  it("a .git folder whose commondir names another repository is refused", async () => {
    const root = realpathSync(tempDir());
    const other = victim(root);
    const project = repoCopy(join(root, "project"), "secret-branch", "Own");
    writeFileSync(join(project, ".git", "commondir"), `${other}/.git\n`);
    expect((await gather(project)).diagnostics).toEqual([
      refused(
        "git-outside",
        `its commondir leads to ${other}/.git, outside this project, and ${project}/.git is not one of its worktrees: the branches and commits there are another repository's (${ALLOW})`,
        join(project, ".git", "commondir"),
        1,
      ),
    ]);
  });

  it("a link among the repository's files (a ref, HEAD) to another repository's is refused", async () => {
    const root = realpathSync(tempDir());
    const other = victim(root);
    const project = repoCopy(join(root, "project"), "secret-branch", "Own");
    const ref = join(project, ".git", "refs", "heads", "secret-branch");
    const own = git(project, "rev-parse", "HEAD");
    rmSync(ref);
    symlinkSync(join(other, ".git", "refs", "heads", "secret-branch"), ref);
    const linkOut = (target: string) =>
      `a link among the repository's files leads to ${target}, outside this project and its git folders: git would read another repository's data through it (${ALLOW})`;
    expect((await gather(project)).diagnostics).toEqual([
      refused("git-outside", linkOut(join(other, ".git", "refs", "heads", "secret-branch")), ref),
    ]);
    rmSync(ref);
    writeFileSync(ref, own);
    const head = join(project, ".git", "HEAD");
    rmSync(head);
    symlinkSync(join(other, ".git", "HEAD"), head);
    expect((await gather(project)).diagnostics).toEqual([
      refused("git-outside", linkOut(join(other, ".git", "HEAD")), head),
    ]);
  });

  it("core.worktree moving the work tree to a folder above the project is refused", async () => {
    const root = realpathSync(tempDir());
    const project = repoAt(join(root, "project"), "main", "Own");
    writeFileSync(join(root, "private-notes.txt"), "x\n");
    git(project, "config", "core.worktree", root);
    expect((await gather(project)).diagnostics).toEqual([
      {
        level: "warning",
        code: "git-outside",
        message: `git would use ${root} as its work tree, not ${project} (a core.worktree setting, or a layout git reads differently); the git section is left out`,
        path: join(project, ".git", "config"),
      },
    ]);
  });

  it("a folder above the ceiling is not looked at: no repository, git never asked", async () => {
    const root = realpathSync(tempDir());
    const outer = repoAt(join(root, "outer"), "outer-branch", "Outer");
    const cwd = join(outer, "sandbox", "app");
    mkdirSync(cwd, { recursive: true });
    expect(await gather(cwd, { ceilingDir: join(outer, "sandbox") })).toEqual({
      git: null,
      diagnostics: [
        {
          level: "info",
          code: "git-no-repository",
          message: `${cwd} is not in a git work tree (or git refused it); the git section is left out`,
        },
      ],
    });
    expect((await gather(cwd)).git?.branch).toBe("outer-branch");
  });
});

describe("the layouts git makes keep working", () => {
  it("a linked worktree (git worktree add): its admin folder links back", async () => {
    const root = realpathSync(tempDir());
    const main = repoCopy(join(root, "main"), "main", "Main commit");
    const wt = join(root, "wt");
    git(main, "worktree", "add", "-q", "-b", "feature", wt);
    const found = await gather(wt);
    expect([found.git?.branch, found.git?.commits, found.diagnostics]).toEqual([
      "feature",
      ["Main commit"],
      [],
    ]);
    // From a folder inside it too.
    mkdirSync(join(wt, "sub"));
    expect((await gather(join(wt, "sub"))).git?.branch).toBe("feature");
  });

  it("a worktree of a bare repository, and one inside the main work tree", async () => {
    const root = realpathSync(tempDir());
    const main = repoCopy(join(root, "main"), "main", "Main commit");
    const bare = join(root, "bare.git");
    git(root, "clone", "-q", "--bare", main, bare);
    git(bare, "worktree", "add", "-q", "-b", "from-bare", join(root, "from-bare"));
    git(main, "worktree", "add", "-q", "-b", "nested", join(main, ".worktrees", "nested"));
    const fromBare = await gather(join(root, "from-bare"));
    const nested = await gather(join(main, ".worktrees", "nested"));
    expect([
      fromBare.git?.branch,
      fromBare.diagnostics,
      nested.git?.branch,
      nested.diagnostics,
    ]).toEqual(["from-bare", [], "nested", []]);
  });

  it("a submodule: its .git file names a folder in the superproject's .git/modules", async () => {
    const root = realpathSync(tempDir());
    const lib = repoAt(join(root, "lib"), "main", "Lib commit");
    const sup = repoAt(join(root, "super"), "main", "Super commit");
    git(sup, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "deps/lib");
    const found = await gather(join(sup, "deps", "lib"));
    expect([found.git?.commits, found.diagnostics]).toEqual([["Lib commit"], []]);
  });

  it("git init --separate-git-dir: refused unless the user allows that folder", async () => {
    const root = realpathSync(tempDir());
    const store = join(root, "store", "project.git");
    mkdirSync(join(root, "store"));
    const project = repoAt(join(root, "project"), "main", "Own", `--separate-git-dir=${store}`);
    expect((await gather(project)).diagnostics).toEqual([
      refused("git-outside", outsideGitFile(store), join(project, ".git"), 1),
    ]);
    const allowed = await gather(project, { allowGitDirs: [join(root, "store")] });
    expect([allowed.git?.branch, allowed.git?.commits, allowed.diagnostics]).toEqual([
      "main",
      ["Own"],
      [],
    ]);
  });

  it("a .git file naming a folder inside the project is used", async () => {
    const root = realpathSync(tempDir());
    const project = repoAt(join(root, "project"), "main", "Own", "--separate-git-dir=.repo");
    expect((await gather(project)).git?.commits).toEqual(["Own"]);
  });
});
