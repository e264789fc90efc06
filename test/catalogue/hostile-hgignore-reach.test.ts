import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { compileHgIgnore } from "../../src/repo-files/hgignore.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// rev70b F8 and F10: where a Mercurial working copy's `.hgignore` reaches.
// F10: a git repository committed inside the working copy (`app/.git`: Mercurial refuses only `.hg`
// path components) rooted the door at `app/`, which read the `.hgignore` of its own root only, so
// from `app/` the file Mercurial ignores was inlined under --untrusted.
// F8: `.hgignore` was matched case by case only, where git's rules are read folded too (rev69c F6):
// on a case-insensitive file system a committed `@SECRETS.YML` opens the `secrets.yml` Mercurial ignores.

function hgCopy(hgignore: string, files: Record<string, string>) {
  const base = tempDir();
  const top = join(base, "top");
  mkdirSync(join(top, ".hg"), { recursive: true });
  writeFileSync(join(top, ".hg", "requires"), "store\n");
  writeFileSync(join(top, ".hgignore"), hgignore);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(top, path, ".."), { recursive: true });
    writeFileSync(join(top, path), text);
  }
  const home = join(base, "home");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  return { top, home };
}

const render = (cwd: string, home: string, trusted = false) =>
  renderSystemPrompt({
    cwd,
    home,
    agentDir: join(home, ".pi", "agent"),
    env: {},
    projectTrusted: trusted,
    workspaceTree: true,
    treeMtime: "2026-01-10T09:00:00Z",
  });

const privateWhy = (r: Awaited<ReturnType<typeof render>>) =>
  r.diagnostics.filter((d) => d.code.endsWith("-private")).map((d) => d.message);

describe("hostile repository: a .hgignore reaches every file Mercurial walks to", () => {
  it("below a git repository inside the working copy, the file .hgignore names is refused and not listed", async () => {
    const { top, home } = hgCopy("syntax: glob\napp/secrets.yml\n", {
      "app/AGENTS.md": "# App\nSee @secrets.yml and @notes.md\n",
      "app/secrets.yml": "db_password: HG-NESTED-GIT-MARKER\n",
      "app/notes.md": "NOTES-NESTED-MARKER\n",
    });
    execFileSync("git", ["init", "-q", join(top, "app")]);
    const result = await render(join(top, "app"), home);
    expect(result.text).not.toContain("HG-NESTED-GIT-MARKER");
    expect(result.text).toContain("NOTES-NESTED-MARKER");
    expect(privateWhy(result)).toEqual([
      expect.stringContaining("ignored by Mercurial (.hgignore)"),
    ]);
    // The workspace tree says no more than the door: rooted at app/, it does not list the file.
    const tree = await buildWorkspaceTree(join(top, "app"), {
      mtime: "2026-01-01T00:00:00Z",
      home,
    });
    expect(tree.rendered).toContain("notes.md");
    expect(tree.rendered).not.toContain("secrets.yml");
    // A nearer working copy (a clone of yours) applies its own `.hgignore`, and ends nothing: the
    // outer one's still counts, as a repository may commit a `.hg` of its own (rev82a F1).
    mkdirSync(join(top, "app", ".hg"));
    writeFileSync(join(top, "app", ".hgignore"), "syntax: glob\nlocal.txt\n");
    writeFileSync(join(top, "app", "local.txt"), "x\n");
    const check = privatePaths(join(top, "app"), {
      signal: NO_DEADLINE,
      hidden: false,
      home,
      env: {},
    });
    expect((await check(join(top, "app", "local.txt")))?.why).toBe(
      "ignored by Mercurial (.hgignore)",
    );
    expect((await check(join(top, "app", "secrets.yml")))?.why).toBe(
      "ignored by Mercurial (.hgignore)",
    );
    expect(await check(join(top, "app", "notes.md"))).toBeUndefined();
  });

  it("a name in another case is ignored as git's rules are: either reading ignores it", async () => {
    // The spelling the import asks: a case-insensitive file system opens the ignored file by it.
    const { top, home } = hgCopy("syntax: glob\nsecrets.yml\n", {
      "AGENTS.md": "See @SECRETS.YML\n",
      "SECRETS.YML": "db_password: HG-CASE-MARKER\n",
    });
    const result = await render(top, home);
    expect(result.text).not.toContain("HG-CASE-MARKER");
    expect(privateWhy(result)).toEqual([
      expect.stringContaining("ignored by Mercurial (.hgignore)"),
    ]);
    for (const [hgignore, asked] of [
      ["syntax: glob\nSecrets.yml\n", "secrets.yml"],
      ["^config/[a-z]+\\.yml$\n", "Config/Local.YML"],
      ["^\\x53ecret\\.env$\n", "secret.env"],
    ] as const) {
      const copy = hgCopy(hgignore, { [asked]: "x\n" });
      const check = privatePaths(copy.top, {
        signal: NO_DEADLINE,
        hidden: false,
        home: copy.home,
        env: {},
      });
      expect((await check(join(copy.top, asked)))?.why, hgignore).toBe(
        "ignored by Mercurial (.hgignore)",
      );
    }
    // The case-by-case reading stands: nothing it ignored is passed.
    const rules = compileHgIgnore("syntax: glob\nsecrets.yml\nre:^build/\n");
    for (const path of ["secrets.yml", "a/SECRETS.yml", "Build/x", "build/x"]) {
      expect(rules.ignores(path), path).toBe(true);
    }
    expect(rules.ignores("secrets.yaml")).toBe(false);
    expect(rules.ignores("notes.md")).toBe(false);
  });
});
