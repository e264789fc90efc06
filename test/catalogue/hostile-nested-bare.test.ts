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

// Review rev41a (F3, low-medium): a BARE clone of your repository inside a
// hostile checkout or tarball W (`W/plugins/mine.git`, `git clone --bare`, a
// mirror cache), the token of your remote URL in its `config`, had no `.git`
// entry, so it was not "a repository of its own" for the nested-repository
// check: `W/AGENTS.md` a link to `plugins/mine.git/config` and
// `W/plugins/AGENTS.md` importing `@./mine.git/config` put the token in the
// prompt, render trusted and untrusted, on touch too. A folder git takes for
// a git folder (`HEAD`, `objects/`, `refs/`) is now a repository of its own
// as a clone is, unless it is the root's own `.git` folder or a submodule's
// or worktree's git folder in it.

const TOKEN = /MARKER-TOKEN/g;

/** A bare clone's files at `at` (relative to the case's root). */
function bare(at: string): Layout {
  return [
    [`${at}/HEAD`, "ref: refs/heads/main\n"],
    [`${at}/objects/info`, { dir: true }],
    [`${at}/refs/heads`, { dir: true }],
    [
      `${at}/config`,
      '[core]\n\tbare = true\n[remote "origin"]\n\turl = https://me:MARKER-TOKEN@example.com/mine.git\n',
    ],
  ];
}

/** A git folder of W's own at `at`, its `config` holding `config` and a marker. */
function ownGitFolder(at: string, config: string): Layout {
  return [
    [`${at}/HEAD`, "ref: refs/heads/main\n"],
    [`${at}/objects/info`, { dir: true }],
    [`${at}/refs/heads`, { dir: true }],
    [`${at}/config`, `${config}# W-OWN-GIT\n`],
  ];
}

/** W as a checkout (its `.git` folder, a submodule's git folder in it) or a tarball (none). */
async function layout(kind: "checkout" | "tarball"): Promise<{ home: string; w: string }> {
  const base = tempDir();
  await buildLayout(base, "nested-bare", [
    ["home/.pi/agent", { dir: true }],
    ...bare("home/work/W/plugins/mine.git"),
    ...bare("home/work/W/mine.git"),
    ["home/work/W/AGENTS.md", { symlink: "plugins/mine.git/config" }],
    ["home/work/W/plugins/AGENTS.md", "W-PLUGINS\n@./mine.git/config\n@../mine.git/config\n"],
    ["home/work/W/plugins/x/y.ts", ""],
    ["home/work/W/root.md", { symlink: "mine.git/config" }],
    ...(kind === "checkout"
      ? ([
          ...bare("home/work/W/.git"),
          // W's submodule and worktree, their git folders as git writes them (naming their work trees).
          ...ownGitFolder("home/work/W/.git/modules/sub", "[core]\n\tworktree = ../../../sub\n"),
          ["home/work/W/sub/.git", "gitdir: ../.git/modules/sub\n"],
          ...ownGitFolder("home/work/W/.git/worktrees/wt", ""),
          ["home/work/W/.git/worktrees/wt/commondir", "../..\n"],
          ["home/work/W/.git/worktrees/wt/gitdir", "../../../../wt/.git\n"],
          ["home/work/wt/.git", "gitdir: ../W/.git/worktrees/wt\n"],
          ["home/work/W/own.md", { symlink: ".git/config" }],
          ["home/work/W/sub.md", { symlink: ".git/modules/sub/config" }],
          ["home/work/W/wt.md", { symlink: ".git/worktrees/wt/config" }],
        ] as const)
      : []),
  ]);
  const home = join(base, "home");
  return { home, w: join(home, "work", "W") };
}

