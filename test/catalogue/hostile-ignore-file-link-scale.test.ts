import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// The door followed an in-tree `.gitignore` that is a symbolic link, which git
// (2.32 and later) takes as missing: `sub/.gitignore -> ../negate.txt` holding
// `!secrets.txt` took back `sub/secrets.txt`, which the root's `secrets.txt`
// ignores, and `render --untrusted` imported it; a link to a file of yours out
// of the project was read as patterns (review rev51a F4). Such a link is now no
// ignore file, for the door as for git and the workspace tree.

function repo(files: Record<string, string>) {
  const base = tempDir();
  writeFiles(base, { "home/.pi/agent/.keep": "", ...files });
  execFileSync("git", ["init", "-q", join(base, "p")]);
  const home = join(base, "home");
  return { cwd: join(base, "p"), home, agentDir: join(home, ".pi", "agent"), env: {} };
}

function gitIgnores(cwd: string, paths: readonly string[]): string[] {
  try {
    const out = execFileSync("git", ["check-ignore", "--no-index", "--stdin", "-z"], {
      cwd,
      input: paths.join("\0"),
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    });
    return out.split("\0").filter((l) => l !== "");
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

describe("hostile repository: a .gitignore that is a symbolic link", () => {
  it("a linked nested .gitignore takes back nothing: the import is refused, as git ignores the file", async () => {
    const r = repo({
      "p/.gitignore": "secrets.txt\n",
      "p/negate.txt": "!secrets.txt\n",
      "p/sub/secrets.txt": "SECRET-LINKED-GITIGNORE-MARKER\n",
      "p/AGENTS.md": "# P\nSee @sub/secrets.txt\n",
    });
    symlinkSync("../negate.txt", join(r.cwd, "sub", ".gitignore"));
    expect(gitIgnores(r.cwd, ["sub/secrets.txt"])).toEqual(["sub/secrets.txt"]);
    const check = privatePaths(r.cwd, {
      signal: NO_DEADLINE,
      hidden: false,
      home: r.home,
      env: {},
    });
    expect((await check(join(r.cwd, "sub/secrets.txt")))?.why).toBe("ignored by git");
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).not.toContain("SECRET-LINKED-GITIGNORE-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(1);
    // The door and the tree agree: neither lists it.
    const tree = await buildWorkspaceTree(r.cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("negate.txt");
    expect(tree.rendered).not.toContain("secrets.txt");
  });

  it("a linked root .gitignore, in the project or out of it, is no ignore file, as for git", async () => {
    const r = repo({
      "home/.ssh/id_ed25519": "*.md\nkeep*\n",
      "p/rules.txt": "local.yml\n",
      "p/local.yml": "x\n",
      "p/keep.md": "x\n",
    });
    const paths = ["local.yml", "keep.md"];
    for (const target of [join(r.cwd, "rules.txt"), join(r.home, ".ssh", "id_ed25519")]) {
      execFileSync("rm", ["-f", join(r.cwd, ".gitignore")]);
      symlinkSync(target, join(r.cwd, ".gitignore"));
      expect(gitIgnores(r.cwd, paths), target).toEqual([]);
      const check = privatePaths(r.cwd, {
        signal: NO_DEADLINE,
        hidden: false,
        home: r.home,
        env: {},
      });
      const verdicts = await Promise.all(
        paths.map(async (p) => (await check(join(r.cwd, p)))?.why),
      );
      expect(verdicts, target).toEqual([undefined, undefined]);
    }
  });
});
