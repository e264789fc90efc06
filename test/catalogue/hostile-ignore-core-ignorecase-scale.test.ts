import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/index.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { gitIgnores, gitRepo } from "./_git-ignores.js";

// The door matched ignore lines case by case whatever `core.ignoreCase` says,
// and every macOS or Windows clone has `core.ignoreCase=true`: `.gitignore`
// `secrets.yml`, the file `Secrets.yml`, `AGENTS.md` `@Secrets.yml`: git
// ignores it, `render --untrusted` inlined it (review rev69c F6). The
// repository's own `.git/config` may say anything, so a path is ignored when
// either reading ignores it: a folded negation takes back nothing the
// case-by-case reading ignores (rev51a F1).

// Lines, the paths git ignores with core.ignoreCase=true, and with false.
const CASES: [string, string[], string[], string[]][] = [
  ["secrets.yml\n", ["Secrets.yml", "SECRETS.YML"], [], ["public.yml"]],
  ["*.YML\n", ["a.yml"], [], ["a.md"]],
  ["[A-Z]ecrets.yml\n", ["secrets.yml"], [], ["1ecrets.yml"]],
  ["Config/\n", ["config/local.yml"], [], ["configs/local.yml"]],
  // A folded negation takes back nothing the case-by-case reading ignores.
  ["secrets.yml\n!SECRETS.YML\n", [], ["secrets.yml"], ["SECRETS.YML"]],
];

describe("hostile repository: ignore lines and core.ignoreCase", () => {
  it("a path either reading of git's ignores is ignored", async () => {
    for (const [gitignore, folded, sensitive, kept] of CASES) {
      const paths = [...new Set([...folded, ...sensitive, ...kept])];
      const files: Record<string, string> = { "p/.gitignore": gitignore };
      for (const p of paths) files[`p/${p}`] = "SECRET\n";
      const r = gitRepo(files, false);
      const either = paths.filter((p) => folded.includes(p) || sensitive.includes(p));
      expect(gitIgnores(r.cwd, paths, true).sort(), gitignore).toEqual([...folded].sort());
      expect(gitIgnores(r.cwd, paths, false).sort(), gitignore).toEqual([...sensitive].sort());
      const check = privatePaths(r.cwd, {
        signal: NO_DEADLINE,
        hidden: false,
        home: r.home,
        env: {},
      });
      const door: string[] = [];
      for (const p of paths) if ((await check(join(r.cwd, p))) !== undefined) door.push(p);
      expect(door.sort(), gitignore).toEqual(either.sort());
    }
  });

  it("an untrusted import of Secrets.yml under `secrets.yml` is refused, and the tree leaves it out", async () => {
    const r = gitRepo(
      {
        "p/.gitignore": "secrets.yml\n",
        "p/AGENTS.md": "Project notes. Local settings: @Secrets.yml\n",
        "p/Secrets.yml": "db_password: SECRET-DB-MARKER\n",
        "p/public.yml": "port: 1\n",
      },
      true,
    );
    expect(gitIgnores(r.cwd, ["Secrets.yml"], true)).toEqual(["Secrets.yml"]);
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).toContain("Project notes.");
    expect(out.text).not.toContain("SECRET-DB-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "import-private").length).toBe(1);
    const tree = await buildWorkspaceTree(r.cwd, { mtime: "2026-01-01T00:00:00Z" });
    expect(tree.rendered).toContain("public.yml");
    expect(tree.rendered).not.toContain("Secrets.yml");
  });
});
