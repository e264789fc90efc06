import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { buildWorkspaceTree } from "../../src/gather/tree/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { tempDir } from "../api/_helpers.js";

// Your global git excludes (~/.config/git/ignore) anchor a pattern with a
// slash (`/myprivate/`, `config/secrets.yml`) at the top of the repository
// you work in. A submodule, a worktree or a clone of yours inside the project
// is such a repository, but the door and the workspace tree matched your
// patterns from the project's top only: `--untrusted` imported
// `sub/myprivate/notes.md` through the project's `@import`, and the tree
// listed the folder and its files (review rev49b F1). They are now matched
// from the top of the innermost repository that holds the path too, as git
// does there; a pattern without a slash still matches at any depth.

// The door finds your list by the process's XDG_CONFIG_HOME: the fake home's, here.
beforeEach(() => {
  vi.stubEnv("XDG_CONFIG_HOME", "");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A `.git` folder git takes for one (HEAD, objects/, refs/), its exclude file naming `excluded`. */
function gitFolder(dir: string, excluded = ""): void {
  mkdirSync(join(dir, "info"), { recursive: true });
  mkdirSync(join(dir, "objects"));
  mkdirSync(join(dir, "refs"));
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "info", "exclude"), excluded);
}

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

/** `<base>/p`, a git project, and your global excludes in `<base>/home`. */
function project(globalIgnore: string): { base: string; root: string; home: string } {
  const base = tempDir();
  const home = join(base, "home");
  write(join(home, ".config", "git", "ignore"), globalIgnore);
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  const root = join(base, "p");
  gitFolder(join(root, ".git"));
  return { base, root, home };
}

/** `sub/` a submodule of `root` (its git folder in `.git/modules/sub`), with your kind of files. */
function submodule(root: string): string {
  const sub = join(root, "sub");
  // Its own exclude file anchors at its top as well (the door held this before).
  gitFolder(join(root, ".git", "modules", "sub"), "/top-only.md\n");
  write(join(sub, "top-only.md"), "MARKER-EXCLUDED-TOP\n");
  write(join(sub, "deep", "top-only.md"), "MARKER-DEEP-EXCLUDE-OK\n");
  write(join(sub, ".git"), "gitdir: ../.git/modules/sub\n");
  // As git writes it: the submodule's git folder names its work tree back (review rev102a F1).
  write(join(root, ".git", "modules", "sub", "config"), "[core]\n\tworktree = ../../../sub\n");
  write(join(sub, "myprivate", "notes.md"), "MARKER-NOTES\n");
  write(join(sub, "config", "secrets.yml"), "MARKER-SECRETS\n");
  write(join(sub, "MY-GLOBAL.txt"), "MARKER-UNANCHORED\n");
  // Anchored patterns name the top's folders only: these are the repository's.
  write(join(sub, "deep", "myprivate", "ok.md"), "MARKER-DEEP-OK\n");
  write(join(sub, "deep", "config", "secrets.yml"), "MARKER-DEEP-CONFIG\n");
  return sub;
}

const IGNORE = "/myprivate/\nconfig/secrets.yml\nMY-GLOBAL.txt\n";

const render = (root: string, home: string) =>
  renderSystemPrompt({
    cwd: root,
    home,
    agentDir: join(home, ".pi", "agent"),
    env: {},
    projectTrusted: false,
  });

const globalRefusals = (r: Awaited<ReturnType<typeof render>>) =>
  r.diagnostics
    .filter((d) => d.code === "import-private")
    .filter((d) => d.message.includes("ignored by your global git excludes"))
    .map((d) => d.message.slice(0, d.message.indexOf(":")));

const tree = (root: string, home: string) =>
  buildWorkspaceTree(root, { home, env: {}, mtime: "2026-01-01T00:00:00Z" });

describe("hostile repository: your global excludes anchor at the nested repository's top", () => {
  it("--untrusted: a submodule's /myprivate/ and config/secrets.yml are refused, its deeper ones read", async () => {
    const { root, home } = project(IGNORE);
    submodule(root);
    writeFileSync(
      join(root, "AGENTS.md"),
      [
        "# P",
        "@sub/myprivate/notes.md",
        "@sub/config/secrets.yml",
        "@sub/MY-GLOBAL.txt",
        "@sub/deep/myprivate/ok.md",
        "@sub/deep/config/secrets.yml",
        "@sub/top-only.md",
        "@sub/deep/top-only.md",
        "",
      ].join("\n"),
    );
    const result = await render(root, home);
    for (const secret of ["NOTES", "SECRETS", "UNANCHORED", "EXCLUDED-TOP"]) {
      expect(result.text).not.toContain(`MARKER-${secret}`);
    }
    for (const read of ["DEEP-OK", "DEEP-CONFIG", "DEEP-EXCLUDE-OK"]) {
      expect(result.text).toContain(`MARKER-${read}`);
    }
    expect(globalRefusals(result)).toEqual([
      "@sub/myprivate/notes.md",
      "@sub/config/secrets.yml",
      "@sub/MY-GLOBAL.txt",
    ]);
  });

  it("the project's own top keeps them: /myprivate/ there is refused, and read when you have no such list", async () => {
    const { base, root, home } = project(IGNORE);
    write(join(root, "myprivate", "notes.md"), "MARKER-TOP\n");
    writeFileSync(join(root, "AGENTS.md"), "# P\n@myprivate/notes.md\n");
    expect((await render(root, home)).text).not.toContain("MARKER-TOP");
    const elsewhere = join(base, "elsewhere");
    mkdirSync(join(elsewhere, ".pi", "agent"), { recursive: true });
    expect((await render(root, elsewhere)).text).toContain("MARKER-TOP");
  });

  it("the tree lists none of a submodule's or a nested clone's folders and files your list anchors there", async () => {
    const { root, home } = project(IGNORE);
    submodule(root);
    const clone = join(root, "vendor", "mine");
    gitFolder(join(clone, ".git"));
    write(join(clone, "myprivate", "client-acme.md"), "k\n");
    write(join(clone, "myprivate", "AGENTS.md"), "y\n");
    write(join(clone, "README.md"), "r\n");
    write(join(root, "pub", "AGENTS.md"), "y\n");
    const built = await buildWorkspaceTree(root, {
      home,
      env: {},
      mtime: "2026-01-01T00:00:00Z",
      maxDepth: 4,
    });
    // Left: sub/deep/myprivate/, sub/deep/config/secrets.yml and sub/deep/top-only.md, the repository's own.
    expect(built.rendered).toBe(
      [
        "p/",
        "  pub/  2026-01-01 00:00",
        "    AGENTS.md  2B  2026-01-01 00:00",
        "  sub/  2026-01-01 00:00",
        "    config/  2026-01-01 00:00",
        "    deep/  2026-01-01 00:00",
        "      config/  2026-01-01 00:00",
        "        secrets.yml  19B  2026-01-01 00:00",
        "      myprivate/  2026-01-01 00:00",
        "        ok.md  15B  2026-01-01 00:00",
        "      top-only.md  23B  2026-01-01 00:00",
        "  vendor/  2026-01-01 00:00",
        "    mine/  2026-01-01 00:00",
        "      README.md  2B  2026-01-01 00:00",
      ].join("\n"),
    );
    expect(built.agentsMd).toEqual(["pub/AGENTS.md"]);
  });
});

