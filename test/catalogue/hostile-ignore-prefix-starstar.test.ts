import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { writeFiles } from "../api/_helpers.js";
import { gitIgnores, gitRepo } from "./_git-ignores.js";

// A `.gitignore` line whose `**` follows literal text in its segment
// (`conf**/secrets.yml`) hid a file from git but not from the door: git's
// match_pathname (dir.c) compares the literal text before the first wildcard
// (`conf`) on its own and wildmatches the rest (`**/secrets.yml`), where a
// leading `**/` crosses folders, so git ignores `config/local/secrets.yml`;
// the door read the line as the documented `conf*/secrets.yml`, and
// `--untrusted` imported the user's ignored file through the committed
// `AGENTS.md`'s `@config/local/secrets.yml`, and the tree listed it (review
// rev68a F2). An escaped slash (`**\/x.md`) was misread the same way.

async function doorIgnores(r: ReturnType<typeof gitRepo>, paths: readonly string[]) {
  const check = privatePaths(r.cwd, { signal: NO_DEADLINE, hidden: false, home: r.home, env: {} });
  const out: string[] = [];
  for (const p of paths) if ((await check(join(r.cwd, p))) !== undefined) out.push(p);
  return out;
}

// Each file's lines, the paths git ignores by them and paths they keep.
const SHAPES: [string, string[], string[]][] = [
  [
    "conf**/secrets.yml",
    ["config/local/secrets.yml", "conf/a/secrets.yml", "confsecrets.yml"],
    ["con/secrets.yml", "a/config/secrets.yml"],
  ],
  ["a**/x.md", ["ab/c/x.md", "a/c/x.md", "ax.md"], ["b/a/x.md"]],
  ["a/b**/x.md", ["a/bc/d/x.md", "a/b/x.md"], ["a/c/x.md"]],
  ["d/a**/x.md", ["d/ab/c/x.md"], ["d/b/x.md"]],
  ["/a**/x.md", ["ab/c/x.md"], ["b/ab/c/x.md"]],
  ["a**//", ["a/f.md"], ["ab/f.md"]],
  ["a**\\/x.md", ["ab/c/x.md", "a/x.md"], ["ax.md"]],
  ["**\\/x.md", ["a/c/x.md", "a/x.md"], ["x.md"]],
  // git re-includes through the same reading.
  ["x.md\n!a/b**", ["c/x.md"], ["a/bc/d/x.md"]],
];

describe("hostile repository: a .gitignore `**` after literal text in its segment", () => {
  it("the door ignores what git ignores, line by line", async () => {
    for (const [line, ignored, kept] of SHAPES) {
      const paths = [...ignored, ...kept];
      const files: Record<string, string> = { "p/.gitignore": `${line}\n` };
      for (const p of paths) files[`p/${p}`] = "SECRET\n";
      const r = gitRepo(files);
      expect(gitIgnores(r.cwd, paths).sort(), line).toEqual([...ignored].sort());
      expect((await doorIgnores(r, paths)).sort(), line).toEqual([...ignored].sort());
    }
  });

  it("a nested .gitignore and .git/info/exclude read the line as git does", async () => {
    const r = gitRepo({
      "p/sub/.gitignore": "conf**/secrets.yml\n",
      "p/sub/config/local/secrets.yml": "SECRET\n",
      "p/config/local/secrets.yml": "SECRET\n",
      "p/other/config/local/secrets.yml": "SECRET\n",
    });
    writeFiles(r.cwd, { ".git/info/exclude": "/other/conf**/secrets.yml\n" });
    const paths = [
      "sub/config/local/secrets.yml",
      "config/local/secrets.yml",
      "other/config/local/secrets.yml",
    ];
    const both = ["other/config/local/secrets.yml", "sub/config/local/secrets.yml"];
    expect(gitIgnores(r.cwd, paths).sort()).toEqual(both);
    const check = privatePaths(r.cwd, {
      signal: NO_DEADLINE,
      hidden: false,
      home: r.home,
      env: {},
    });
    const verdicts = await Promise.all(paths.map(async (p) => (await check(join(r.cwd, p)))?.why));
    // The exclude file is read with the root's rules, so its verdict says "ignored by git" too.
    expect(verdicts.map((v) => v !== undefined)).toEqual([true, false, true]);
  });

  it("an untrusted import of the ignored config/local/secrets.yml is refused, and the tree leaves it out", async () => {
    const r = gitRepo({
      "p/.gitignore": "conf**/secrets.yml\n",
      "p/AGENTS.md": "Project notes. Local settings: @config/local/secrets.yml\n",
      "p/config/local/secrets.yml": "db_password: SECRET-DB-MARKER\n",
      "p/config/local/public.yml": "port: 1\n",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).toContain("Project notes.");
    expect(out.text).not.toContain("SECRET-DB-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(1);
    const tree = await buildWorkspaceTree(r.cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("public.yml");
    expect(tree.rendered).not.toContain("secrets.yml");
  });
});