describe("hostile repository: a bare clone of yours inside a checkout or tarball", () => {
  for (const kind of ["checkout", "tarball"] as const) {
    for (const trusted of [true, false]) {
      const what = `W a ${kind}, ${trusted ? "trusted" : "untrusted"}`;

      it(`render in W/plugins/x, ${what}: its config is not W's`, async () => {
        const { home, w } = await layout(kind);
        const r = await renderSystemPrompt({
          cwd: join(w, "plugins", "x"),
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        expect(r.text.match(TOKEN) ?? []).toEqual([]);
        expect(r.text).toContain("W-PLUGINS");
        const refused = r.diagnostics.filter((d) => d.message.includes("a repository of its own"));
        expect(refused.map((d) => d.code).sort()).toEqual(
          kind === "checkout"
            ? ["context-outside-project", "import-outside", "import-outside"]
            : // A tarball's plugins/AGENTS.md is its folder's own project: `../` leaves it.
              ["context-outside-project", "import-outside"],
        );
      });

      it(`touch W/plugins/x/y.ts from a session in W, ${what}: no token`, async () => {
        const { home, w } = await layout(kind);
        const session = createPromptSession({
          cwd: w,
          home,
          agentDir: join(home, ".pi", "agent"),
          projectTrusted: trusted,
        });
        try {
          const r = await session.contextFor([join(w, "plugins", "x", "y.ts")]);
          const given = r.files.map((f) => f.content).join("\n");
          expect(given.match(TOKEN) ?? []).toEqual([]);
          expect(given).toContain("W-PLUGINS");
        } finally {
          session.close();
        }
      });
    }
  }

  it("async and sync door: a link into a bare clone, below W or at its top level, is refused; W's own git folder is W's", async () => {
    const { home, w } = await layout("checkout");
    const reach = await projectReach({ signal: NO_DEADLINE, start: w, home, trusted: true });
    const sync = projectReachSync({ start: w, home });
    const read = async (name: string) => {
      const r = await readRepoText(join(w, name), { reach });
      const s = readRepoTextSync(join(w, name), { reach: sync });
      const seen = (x: typeof s) => (x.ok ? "read" : x.diagnostics[0]?.code);
      return [seen(r), seen(s)];
    };
    expect(await read("AGENTS.md")).toEqual(["file-outside-project", "file-outside-project"]);
    expect(await read("root.md")).toEqual(["file-outside-project", "file-outside-project"]);
    // The root's own `.git` folder and its submodule's and worktree's git folders are read as before.
    expect(await read("own.md")).toEqual(["read", "read"]);
    expect(await read("sub.md")).toEqual(["read", "read"]);
    expect(await read("wt.md")).toEqual(["read", "read"]);
  });
});

// Review rev42a (F1, low-medium): a git folder anywhere in the root's
// `.git/modules` or `.git/worktrees` was the root's by where it lay. W's
// repository commits a link `plugins -> .git/modules` (or a tarball ships
// one to `.git/worktrees`); your `git clone --bare … W/plugins/mine.git`
// lands in `W/.git/modules/mine.git`, and a link or an import of its
// `config` put your remote URL's token in the prompt, on touch too. Such a
// git folder is now the root's only if it names back a work tree as git
// writes one (a submodule's `core.worktree`, a worktree's `gitdir` and
// `commondir`); a bare repository names none. (F4, low) a bare clone you
// made in a folder W shipped a `.git` file in (naming a "submodule" git
// folder of W's whose `core.worktree` names that folder) was a part of W:
// a git folder is a repository of its own whatever else it holds.
describe("hostile repository: a bare clone of yours reached through W's own git folder, or holding W's .git", () => {
  async function planted(part: "modules" | "worktrees"): Promise<{ home: string; w: string }> {
    const base = tempDir();
    await buildLayout(base, "nested-bare-own", [
      ["home/.pi/agent", { dir: true }],
      ...bare("home/work/W/.git"),
      ...ownGitFolder("home/work/W/.git/modules/dep", "[core]\n\tworktree = ../../../dep\n"),
      ["home/work/W/dep/.git", "gitdir: ../.git/modules/dep\n"],
      ...bare(`home/work/W/.git/${part}/mine.git`),
      ["home/work/W/plugins", { symlink: `.git/${part}` }],
      ["home/work/W/AGENTS.md", "W-TOP\n@./plugins/mine.git/config\n"],
      ["home/work/W/link.md", { symlink: "plugins/mine.git/config" }],
      ["home/work/W/x/y.ts", ""],
      // F4: a bare clone in `cache/mine.git`, a `.git` file W shipped in it naming a git folder of W's naming it back.
      ...bare("home/work/W/cache/mine.git"),
      ["home/work/W/cache/mine.git/.git", "gitdir: ../../.git/modules/x\n"],
      ...ownGitFolder(
        "home/work/W/.git/modules/x",
        "[core]\n\tworktree = ../../../cache/mine.git\n",
      ),
      ["home/work/W/cache.md", { symlink: "cache/mine.git/config" }],
      ["home/work/W/dep.md", { symlink: ".git/modules/dep/config" }],
    ]);
    const home = join(base, "home");
    return { home, w: join(home, "work", "W") };
  }

  for (const part of ["modules", "worktrees"] as const) {
    it(`plugins -> .git/${part}: render and touch give no token, async and sync doors refuse the link`, async () => {
      const { home, w } = await planted(part);
      const agentDir = join(home, ".pi", "agent");
      for (const projectTrusted of [true, false]) {
        const r = await renderSystemPrompt({ cwd: join(w, "x"), home, agentDir, projectTrusted });
        expect(r.text.match(TOKEN) ?? []).toEqual([]);
        expect(r.text).toContain("W-TOP");
      }
      const session = createPromptSession({ cwd: w, home, agentDir, projectTrusted: true });
      try {
        const r = await session.contextFor([join(w, "x", "y.ts")]);
        expect(
          r.files
            .map((f) => f.content)
            .join("\n")
            .match(TOKEN) ?? [],
        ).toEqual([]);
      } finally {
        session.close();
      }
      expect(await readBoth(w, home, "link.md")).toEqual(REFUSED);
    });
  }

  it("a bare clone holding a .git W shipped, naming a git folder of W's that names it back: not W's", async () => {
    const { home, w } = await planted("modules");
    expect(await readBoth(w, home, "cache.md")).toEqual(REFUSED);
    // W's own submodule, as git writes one, is W's.
    expect(await readBoth(w, home, "dep.md")).toEqual(["read", "read"]);
  });
});

const REFUSED = ["file-outside-project", "file-outside-project"];

/** How the async and the sync door take `name` in `w`. */
async function readBoth(w: string, home: string, name: string): Promise<unknown[]> {
  const reach = await projectReach({ signal: NO_DEADLINE, start: w, home, trusted: true });
  const sync = projectReachSync({ start: w, home });
  const a = await readRepoText(join(w, name), { reach });
  const s = readRepoTextSync(join(w, name), { reach: sync });
  return [a, s].map((x) => (x.ok ? "read" : x.diagnostics[0]?.code));
}