// The tree's last level (folders four deep) is only looked up for an
// AGENTS.md, never listed, so a repository of its own there was not seen:
// its exclude file was not read, nor your global excludes anchored at its top,
// and its AGENTS.md, which the door refuses, was in the deeper list the model
// is told to read (review priv48, low). Its `.git` is now looked up by name.
describe("hostile repository: a repository of its own at the tree's last level", () => {
  it("its exclude file and your global /AGENTS.md keep its AGENTS.md out of the deeper list", async () => {
    const { root, home } = project("/AGENTS.md\n");
    // Four deep: a clone whose exclude file names AGENTS.md, and one your global list anchors.
    gitFolder(join(root, "a", "b", "c", "excluded", ".git"), "AGENTS.md\n");
    write(join(root, "a", "b", "c", "excluded", "AGENTS.md"), "x\n");
    gitFolder(join(root, "a", "b", "c", "yours", ".git"));
    write(join(root, "a", "b", "c", "yours", "AGENTS.md"), "x\n");
    // Three deep, no subfolder (read as the last level): a submodule, its `.git` a file.
    gitFolder(join(root, ".git", "modules", "sm"));
    write(join(root, "a", "b", "sm", ".git"), "gitdir: ../../../.git/modules/sm\n");
    write(join(root, "a", "b", "sm", "AGENTS.md"), "x\n");
    write(join(root, "a", "b", "c", "pub", "AGENTS.md"), "x\n");
    expect((await tree(root, home)).agentsMd).toEqual(["a/b/c/pub/AGENTS.md"]);
    // The door refuses them alike.
    writeFileSync(
      join(root, "AGENTS.md"),
      "@a/b/c/excluded/AGENTS.md\n@a/b/c/yours/AGENTS.md\n@a/b/sm/AGENTS.md\n@a/b/c/pub/AGENTS.md\n",
    );
    const codes = (await render(root, home)).diagnostics
      .filter((d) => d.code.startsWith("import-"))
      .map((d) => d.code);
    expect(codes).toEqual(["import-outside", "import-outside", "import-private"]);
  });

  it("lists them all when the lists name nothing (what the first case hides is there)", async () => {
    const { root, base } = project("");
    gitFolder(join(root, "a", "b", "c", "excluded", ".git"));
    write(join(root, "a", "b", "c", "excluded", "AGENTS.md"), "x\n");
    gitFolder(join(root, ".git", "modules", "sm"));
    write(join(root, "a", "b", "sm", ".git"), "gitdir: ../../../.git/modules/sm\n");
    write(join(root, "a", "b", "sm", "AGENTS.md"), "x\n");
    expect((await tree(root, join(base, "home"))).agentsMd).toEqual([
      "a/b/c/excluded/AGENTS.md",
      "a/b/sm/AGENTS.md",
    ]);
  });
});

// On touch, an AGENTS.md in a folder git ignores is no instruction for the
// project's agent (`context-ignored`): your anchored global excludes count
// there from the nested repository's top too. (This held before: touch asks a
// submodule's own checker; the case keeps the three surfaces in step.)
describe("hostile repository: on touch, your global excludes anchor at the nested repository's top", () => {
  it("a submodule's myprivate/AGENTS.md is not delivered for a file touched there", async () => {
    const { root, home } = project(IGNORE);
    const sub = submodule(root);
    write(join(sub, "myprivate", "AGENTS.md"), "MARKER-PRIVATE-AGENTS\n");
    write(join(sub, "deep", "myprivate", "AGENTS.md"), "Deep rules.\n");
    const got = await loadContextForPaths(["sub/myprivate/notes.md", "sub/deep/myprivate/ok.md"], {
      cwd: root,
      home,
    });
    expect(got.files.map((f) => [f.path, f.content])).toEqual([
      [join(sub, "deep", "myprivate", "AGENTS.md"), "Deep rules."],
    ]);
    expect(got.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        "context-ignored",
        join(sub, "myprivate", "AGENTS.md"),
        "not loaded: myprivate/AGENTS.md is ignored by your global git excludes, so it is not written for this project's agent",
      ],
    ]);
  });
});
