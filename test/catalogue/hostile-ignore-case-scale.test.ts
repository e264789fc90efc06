import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// The door matched ignore patterns without case (`ignore`'s default), git with
// it (core.ignoreCase=false, a Linux clone's setting): `secrets.txt` then
// `!SECRETS.TXT` re-included the file git ignores, and `render --untrusted`
// imported it (review rev51a F1). A path is now ignored when git ignores it
// with either core.ignoreCase (rev69c F6): a folded negation takes back nothing.

function repo(files: Record<string, string>) {
  const base = tempDir();
  writeFiles(base, { "home/.pi/agent/.keep": "", ...files });
  execFileSync("git", ["init", "-q", join(base, "p")]);
  const home = join(base, "home");
  return { cwd: join(base, "p"), home, agentDir: join(home, ".pi", "agent"), env: {} };
}

function gitIgnores(cwd: string, paths: readonly string[], ignoreCase = false): string[] {
  try {
    const out = execFileSync(
      "git",
      ["-c", `core.ignoreCase=${ignoreCase}`, "check-ignore", "--no-index", "--stdin", "-z"],
      { cwd, input: paths.join("\0"), encoding: "utf8" },
    );
    return out.split("\0").filter((l) => l !== "");
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
}

const CASES: [string, string[], boolean][] = [
  // A negation in another case takes back nothing: git keeps these ignored.
  ["secrets.txt\n!SECRETS.TXT\n", ["secrets.txt"], true],
  ["sec\n!?EC\n", ["sec"], true],
  ["*\n!s[E]c\n", ["sec"], true],
  ["k/\n!K/\n", ["k/f"], true],
  // A pattern in another case: git on a Linux clone shows these, on a macOS or
  // Windows clone (core.ignoreCase=true) ignores them, and so does the door (rev69c F6).
  ["S*\n", ["sec"], true],
  ["[A-Z]ec\n", ["sec"], true],
];

describe("hostile repository: ignore patterns in another case", () => {
  it("the door's verdict on each name is git's", async () => {
    for (const [gitignore, paths, ignored] of CASES) {
      const files: Record<string, string> = { "p/.gitignore": gitignore };
      for (const p of paths) files[`p/${p}`] = "SECRET\n";
      const r = repo(files);
      const either = new Set([...gitIgnores(r.cwd, paths), ...gitIgnores(r.cwd, paths, true)]);
      expect([...either], gitignore).toEqual(ignored ? paths : []);
      const check = privatePaths(r.cwd, {
        signal: NO_DEADLINE,
        hidden: false,
        home: r.home,
        env: {},
      });
      const verdicts = await Promise.all(
        paths.map(async (p) => (await check(join(r.cwd, p)))?.why),
      );
      expect(verdicts, gitignore).toEqual(
        paths.map(() => (ignored ? "ignored by git" : undefined)),
      );
    }
  });

  it("an untrusted import of secrets.txt under `!SECRETS.TXT` is refused, and the tree hides it", async () => {
    const r = repo({
      "p/.gitignore": "secrets.txt\n!SECRETS.TXT\n",
      "p/secrets.txt": "API_TOKEN=SECRET-CASE-MARKER\n",
      "p/AGENTS.md": "# P\nSee @secrets.txt\n",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).not.toContain("SECRET-CASE-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(1);
    const tree = await buildWorkspaceTree(r.cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("AGENTS.md");
    expect(tree.rendered).not.toContain("secrets.txt");
  });
});
