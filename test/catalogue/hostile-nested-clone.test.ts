import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import {
  NO_DEADLINE,
  projectReach,
  projectReachSync,
  readRepoText,
  readRepoTextSync,
} from "../../src/repo-files/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir } from "../api/_helpers.js";
import { buildLayout, type Layout } from "./_fixture.js";

// A hostile checkout (or tarball) E whose README says to clone your plugin
// into `plugins/mine`, as a framework's `plugins/` or `custom_nodes/` asks.
// Your clone has its own `.git` (a token in its remote URL), a `.env` and your
// source; so has another clone of yours beside it. E's own instruction files
// (ancestors of your working folder on render, nested files on touch) were
// checked against E's reach, which held every repository below it: a link or
// an `@import` gave your `.env`, the token and your source, trusted or not
// (review rev38a F1, high). A repository of its own below a project root
// (not a submodule or a worktree of it) is now out of that project's reach
// through a link or an import. A submodule's and a worktree's files still come.

const SECRETS = /MARKER-[A-Z]+/g;

const LAYOUT: Layout = [
  ["home/.pi/agent", { dir: true }],
  ["home/work/E/AGENTS.md", { symlink: "plugins/mine/.env" }],
  [
    "home/work/E/plugins/AGENTS.md",
    "Framework notes.\n@./mine/.git/config\n@./mine/src/core.ts\n@./other/src/core.ts\n@./sub/doc.md\n@../worktrees/feat/notes.md\n",
  ],
  ["home/work/E/plugins/mine/.git/HEAD", "ref: refs/heads/main\n"],
  [
    "home/work/E/plugins/mine/.git/config",
    '[remote "origin"]\n\turl = https://me:MARKER-TOKEN@example.com/mine.git\n',
  ],
  ["home/work/E/plugins/mine/.env", "KEY=MARKER-MINEENV\n"],
  ["home/work/E/plugins/mine/src/core.ts", "// MARKER-MINESRC\n"],
  ["home/work/E/plugins/mine/src/x.ts", ""],
  ["home/work/E/plugins/other/.git/HEAD", "ref: refs/heads/main\n"],
  ["home/work/E/plugins/other/src/core.ts", "// MARKER-OTHERSRC\n"],
  // E's submodule and E's worktree: part of E.
  ["home/work/E/plugins/sub/.git", "gitdir: ../../.git/modules/plugins/sub\n"],
  ["home/work/E/plugins/sub/doc.md", "SUBMODULE-OK\n"],
  ["home/work/E/worktrees/feat/.git", "gitdir: ../../.git/worktrees/feat\n"],
  ["home/work/E/worktrees/feat/notes.md", "WORKTREE-OK\n"],
];

/** E as a clone (its `.git`, its submodule's and worktree's git folders), or as a tarball (none). */
async function layout(kind: "clone" | "tarball"): Promise<{ home: string; e: string }> {
  const base = tempDir();
  await buildLayout(base, "nested-clone", [
    ...LAYOUT,
    ...(kind === "clone"
      ? ([
          ["home/work/E/.git/HEAD", "ref: refs/heads/main\n"],
          ["home/work/E/.git/modules/plugins/sub/HEAD", "ref: refs/heads/main\n"],
          ["home/work/E/.git/worktrees/feat/HEAD", "ref: refs/heads/feat\n"],
        ] as const)
      : []),
  ]);
  const home = join(base, "home");
  const e = join(home, "work", "E");
  // A tarball has no submodule or worktree: `sub` and `feat` are plain folders of E.
  if (kind === "tarball") {
    rmSync(join(e, "plugins", "sub", ".git"));
    rmSync(join(e, "worktrees", "feat", ".git"));
  }
  return { home, e };
}

/** E's own files each kind imports: a tarball's `plugins/AGENTS.md` is its folder's own project, which `../` leaves. */
const OWN = { clone: ["SUBMODULE-OK", "WORKTREE-OK"], tarball: ["SUBMODULE-OK"] };

