import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { gitIgnores, gitRepo } from "./_git-ignores.js";

// A `.gitignore` class that opens with `]` after `[!` or `[^`, holds `\]` or
// a `[:alpha:]`, followed by another class (`[!][x]ecrets.yml`), hid a file
// from git but not from the door: the shortcut that passes over a file's
// patterns by their last segment ended the class at its first `]`, so it
// wanted one character more than git, and `ignore` was never asked.
// `--untrusted` imported the user's ignored `secrets.yml` and the tree listed
// it (review rev69c F1). Classes now end where wildmatch ends them.

// Each line, the paths git ignores by it and paths it keeps.
const SHAPES: [string, string[], string[]][] = [
  ["[!][x]ecrets.yml", ["secrets.yml"], ["public.yml"]],
  ["[^][x]ecrets.yml", ["secrets.yml"], ["public.yml"]],
  ["[[:alpha:][x]ecrets.yml", ["secrets.yml"], ["public.yml"]],
  ["[\\][x]ecrets.yml", ["]ecrets.yml"], ["secrets.yml"]],
  ["[a-z][!][x]ecrets.yml", ["xsecrets.yml"], ["secrets.yml"]],
  ["s/[!]A[A-Z]", ["s/x/f.md"], ["s/B/f.md", "s/xAB/f.md"]],
];

describe("hostile repository: a .gitignore class whose first `]` does not end it", () => {
  it("the door ignores what git ignores, line by line", async () => {
    for (const [line, ignored, kept] of SHAPES) {
      const paths = [...ignored, ...kept];
      const files: Record<string, string> = { "p/.gitignore": `${line}\n` };
      for (const p of paths) files[`p/${p}`] = "SECRET\n";
      const r = gitRepo(files);
      expect(gitIgnores(r.cwd, paths), line).toEqual(ignored);
      const check = privatePaths(r.cwd, {
        signal: NO_DEADLINE,
        hidden: false,
        home: r.home,
        env: {},
      });
      const door: string[] = [];
      for (const p of paths) if ((await check(join(r.cwd, p))) !== undefined) door.push(p);
      expect(door, line).toEqual(ignored);
    }
  });

  it("an untrusted import of the ignored secrets.yml is refused, and the tree leaves it out", async () => {
    const r = gitRepo({
      "p/.gitignore": "[!][x]ecrets.yml\n",
      "p/AGENTS.md": "Project notes. Local settings: @secrets.yml\n",
      "p/secrets.yml": "db_password: SECRET-DB-MARKER\n",
      "p/public.yml": "port: 1\n",
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
