import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { buildWorkspaceTree } from "../../src/gather/tree/index.js";
import { tempDir } from "../api/_helpers.js";

// Rendered from a subfolder of a checkout (`repo/app`, a package of a
// monorepo), the working folder's own `.gitignore` hid nothing in the
// workspace tree: its patterns were rebased at `app/` + "" and became
// `app//**/secrets.yml`, which matches no path. The names, sizes and times of
// git-ignored files were listed, `--untrusted` too, and a git-ignored
// `private/AGENTS.md` was in the list the model is told to read. A base given
// as a folder (`app/`) is now that folder (review rev73a F2). The tree is
// checked against `git check-ignore` rooted at the subfolder.

function checkout() {
  const base = tempDir();
  const repo = join(base, "repo");
  const app = join(repo, "app");
  mkdirSync(join(app, "private"), { recursive: true });
  mkdirSync(join(app, "build", "gen"), { recursive: true });
  mkdirSync(join(app, "src", "deep"), { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  writeFileSync(join(app, ".gitignore"), "secrets.yml\nprivate/\nbuild/\n/top-only.txt\n*.log\n");
  writeFileSync(join(app, "src", ".gitignore"), "local.txt\n");
  const files = [
    "secrets.yml",
    "private/AGENTS.md",
    "build/gen/out1.js",
    "top-only.txt",
    "src/top-only.txt",
    "run.log",
    "src/deep/x.log",
    "src/local.txt",
    "src/deep/local.txt",
    "main.js",
    "src/deep/AGENTS.md",
  ];
  for (const file of files) writeFileSync(join(app, file), "x\n");
  return { base, repo, app, files };
}

/** The paths of `paths` (relative to `app`) that git ignores, asked from `app`. */
function gitIgnored(app: string, paths: string[]): string[] {
  let out: string;
  try {
    out = execFileSync("git", ["check-ignore", "--stdin", "-z"], {
      cwd: app,
      input: paths.join("\0"),
      encoding: "utf8",
    });
  } catch (error) {
    if ((error as { status?: number }).status !== 1) throw error;
    out = String((error as { stdout?: string }).stdout ?? "");
  }
  return out.split("\0").filter((l) => l !== "");
}

/** Every path the tree walk rooted at `app` lists, folders and files. */
async function listed(app: string, home: string): Promise<string[]> {
  const tree = await walkTree(app, {
    listDepth: 12,
    agentsDepth: 0,
    home,
    env: { HOME: home },
    trusted: false,
  });
  const out: string[] = [];
  const rec = async (rel: string): Promise<void> => {
    for (const kid of await tree.children(rel)) {
      const path = rel === "" ? kid.name : `${rel}/${kid.name}`;
      out.push(path);
      if (kid.kind === "dir") await rec(path);
    }
  };
  await rec("");
  return out;
}

describe("hostile repository: the workspace tree rooted at a subfolder of a checkout", () => {
  it("lists nothing git ignores from there, and every file git keeps", async () => {
    const { base, app, files } = checkout();
    const home = join(base, "home");
    const ignored = gitIgnored(app, files);
    expect(ignored).toEqual(
      expect.arrayContaining([
        "secrets.yml",
        "private/AGENTS.md",
        "build/gen/out1.js",
        "top-only.txt",
      ]),
    );
    const shown = await listed(app, home);
    expect(gitIgnored(app, shown)).toEqual([]);
    for (const file of files.filter((f) => !ignored.includes(f))) expect(shown).toContain(file);
    // `/top-only.txt` is anchored at app/: src/top-only.txt is kept, as git keeps it.
    expect(shown).toContain("src/top-only.txt");
  });

  it("names no git-ignored AGENTS.md for the model to read", async () => {
    const { base, app } = checkout();
    const built = await buildWorkspaceTree(app, {
      home: join(base, "home"),
      env: {},
      mtime: "2026-01-01T00:00:00Z",
    });
    expect(built.rendered).not.toContain("secrets.yml");
    expect(built.rendered).not.toContain("private");
    expect(built.rendered).toContain("main.js");
    expect(built.agentsMd).toEqual(["src/deep/AGENTS.md"]);
  });
});