describe("hostile repository: a checkout around a clone of yours reads it", () => {
  for (const kind of ["clone", "tarball"] as const) {
    for (const trusted of [true, false]) {
      const what = `E a ${kind}, ${trusted ? "trusted" : "untrusted"}`;

      it(`render in E/plugins/mine, ${what}: nothing of your clones`, async () => {
        const { home, e } = await layout(kind);
        const r = await renderSystemPrompt({
          cwd: join(e, "plugins", "mine"),
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        expect(r.text.match(SECRETS) ?? []).toEqual([]);
        expect(r.text).toContain("Framework notes.");
        // E's submodule and worktree (a tarball's plain folders) are E's: still imported.
        for (const ok of OWN[kind]) expect(r.text).toContain(ok);
        const refused = r.diagnostics.filter((d) => d.message.includes("a repository of its own"));
        expect(refused.map((d) => d.code).sort()).toEqual([
          "context-outside-project",
          "import-outside",
          "import-outside",
          "import-outside",
        ]);
      });

      it(`touch E/plugins/mine/src/x.ts from a session in ~/work, ${what}: nothing of your clones`, async () => {
        const { home, e } = await layout(kind);
        const session = createPromptSession({
          cwd: join(home, "work"),
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        try {
          const r = await session.contextFor([join(e, "plugins", "mine", "src", "x.ts")]);
          const given = r.files.map((f) => f.content).join("\n");
          expect(given.match(SECRETS) ?? []).toEqual([]);
          expect(given).toContain("Framework notes.");
          for (const ok of OWN[kind]) expect(given).toContain(ok);
        } finally {
          session.close();
        }
      });
    }
  }

  it("a session in E itself, untrusted: E's files import none of a clone below it", async () => {
    const { home, e } = await layout("clone");
    const r = await renderSystemPrompt({
      cwd: join(e, "plugins"),
      home,
      agentDir: join(home, ".pi", "agent"),
      projectTrusted: false,
    });
    expect(r.text.match(SECRETS) ?? []).toEqual([]);
    for (const ok of OWN.clone) expect(r.text).toContain(ok);
  });
});

describe("hostile repository: the door keeps a clone below the root out of reach, in each of its forms", () => {
  /** E with a link to your clone's `.env` and one to its submodule's file; `dotGit`: what E's `.git` is. */
  async function linked(dotGit: "folder" | "link to plugins" | "file naming /") {
    const { home, e } = await layout("clone");
    rmSync(join(e, ".git"), { recursive: true });
    const git: Layout =
      dotGit === "folder"
        ? [
            ["home/work/E/.git/HEAD", "ref: refs/heads/main\n"],
            ["home/work/E/.git/modules/plugins/sub/HEAD", "ref: refs/heads/main\n"],
          ]
        : dotGit === "link to plugins"
          ? [["home/work/E/.git", { symlink: "plugins" }]]
          : [["home/work/E/.git", "gitdir: /\n"]];
    await buildLayout(join(home, ".."), "nested-clone-links", [
      ...git,
      ["home/work/E/env.md", { symlink: "plugins/mine/.env" }],
      ["home/work/E/sub.md", { symlink: "plugins/sub/doc.md" }],
    ]);
    return { home, e };
  }

  it("async and sync readers alike: a link into the clone is refused, one into the submodule read", async () => {
    const { home, e } = await linked("folder");
    const reach = await projectReach({ signal: NO_DEADLINE, start: e, home, trusted: true });
    const env = await readRepoText(join(e, "env.md"), { reach });
    expect(env.ok ? env.text : env.diagnostics[0]?.code).toBe("file-outside-project");
    const sub = await readRepoText(join(e, "sub.md"), { reach });
    expect(sub.ok ? sub.text : sub.diagnostics[0]?.message).toBe("SUBMODULE-OK\n");
    const sync = projectReachSync({ start: e, home });
    const envSync = readRepoTextSync(join(e, "env.md"), { reach: sync });
    expect(envSync.ok ? envSync.text : envSync.diagnostics[0]?.code).toBe("file-outside-project");
    const subSync = readRepoTextSync(join(e, "sub.md"), { reach: sync });
    expect(subSync.ok ? subSync.text : subSync.diagnostics[0]?.message).toBe("SUBMODULE-OK\n");
  });

  for (const dotGit of ["link to plugins", "file naming /"] as const) {
    it(`E's .git a ${dotGit}, which holds your clone's .git: the clone is still not E's`, async () => {
      const { home, e } = await linked(dotGit);
      const reach = await projectReach({ signal: NO_DEADLINE, start: e, home, trusted: true });
      const env = await readRepoText(join(e, "env.md"), { reach });
      expect(env.ok ? env.text : env.diagnostics[0]?.code).toBe("file-outside-project");
      const sync = projectReachSync({ start: e, home });
      const envSync = readRepoTextSync(join(e, "env.md"), { reach: sync });
      expect(envSync.ok ? envSync.text : envSync.diagnostics[0]?.code).toBe("file-outside-project");
    });
  }
});

// Review rev40a (F1, high): a workspace tarball W whose own `.git` is a file
// naming a folder that holds your git folders (`gitdir: /home`, or your
// clone's `.git` by a relative path or a link) made your worktree placed in
// W part of W, and W's links and imports reached its files. A `.git` file or
// link holds parts only when the git folder it names names it back (a
// worktree's `gitdir` file).
describe("hostile repository: a forged .git at a workspace's root", () => {
  async function forged(dotGit: "home" | "your clone" | "link to your clone") {
    const base = tempDir();
    const home = join(base, "home");
    const w = join(base, "srv", "W");
    const wt = join(w, "services", "mine");
    await buildLayout(base, "nested-forged-root", [
      ["home/src/mine/.git/HEAD", "ref: refs/heads/main\n"],
      ["home/src/mine/.git/worktrees/mine/HEAD", "ref: refs/heads/feat\n"],
      ["home/src/mine/.git/worktrees/mine/gitdir", `${join(wt, ".git")}\n`],
      ["srv/W/services/mine/.git", `gitdir: ${join(home, "src/mine/.git/worktrees/mine")}\n`],
      ["srv/W/services/mine/.env", "KEY=MARKER-WTENV\n"],
      ["srv/W/env.md", { symlink: "services/mine/.env" }],
      dotGit === "home"
        ? ["srv/W/.git", `gitdir: ${home}\n`]
        : dotGit === "your clone"
          ? ["srv/W/.git", "gitdir: ../../home/src/mine/.git\n"]
          : ["srv/W/.git", { symlink: "../../home/src/mine/.git" }],
    ]);
    return { home, w };
  }

  for (const dotGit of ["home", "your clone", "link to your clone"] as const) {
    it(`W's .git naming ${dotGit}: your worktree in W is not W's`, async () => {
      const { home, w } = await forged(dotGit);
      const reach = await projectReach({ signal: NO_DEADLINE, start: w, home, trusted: true });
      const env = await readRepoText(join(w, "env.md"), { reach });
      expect(env.ok ? env.text : env.diagnostics[0]?.code).toBe("file-outside-project");
      const sync = projectReachSync({ start: w, home });
      const envSync = readRepoTextSync(join(w, "env.md"), { reach: sync });
      expect(envSync.ok ? envSync.text : envSync.diagnostics[0]?.code).toBe("file-outside-project");
    });
  }
});

// Review rev41a (F2, low): layouts whose `.git` is a file or a link, as git
// and the repo tool make them, lost their parts to b11fb08's name-back rule:
// a worktree whose `gitdir` files are relative (git 2.48's
// `worktree.useRelativePaths`: resolved against the process's folder, not
// the admin folder, as git does), a `git init --separate-git-dir` root and a
// root whose `.git` is a link to its git folder (neither names a work tree),
// and a submodule as the root (its git folder names it by `core.worktree`):
// a link or an import into their submodules was refused. The forged roots
// of review rev40a stay refused, and so does a root naming your own
// separate git folder or bare repository, with your worktree of it placed
// inside: such a git folder holds its submodules alone.
describe("normal layouts whose .git is a file or a link keep their submodules", () => {
  /** A git folder's files at `at`, with `config` (a submodule's names its work tree). */
  function gitFolder(at: string, config = "[core]\n\tbare = false\n"): Layout {
    return [
      [`${at}/HEAD`, "ref: refs/heads/main\n"],
      [`${at}/objects/info`, { dir: true }],
      [`${at}/refs/heads`, { dir: true }],
      [`${at}/config`, config],
    ];
  }

  /** `root` (a folder below the case's root) with a submodule `sub` whose git folder is `modules` and a link to its file. */
  function withSubmodule(root: string, modules: string, fromSub: string): Layout {
    return [
      ...gitFolder(modules, `[core]\n\tworktree = ${fromSub}\n`),
      [`${root}/sub/.git`, `gitdir: ${relativeTo(`${root}/sub`, modules)}\n`],
      [`${root}/sub/doc.md`, "SUBMODULE-OK\n"],
      [`${root}/sub.md`, { symlink: "sub/doc.md" }],
    ];
  }

  /** `to` relative to the folder `from`, both below the case's root. */
  function relativeTo(from: string, to: string): string {
    return `${"../".repeat(from.split("/").length)}${to}`;
  }

  async function readBoth(root: string, home: string, name: string): Promise<string[]> {
    const reach = await projectReach({ signal: NO_DEADLINE, start: root, home, trusted: true });
    const sync = projectReachSync({ start: root, home });
    const r = await readRepoText(join(root, name), { reach });
    const s = readRepoTextSync(join(root, name), { reach: sync });
    return [r, s].map((x) => (x.ok ? x.text : (x.diagnostics[0]?.code ?? "")));
  }

  const LAYOUTS = {
    "a worktree with relative gitdir files (git 2.48)": [
      ["home/work/p/.git/HEAD", "ref: refs/heads/main\n"],
      ["home/work/p/.git/worktrees/wt/HEAD", "ref: refs/heads/wt\n"],
      ["home/work/p/.git/worktrees/wt/commondir", "../..\n"],
      ["home/work/p/.git/worktrees/wt/gitdir", "../../../../wt/.git\n"],
      ["home/work/wt/.git", "gitdir: ../p/.git/worktrees/wt\n"],
      ...withSubmodule(
        "home/work/wt",
        "home/work/p/.git/worktrees/wt/modules/sub",
        "../../../../../../wt/sub",
      ),
    ],
    "a --separate-git-dir root": [
      ...gitFolder("home/gitdirs/sep"),
      ["home/work/sep/.git", "gitdir: ../../gitdirs/sep\n"],
      ...withSubmodule("home/work/sep", "home/gitdirs/sep/modules/sub", "../../../../work/sep/sub"),
    ],
    "a root whose .git is a link to its git folder": [
      ...gitFolder("home/gitdirs/lnk.git"),
      ["home/work/lnk/.git", { symlink: "../../gitdirs/lnk.git" }],
      ...withSubmodule(
        "home/work/lnk",
        "home/gitdirs/lnk.git/modules/sub",
        "../../../../work/lnk/sub",
      ),
    ],
    "a submodule as the root, with its own submodule": [
      ["home/work/proj/.git/HEAD", "ref: refs/heads/main\n"],
      ...gitFolder("home/work/proj/.git/modules/m", "[core]\n\tworktree = ../../../m\n"),
      ["home/work/proj/m/.git", "gitdir: ../.git/modules/m\n"],
      ...withSubmodule(
        "home/work/proj/m",
        "home/work/proj/.git/modules/m/modules/sub",
        "../../../../../m/sub",
      ),
    ],
    // Review rev42a (F6, low): git quotes `core.worktree` when the path holds `#` or `;`.
    "a submodule named m#x as the root (git quotes its core.worktree)": [
      ["home/work/proj/.git/HEAD", "ref: refs/heads/main\n"],
      ...gitFolder("home/work/proj/.git/modules/m#x", '[core]\n\tworktree = "../../../m#x"\n'),
      ["home/work/proj/m#x/.git", "gitdir: ../.git/modules/m#x\n"],
      ...withSubmodule(
        "home/work/proj/m#x",
        "home/work/proj/.git/modules/m#x/modules/sub",
        "../../../../../m#x/sub",
      ),
    ],
  } as const satisfies Record<string, Layout>;
  const ROOTS = {
    "a submodule named m#x as the root (git quotes its core.worktree)": "work/proj/m#x",
    "a worktree with relative gitdir files (git 2.48)": "work/wt",
    "a --separate-git-dir root": "work/sep",
    "a root whose .git is a link to its git folder": "work/lnk",
    "a submodule as the root, with its own submodule": "work/proj/m",
  } as const;

  for (const [name, entries] of Object.entries(LAYOUTS)) {
    it(`${name}: a link into its submodule is read, async and sync`, async () => {
      const base = tempDir();
      await buildLayout(base, "nested-normal-gitfile", entries);
      const home = join(base, "home");
      const root = join(home, ROOTS[name as keyof typeof ROOTS]);
      expect(await readBoth(root, home, "sub.md")).toEqual(["SUBMODULE-OK\n", "SUBMODULE-OK\n"]);
    });
  }

  for (const named of ["your separate git folder", "your bare repository"] as const) {
    it(`W's .git naming ${named}, your worktree of it placed in W: not W's`, async () => {
      const base = tempDir();
      const git =
        named === "your separate git folder" ? "home/gitdirs/mine" : "home/repos/mine.git";
      const wt = join(base, "srv", "W", "services", "mine");
      await buildLayout(base, "nested-forged-standalone", [
        ...gitFolder(git),
        [`${git}/worktrees/m/HEAD`, "ref: refs/heads/m\n"],
        [`${git}/worktrees/m/commondir`, "../..\n"],
        [`${git}/worktrees/m/gitdir`, `${join(wt, ".git")}\n`],
        ["srv/W/.git", `gitdir: ${join(base, git)}\n`],
        ["srv/W/services/mine/.git", `gitdir: ${join(base, git, "worktrees", "m")}\n`],
        ["srv/W/services/mine/.env", "KEY=MARKER-WTENV\n"],
        ["srv/W/env.md", { symlink: "services/mine/.env" }],
      ]);
      const w = join(base, "srv", "W");
      expect(await readBoth(w, join(base, "home"), "env.md")).toEqual([
        "file-outside-project",
        "file-outside-project",
      ]);
    });
  }

  // Review rev42a (F2, low): W's `.git` naming your separate git folder P,
  // a worktree of one of P's SUBMODULES placed in W (its admin folder
  // `P/modules/sub/worktrees/subwt` lies in P's `modules/`) was W's part.
  // Of such a git folder only submodules' git folders are parts.
  for (const how of ["absolute", "relative"] as const) {
    it(`W's .git naming your separate git folder (${how}), your worktree of its submodule placed in W: not W's`, async () => {
      const base = tempDir();
      const admin = join(base, "home/gitdirs/P/modules/sub/worktrees/subwt");
      const wt = join(base, "srv/W/plugins/subwt");
      await buildLayout(base, "nested-forged-standalone-sub", [
        ...gitFolder("home/gitdirs/P"),
        ...gitFolder("home/gitdirs/P/modules/sub", "[core]\n\tworktree = ../../../../work/P/sub\n"),
        ["home/gitdirs/P/modules/sub/worktrees/subwt/HEAD", "ref: refs/heads/w\n"],
        ["home/gitdirs/P/modules/sub/worktrees/subwt/commondir", "../..\n"],
        ["home/gitdirs/P/modules/sub/worktrees/subwt/gitdir", `${join(wt, ".git")}\n`],
        [
          "srv/W/.git",
          `gitdir: ${how === "absolute" ? join(base, "home/gitdirs/P") : "../../home/gitdirs/P"}\n`,
        ],
        ["srv/W/plugins/subwt/.git", `gitdir: ${admin}\n`],
        ["srv/W/plugins/subwt/.env", "KEY=MARKER-SUBWTENV\n"],
        ["srv/W/env.md", { symlink: "plugins/subwt/.env" }],
      ]);
      const w = join(base, "srv", "W");
      expect(await readBoth(w, join(base, "home"), "env.md")).toEqual([
        "file-outside-project",
        "file-outside-project",
      ]);
    });
  }
});
