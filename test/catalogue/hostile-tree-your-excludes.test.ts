import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/index.js";
import { tempDir } from "../api/_helpers.js";

// The door refuses, for an untrusted project, what your global git excludes
// (~/.config/git/ignore) and the exclude files git reads name, whatever a
// .gitignore takes back. The workspace tree read neither your global file nor
// a nested repository's exclude file, nor the exclude file of a worktree (its
// `.git` a file): the names, sizes and times of a folder you told git to hide
// were listed, `--untrusted` too, and its AGENTS.md was in the deeper list the
// model is told to read. The tree now hides what the door's own lists name
// (review rev47d F3).

/** A `.git` folder git takes for one (HEAD, objects/, refs/), with `info/exclude` naming `excluded`. */
function gitFolder(dir: string, excluded: string): void {
  mkdirSync(join(dir, "info"), { recursive: true });
  mkdirSync(join(dir, "objects"));
  mkdirSync(join(dir, "refs"));
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "info", "exclude"), `${excluded}\n`);
}

/** A git project with your private names in each of your lists, and plain ones beside them. */
function project(): { base: string; root: string; home: string } {
  const base = tempDir();
  const home = join(base, "home");
  mkdirSync(join(home, ".config", "git"), { recursive: true });
  writeFileSync(join(home, ".config", "git", "ignore"), "MY-GLOBAL.txt\nmyprivate/\n");
  const root = join(base, "p");
  gitFolder(join(root, ".git"), "MY-EXCLUDED.txt");
  // The repository takes back what your exclude file names: git lets it, the door does not.
  writeFileSync(join(root, ".gitignore"), "!MY-EXCLUDED.txt\n");
  writeFileSync(join(root, "AGENTS.md"), "# p\n");
  for (const name of ["MY-GLOBAL.txt", "MY-EXCLUDED.txt", "plain.txt"]) {
    writeFileSync(join(root, name), "x\n");
  }
  mkdirSync(join(root, "myprivate"));
  writeFileSync(join(root, "myprivate", "client-acme-contract.md"), "k\n");
  writeFileSync(join(root, "myprivate", "AGENTS.md"), "y\n");
  mkdirSync(join(root, "pub"));
  writeFileSync(join(root, "pub", "AGENTS.md"), "y\n");
  // A clone of your own inside the project, its exclude file naming one of its files.
  const clone = join(root, "vendor", "mine");
  gitFolder(join(clone, ".git"), "clone-secret.md");
  writeFileSync(join(clone, "clone-secret.md"), "s\n");
  writeFileSync(join(clone, "README.md"), "r\n");
  return { base, root, home };
}

const tree = (root: string, home: string) =>
  buildWorkspaceTree(root, { home, env: {}, mtime: "2026-01-01T00:00:00Z" });

describe("hostile repository: the workspace tree and your own git excludes", () => {
  it("lists nothing your global excludes, your exclude file or a nested clone's exclude file names", async () => {
    const { root, home } = project();
    const built = await tree(root, home);
    for (const name of ["MY-GLOBAL.txt", "MY-EXCLUDED.txt", "myprivate", "acme", "clone-secret"]) {
      expect(built.rendered).not.toContain(name);
    }
    expect(built.rendered).toContain("plain.txt");
    expect(built.rendered).toContain("README.md");
    expect(built.agentsMd).toEqual(["pub/AGENTS.md"]);
  });

  it("names them all when you have no such lists (what the first case hides is there)", async () => {
    const { root, base } = project();
    const built = await tree(root, join(base, "elsewhere"));
    expect(built.rendered).toContain("MY-GLOBAL.txt");
    expect(built.rendered).toContain("client-acme-contract.md");
    expect(built.agentsMd).toEqual(["myprivate/AGENTS.md", "pub/AGENTS.md"]);
  });

  it("reads a linked worktree's exclude file where git does (the main repository's)", async () => {
    const base = tempDir();
    const main = join(base, "main");
    gitFolder(join(main, ".git"), "scratch.md");
    mkdirSync(join(main, ".git", "worktrees", "wt"), { recursive: true });
    writeFileSync(join(main, ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/wt\n");
    writeFileSync(join(main, ".git", "worktrees", "wt", "commondir"), "../..\n");
    const wt = join(base, "wt");
    mkdirSync(wt);
    // The link back git writes: a worktree's git folder names its `.git` (rev99a F7: one that
    // does not is another repository's, as the git section has it, and its exclude is not read).
    writeFileSync(join(main, ".git", "worktrees", "wt", "gitdir"), `${join(wt, ".git")}\n`);
    writeFileSync(join(wt, ".git"), `gitdir: ${join(main, ".git", "worktrees", "wt")}\n`);
    writeFileSync(join(wt, "scratch.md"), "mine\n");
    writeFileSync(join(wt, "src.ts"), "code\n");
    const built = await tree(wt, join(base, "home"));
    expect(built.rendered).not.toContain("scratch.md");
    expect(built.rendered).toContain("src.ts");
  });

  it("still lists your own folder when you work inside it", async () => {
    const { root, home } = project();
    const built = await tree(join(root, "myprivate"), home);
    expect(built.rendered).toContain("client-acme-contract.md");
  });
});
