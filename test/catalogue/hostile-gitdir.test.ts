import { execFileSync } from "node:child_process";
import { mkdirSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { run } from "../../src/cli/main.js";
import { gatherGit } from "../../src/gather/git/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import type { Diagnostic } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cli } from "../cli/_run.js";
import { git, repoAt, repoCopies, SYSTEM } from "../gather/_git.js";

// Each case builds real repositories (a dozen git processes) before it renders:
// seconds on a loaded machine, more than vitest's 5 s default once in a while.
vi.setConfig({ testTimeout: 30_000 });

/** Every case's victim is the same repository: git builds it once, each case gets a copy. */
const repoCopy = repoCopies();

// A hostile repository's `.git`: what it names is read without hanging (a
// FIFO, /dev/zero, a 50 MB file, a loop), and no path out of the project
// brings another repository's branch or commits into the prompt. Each case
// is a `.git` entry in `<root>/project`; `<root>/victim` is a private
// repository on `secret-branch` it tries to reach.

const ALLOW = "to read it anyway, allow that folder with --allow-git-dir (allowGitDirs)";

interface Case {
  name: string;
  /** Builds `<root>/project/.git` (the project folder exists). */
  build: (project: string, root: string, victim: string) => void;
  expected: (project: string, root: string, victim: string) => Diagnostic;
  /** Where the render runs, when not in the project. */
  cwd?: (victim: string) => string;
}

const left = (code: string, message: string, path: string, line?: number): Diagnostic => ({
  level: "warning",
  code,
  message: `${message}; the git section is left out`,
  path,
  ...(line !== undefined ? { line } : {}),
});

const outside = (gitDir: string) =>
  `.git leads to ${gitDir}, a git folder outside this project that is neither a worktree linking back here nor a submodule of the repository around it: its branches and commits are another repository's (${ALLOW})`;

const dotGit = (project: string) => join(project, ".git");

const cases: Case[] = [
  {
    name: ".git is a FIFO",
    build: (p) => execFileSync("mkfifo", [dotGit(p)]),
    expected: (p) =>
      left("git-gitfile", ".git is neither a folder nor a file (not opened)", dotGit(p)),
  },
  {
    name: ".git links to /dev/zero",
    build: (p) => symlinkSync("/dev/zero", dotGit(p)),
    // Outside the project: refused for where it leads before what it is (review rev102a F4).
    expected: (p) => left("git-outside", outside("/dev/zero"), dotGit(p)),
  },
  {
    name: ".git links to itself (a loop)",
    build: (p) => symlinkSync(".git", dotGit(p)),
    expected: (p) =>
      left("git-gitfile", ".git is a link that leads nowhere (missing, or a loop)", dotGit(p)),
  },
  {
    name: ".git is a 50 MB file",
    build: (p) => {
      writeFileSync(dotGit(p), "gitdir: ../victim/.git\n");
      truncateSync(dotGit(p), 50 * 1024 * 1024);
    },
    expected: (p) => left("git-gitfile", ".git file not used: it holds NUL bytes", dotGit(p), 1),
  },
  {
    name: ".git is a file of 20,000 path characters",
    build: (p) => writeFileSync(dotGit(p), `gitdir: ${"../".repeat(7000)}victim/.git\n`),
    expected: (p) =>
      left(
        "git-gitfile",
        ".git file not used: it is over 16384 bytes, too long to hold a path",
        dotGit(p),
        1,
      ),
  },
  {
    name: ".git file without gitdir:",
    build: (p) => writeFileSync(dotGit(p), "../victim/.git\n"),
    expected: (p) =>
      left("git-gitfile", '.git file not used: it does not start with "gitdir:"', dotGit(p), 1),
  },
  {
    name: ".git file that is empty",
    build: (p) => writeFileSync(dotGit(p), ""),
    expected: (p) =>
      left("git-gitfile", '.git file not used: it does not start with "gitdir:"', dotGit(p), 1),
  },
  {
    name: ".git file with two lines",
    build: (p) => writeFileSync(dotGit(p), "gitdir: .\n../victim/.git\n"),
    expected: (p) =>
      left(
        "git-gitfile",
        ".git file not used: it does not hold one path on one line",
        dotGit(p),
        1,
      ),
  },
  {
    name: ".git file naming a FIFO",
    build: (p) => {
      // Inside the project: one outside is refused for where it leads (review rev102a F4).
      execFileSync("mkfifo", [join(p, "pipe")]);
      writeFileSync(dotGit(p), "gitdir: pipe\n");
    },
    expected: (p) =>
      left(
        "git-gitfile",
        `.git names ${join(p, "pipe")}, which is not a folder that can be read`,
        dotGit(p),
        1,
      ),
  },
  {
    name: ".git file naming a missing folder",
    build: (p) => writeFileSync(dotGit(p), "gitdir: /nonexistent/repo/.git\n"),
    // Refused as an existing folder outside is, or each render tells whether a path exists
    // (review rev102a F4).
    expected: (p) => left("git-outside", outside("/nonexistent/repo/.git"), dotGit(p), 1),
  },
  {
    name: ".git file naming a missing folder inside the project",
    build: (p) => writeFileSync(dotGit(p), "gitdir: gone/.git\n"),
    expected: (p) =>
      left(
        "git-gitfile",
        `.git names ${join(p, "gone/.git")}, which is not a folder that can be read`,
        dotGit(p),
        1,
      ),
  },
  {
    name: ".git file with a BOM, CRLF and a terminal escape in the path",
    build: (p, root) => {
      mkdirSync(join(root, "odd\u001b[2Jname"));
      symlinkSync(join(root, "victim", ".git"), join(root, "odd\u001b[2Jname", "r"));
      writeFileSync(dotGit(p), "\ufeffgitdir: ../odd\u001b[2Jname/r\r\n");
    },
    // Resolved by real path: the link in the middle does not hide where it leads.
    expected: (p, _root, victim) =>
      left("git-outside", outside(join(victim, ".git")), dotGit(p), 1),
  },
  {
    name: "a fake worktree admin folder whose back-link is /dev/zero",
    build: (p, root) => {
      const admin = join(root, "fake", "worktrees", "w");
      mkdirSync(admin, { recursive: true });
      symlinkSync("/dev/zero", join(admin, "gitdir"));
      writeFileSync(join(admin, "commondir"), "../../../victim/.git\n");
      writeFileSync(dotGit(p), `gitdir: ${admin}\n`);
    },
    expected: (p, root) =>
      left("git-outside", outside(join(root, "fake", "worktrees", "w")), dotGit(p), 1),
  },
  {
    name: "a fake worktree admin folder whose back-link is a FIFO",
    build: (p, root) => {
      const admin = join(root, "fake", "worktrees", "w");
      mkdirSync(admin, { recursive: true });
      execFileSync("mkfifo", [join(admin, "gitdir")]);
      writeFileSync(dotGit(p), `gitdir: ${admin}\n`);
    },
    expected: (p, root) =>
      left("git-outside", outside(join(root, "fake", "worktrees", "w")), dotGit(p), 1),
  },
  {
    name: "a worktree admin folder inside the project whose commondir is the victim's",
    build: (p, _root, victim) => {
      const admin = join(p, ".wt", "worktrees", "w");
      mkdirSync(admin, { recursive: true });
      writeFileSync(join(admin, "gitdir"), `${dotGit(p)}\n`);
      writeFileSync(join(admin, "HEAD"), "ref: refs/heads/secret-branch\n");
      writeFileSync(join(admin, "commondir"), `${victim}/.git\n`);
      writeFileSync(dotGit(p), "gitdir: .wt/worktrees/w\n");
    },
    expected: (p, _root, victim) =>
      left(
        "git-outside",
        `its commondir leads to ${victim}/.git, outside this project, and ${p}/.wt/worktrees/w is not one of its worktrees: the branches and commits there are another repository's (${ALLOW})`,
        join(p, ".wt", "worktrees", "w", "commondir"),
        1,
      ),
  },
  {
    name: "a commondir that is a link to /dev/zero",
    build: (p) => {
      git(p, "init", "-q", "-b", "main");
      symlinkSync("/dev/zero", join(dotGit(p), "commondir"));
    },
    expected: (p) =>
      left(
        "git-gitfile",
        "commondir not used: it is a symbolic link; it is not read",
        join(dotGit(p), "commondir"),
        1,
      ),
  },
  {
    name: "a project inside the victim's repository posing as its submodule",
    build: (_p, root, victim) => {
      const lib = repoAt(join(root, "lib"), "main", "Lib");
      git(victim, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "deps/lib");
      git(victim, "commit", "-q", "-m", "Add lib");
      const inside = join(victim, "hostile");
      mkdirSync(inside);
      writeFileSync(join(inside, ".git"), "gitdir: ../.git/modules/deps/lib\n");
    },
    cwd: (victim) => join(victim, "hostile"),
    // Its work tree is deps/lib (the submodule's core.worktree), not this folder: refused before
    // git runs, as any folder naming a submodule's git folder not its own (review rev102a F1).
    expected: (_p, _root, victim) =>
      left(
        "git-outside",
        outside(join(victim, ".git/modules/deps/lib")),
        join(victim, "hostile/.git"),
        1,
      ),
  },
  {
    name: "a git folder posing as the working folder itself, its work tree the folder above",
    // No .git at all: git would take the folder itself as a repository (an implicit bare one).
    build: (p, root) => {
      const app = join(p, "app");
      mkdirSync(app);
      git(app, "init", "-q", "--bare", "-b", "secret-branch");
      git(app, "config", "core.bare", "false");
      git(app, "config", "core.worktree", root);
      execFileSync("mkdir", [join(p, ".git")]);
    },
    cwd: (victim) => join(victim, "..", "project", "app"),
    // git refuses a repository it was not pointed to (safe.bareRepository=explicit).
    expected: (p) => ({
      level: "info",
      code: "git-no-repository",
      message: `${p}/app is not in a git work tree (or git refused it); the git section is left out`,
    }),
  },
];

describe("hostile repository: a .git that names something else", () => {
  for (const c of cases) {
    it(`${c.name}: no git section, one located diagnostic, nothing of the victim's in the prompt`, async () => {
      const root = realpathSync(tempDir());
      const victim = repoCopy(join(root, "victim"), "secret-branch", "Victim secret");
      const project = join(root, "project");
      mkdirSync(project);
      c.build(project, root, victim);
      const cwd = c.cwd?.(victim) ?? project;
      const started = performance.now();
      const result = await renderSystemPrompt(
        pinned(root, { cwd, env: SYSTEM, git: true, deadlineMs: 10_000 }),
      );
      // Nothing is waited on: a FIFO or /dev/zero would hang a reader for the whole deadline.
      expect(performance.now() - started).toBeLessThan(5000);
      const gitDiagnostics = result.diagnostics.filter((d) => d.code.startsWith("git-"));
      expect(gitDiagnostics).toEqual([c.expected(project, root, victim)]);
      expect(result.sections.map((s) => s.name)).not.toContain("git");
      expect(result.text).not.toMatch(/secret-branch|Victim secret/);
    });
  }

  it("a refs folder with more loose refs than are checked is refused, not half checked", async () => {
    const root = realpathSync(tempDir());
    const project = repoAt(join(root, "project"), "main", "Own");
    const tags = join(project, ".git", "refs", "tags");
    const head = git(project, "rev-parse", "HEAD");
    for (let i = 0; i < 10_001; i++) writeFileSync(join(tags, `t${i}`), head);
    expect(
      (await gatherGit({ cwd: project, env: SYSTEM, exclude: [project] })).diagnostics,
    ).toEqual([
      left(
        "git-refused",
        "the repository's git files (refs, top-level files, alternates, the repositories around a submodule) are more than 10000 entries, too many to check for links leading out of it (git pack-refs --all packs loose refs into one file)",
        join(project, ".git", "refs"),
      ),
    ]);
  });

  it("sysprompt render --git: a --separate-git-dir repository is refused on stderr, and --allow-git-dir lets it in", async () => {
    const root = realpathSync(tempDir());
    const store = join(root, "store");
    mkdirSync(store);
    mkdirSync(join(root, "agent"));
    const project = repoAt(
      join(root, "project"),
      "main",
      "Own",
      `--separate-git-dir=${store}/p.git`,
    );
    const render = async (...extra: string[]) => {
      let stdout = "";
      let stderr = "";
      const code = await run(
        ["render", "--git", "--no-config", "--agent-dir", join(root, "agent"), ...extra],
        {
          stdout: (t) => {
            stdout += t;
          },
          stderr: (t) => {
            stderr += t;
          },
          cwd: project,
          env: SYSTEM,
          home: join(root, "home"),
          machine: { platform: "linux", arch: "x64" },
        },
      );
      return { code, branch: stdout.includes("- Branch: main"), stderr };
    };
    const refusedRun = await render();
    expect([refusedRun.code, refusedRun.branch]).toEqual([0, false]);
    expect(refusedRun.stderr).toContain("[git-outside]");
    expect(refusedRun.stderr).toContain("--allow-git-dir");
    const allowedRun = await render("--allow-git-dir", store);
    expect([allowedRun.code, allowedRun.branch, allowedRun.stderr.includes("git-")]).toEqual([
      0,
      true,
      false,
    ]);
  });

  it("--allow-git-dir that is not a folder is a usage error (exit 2)", async () => {
    const root = tempDir();
    const run = await cli(root, ["render", "--git", "--allow-git-dir", join(root, "nope")]);
    expect([run.code, run.stdout, run.stderr.trim()]).toEqual([
      2,
      "",
      expect.stringContaining(
        `--allow-git-dir / allowGitDirs: "${join(root, "nope")}" does not exist`,
      ),
    ]);
  });
});
