import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  childState,
  folderIgnoreState,
  type IgnoredFolders,
  leavesOut,
  rootIgnoreState,
} from "../../src/author/_copy-ignore.js";
import { buildWorkspaceTree, treeDiagnostics } from "../../src/gather/tree/index.js";
import { walkSkillsRoot } from "../../src/skills/_walk.js";
import { tempDir } from "../api/_helpers.js";

// Review fx77d (recorded limits of rev71a F4 and rev58a F3). The skills walk and `explain
// --simulate`'s copy read a `.gitignore` as decoded text for what they skip for their own sake:
// a NUL byte made the whole file binary and none (git ends the line there), a lone CR was a
// line end (git keeps it in the name), and `!drafts/\r\r` took `drafts/` back (git drops one CR
// only). Both now read ignore files as the door and the workspace tree do (bytes, through the
// door's reader), so they skip what git skips. And the workspace tree took a FIFO (a socket, a
// device) named `.gitignore` as no ignore file, silently, where the door refuses what is below
// it: the tree now says the folder's ignore rules were not read whole (`ignore-patterns-cut`),
// its names shown, and never blocks on the FIFO.

/** Each folder's `.gitignore`, read otherwise as bytes than as decoded text, and the skill folders under it. */
const VARIANTS: Record<string, { ignore: Buffer; names: string[] }> = {
  // A NUL ends its line for git; decoded, the file was binary and nothing was skipped.
  nul: { ignore: Buffer.from("drafts/\nnote\0s/\n", "latin1"), names: ["drafts", "note", "kept"] },
  // A lone CR is part of the name for git; decoded, `old/` was a line of its own.
  cr: { ignore: Buffer.from("keep\rold/\n", "latin1"), names: ["old", "keep", "kept"] },
  // git drops one CR before LF: `!private/\r` takes back nothing; decoded, it took back `private/`.
  bang: { ignore: Buffer.from("private/\n!private/\r\r\n", "latin1"), names: ["private", "kept"] },
  // A BOM is skipped both ways, and `!` alone matches nothing.
  bom: { ignore: Buffer.from("\uFEFFwip/\n!\n", "utf8"), names: ["wip", "kept"] },
};

function skillsRepo(): string {
  const root = join(tempDir(), "skills");
  mkdirSync(root, { recursive: true });
  execFileSync("git", ["init", "-q", root]);
  for (const [folder, { ignore, names }] of Object.entries(VARIANTS)) {
    mkdirSync(join(root, folder));
    writeFileSync(join(root, folder, ".gitignore"), ignore);
    for (const name of names) {
      mkdirSync(join(root, folder, name));
      writeFileSync(join(root, folder, name, "SKILL.md"), `---\nname: ${name}\n---\n`);
    }
  }
  return root;
}

/** The skill folders (`nul/drafts`…) of `root` git does not ignore. */
function gitKept(root: string): string[] {
  const all = Object.entries(VARIANTS).flatMap(([folder, { names }]) =>
    names.map((name) => `${folder}/${name}`),
  );
  let out: string;
  try {
    out = execFileSync("git", ["check-ignore", "--stdin", "-z"], {
      cwd: root,
      input: all.map((p) => `${p}/SKILL.md`).join("\0"),
      encoding: "utf8",
    });
  } catch (error) {
    if ((error as { status?: number }).status !== 1) throw error;
    out = String((error as { stdout?: string }).stdout ?? "");
  }
  const ignored = out.split("\0").filter((l) => l !== "");
  return all.filter((p) => !ignored.includes(`${p}/SKILL.md`)).sort();
}

describe("hostile-ignore-bytes: the skills walk and the simulate copy read .gitignore as git does", () => {
  it("the skills walk skips what git skips", async () => {
    const root = skillsRepo();
    const kept = gitKept(root);
    // git's own reading: the variants do differ from a decoded one.
    expect(kept).toEqual(
      ["bang/kept", "bom/kept", "cr/keep", "cr/kept", "cr/old", "nul/kept"].sort(),
    );
    const walked = await walkSkillsRoot(root);
    const found = walked.candidates
      .map((c) => relative(root, c.filePath).replace(/\/SKILL\.md$/, ""))
      .sort();
    expect(found).toEqual(kept);
  });

  it("the simulate copy leaves out what git ignores, and nothing else", async () => {
    const root = skillsRepo();
    const kept = gitKept(root);
    const skip: IgnoredFolders = { keep: [], whole: [], keepNames: new Set() };
    const top = await folderIgnoreState(await rootIgnoreState(root), root);
    const copied: string[] = [];
    for (const [folder, { names }] of Object.entries(VARIANTS)) {
      const state = await folderIgnoreState(
        childState(top, folder, join(root, folder), skip),
        join(root, folder),
      );
      for (const name of names) {
        if (!leavesOut(state, name, join(root, folder, name), skip, true)) {
          copied.push(`${folder}/${name}`);
        }
      }
    }
    expect(copied.sort()).toEqual(kept);
  });
});

describe("hostile-gitignore-fifo-tree: the workspace tree and a FIFO .gitignore", () => {
  it("shows the folder's names and says its ignore rules were not read whole, without blocking", async () => {
    const base = tempDir();
    const repo = join(base, "repo");
    mkdirSync(join(repo, "sub"), { recursive: true });
    mkdirSync(join(repo, "deep", "a", "b"), { recursive: true });
    execFileSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "sub", "secret.txt"), "x\n");
    writeFileSync(join(repo, "main.js"), "x\n");
    execFileSync("mkfifo", [join(repo, "sub", ".gitignore")]);
    // A folder the walk only asks for its context file (the last level), its .gitignore a FIFO too.
    writeFileSync(join(repo, "deep", "a", "b", "AGENTS.md"), "# b\n");
    execFileSync("mkfifo", [join(repo, "deep", "a", "b", ".gitignore")]);
    const options = { home: join(base, "home"), env: {}, mtime: "2026-01-01T00:00:00Z" };
    const built = await buildWorkspaceTree(repo, { ...options, maxDepth: 3 });
    expect(built.rendered).toContain("secret.txt");
    expect(built.rendered).toContain("main.js");
    const cut = treeDiagnostics(built, repo).filter((d) => d.code === "ignore-patterns-cut");
    expect(cut.map((d) => d.message).join("\n")).toContain(join(repo, "sub", ".gitignore"));
    expect(cut.map((d) => d.message).join("\n")).toContain(
      join(repo, "deep", "a", "b", ".gitignore"),
    );
    expect(cut[0]?.message).toContain("FIFO");
    // Rooted below it: the FIFO is on the way down from the repository's top.
    const below = await buildWorkspaceTree(join(repo, "sub"), options);
    expect(below.rendered).toContain("secret.txt");
    const said = treeDiagnostics(below, join(repo, "sub")).map((d) => d.code);
    expect(said).toContain("ignore-patterns-cut");
  });
});
