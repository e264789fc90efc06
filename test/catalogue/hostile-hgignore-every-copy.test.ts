import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { buildWorkspaceTree, treeDiagnostics } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { giveAway, IS_ROOT, put, sharedFolder } from "./_nobody.js";

// rev82a F1: a git repository cloned inside your Mercurial working copy (the rev70b F10 layout)
// committed a `.hg` folder (`.hg/keep`), or a link named `.hg`, and so ended the door's and the
// tree's walk for `.hg` at its own top: your copy's `.hgignore` was no longer read, and
// `render --untrusted` inlined your `config.local.yml` it ignores. An ignore file only makes more
// private: every working copy's `.hgignore` up to the home stop now counts, not only the nearest.
// rev82a F2: another user's `.hg` and `.hgignore` in a world-writable folder above your clone
// (`/tmp/.hg`) hid the clone's nested `AGENTS.md` from the tree, dir_context and the hook, with
// no word. Such a marker is refused as a project root's is (`root-marker-refused`), and said.

const MARK = "SECRET-LOCAL-YML-MARKER";

function layout(marker: "dir" | "link-git" | "link-tmp") {
  const base = tempDir();
  const top = join(base, "myhg");
  const home = join(base, "home");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(join(top, ".hg"), { recursive: true });
  writeFileSync(join(top, ".hgignore"), "syntax: glob\n*.local.yml\n");
  const evil = join(top, "vendor", "evil");
  mkdirSync(evil, { recursive: true });
  execFileSync("git", ["init", "-q", evil]);
  writeFileSync(join(evil, "AGENTS.md"), "# evil\nSee @config.local.yml\n");
  writeFileSync(join(evil, "config.local.yml"), `db_password: ${MARK}\n`);
  writeFileSync(join(evil, "code.py"), "x\n");
  // What the repository commits: git tracks any path but `.git`.
  if (marker === "dir") put(join(evil, ".hg", "keep"), "");
  else symlinkSync(marker === "link-git" ? ".git" : base, join(evil, ".hg"));
  return { evil, home };
}

describe("hostile repository: a committed .hg does not switch off your working copy's .hgignore", () => {
  for (const marker of ["dir", "link-git", "link-tmp"] as const) {
    it(`hg-committed-marker-${marker}: your ignored file stays refused and unlisted`, async () => {
      const { evil, home } = layout(marker);
      const result = await renderSystemPrompt({
        cwd: evil,
        home,
        agentDir: join(home, ".pi", "agent"),
        env: {},
        projectTrusted: false,
        workspaceTree: true,
        treeMtime: "2026-01-10T09:00:00Z",
      });
      expect(result.text).not.toContain(MARK);
      expect(result.text).toContain("# evil");
      expect(
        result.diagnostics.filter((d) => d.message.includes("ignored by Mercurial (.hgignore)")),
      ).toHaveLength(1);
      const check = privatePaths(evil, { signal: NO_DEADLINE, hidden: false, home, env: {} });
      expect((await check(join(evil, "config.local.yml")))?.why).toBe(
        "ignored by Mercurial (.hgignore)",
      );
      const tree = await buildWorkspaceTree(evil, { mtime: "2026-01-01T00:00:00Z", home });
      expect(tree.rendered).toContain("code.py");
      expect(tree.rendered).not.toContain("config.local.yml");
    });
  }
});

describe("hostile neighbour: another user's .hg in a shared folder hides nothing of your clone", () => {
  it.runIf(IS_ROOT)(
    "hg-planted-in-shared-folder: the nested AGENTS.md is listed and given on touch, the marker said (needs root)",
    async () => {
      const root = tempDir();
      const shared = sharedFolder(root, "ww", 0o1777);
      const mine = join(shared, "mine");
      put(join(mine, "AGENTS.md"), "MINE-ROOT\n");
      put(join(mine, "sub", "AGENTS.md"), "MINE-SUB-RULES\n");
      put(join(mine, "sub", "x.ts"), "x\n");
      execFileSync("git", ["init", "-q", mine]);
      mkdirSync(join(shared, ".hg"));
      put(join(shared, ".hgignore"), "syntax: glob\nsub\n");
      giveAway(join(shared, ".hg"));
      giveAway(join(shared, ".hgignore"));
      const home = join(root, "home");
      mkdirSync(home, { recursive: true });
      const tree = await buildWorkspaceTree(mine, { mtime: "2026-01-01T00:00:00Z", home });
      expect(tree.rendered).toContain("x.ts");
      expect(tree.agentsMd).toEqual(["sub/AGENTS.md"]);
      const said = treeDiagnostics(tree, mine).filter((d) => d.code === "root-marker-refused");
      expect(said.map((d) => d.path)).toEqual([shared]);
      expect(said[0]?.message).toContain("hides nothing");
      const touched = await loadContextForPaths([join(mine, "sub", "x.ts")], { cwd: mine, home });
      expect(JSON.stringify(touched)).toContain("MINE-SUB-RULES");
      const check = privatePaths(mine, { signal: NO_DEADLINE, hidden: false, home, env: {} });
      expect(await check(join(mine, "sub", "AGENTS.md"))).toBeUndefined();
      // A render says it once.
      const result = await renderSystemPrompt(
        pinned(root, { cwd: mine, home, projectTrusted: true, workspaceTree: true }),
      );
      expect(result.text).toContain("sub/AGENTS.md");
      expect(result.diagnostics.filter((d) => d.code === "root-marker-refused")).toHaveLength(1);
    },
  );
});
