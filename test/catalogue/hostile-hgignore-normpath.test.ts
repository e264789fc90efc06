import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// rev71a F1: a `.hgignore` glob is a path to Mercurial, normalised before it is matched
// (`_donormalize`'s `util.normpath`, `pathutil.canonpath` for the line an `include` prefix
// test takes): `secrets/`, the everyday way to name a folder, ignored nothing for the door,
// nor did `./x`, `a/../x`, `a//b`, `rootglob:secrets/`, `includes/../x`; under --untrusted the
// file Mercurial ignores was inlined and the workspace tree listed it. hg-core, the Rust status,
// also reads `path:`, `relpath:`, `filepath:` and `rootfilesin:` lines, which Python's reader takes
// as the syntax in force: either reading ignoring a file now counts.
// F5: an empty `.git` file between the root and the working copy's top stopped the tree's search.
// F6: a `.hg` that is a link to a folder (Mercurial follows it) marked no working copy.
// F7: the tree listed what a nested Mercurial working copy's `.hgignore` ignores, where a
// nested git clone's ignored files are left out.

function hgCopy(hgignore: string, files: Record<string, string>, hg: "dir" | "link" = "dir") {
  const base = tempDir();
  const top = join(base, "top");
  mkdirSync(top, { recursive: true });
  if (hg === "dir") mkdirSync(join(top, ".hg"));
  else {
    mkdirSync(join(base, "store"));
    symlinkSync(join(base, "store"), join(top, ".hg"));
  }
  writeFileSync(join(top, ".hgignore"), hgignore);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(top, path, ".."), { recursive: true });
    writeFileSync(join(top, path), text);
  }
  const home = join(base, "home");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  return { top, home };
}

const render = (cwd: string, home: string) =>
  renderSystemPrompt({
    cwd,
    home,
    agentDir: join(home, ".pi", "agent"),
    env: {},
    projectTrusted: false,
    workspaceTree: true,
    treeMtime: "2026-01-10T09:00:00Z",
  });

const tree = async (root: string, home: string) =>
  (await buildWorkspaceTree(root, { mtime: "2026-01-01T00:00:00Z", home })).rendered;

describe("hostile repository: a .hgignore glob is read as the path Mercurial reads", () => {
  it("secrets/ ignores the folder: refused under --untrusted and not listed", async () => {
    const { top, home } = hgCopy("syntax: glob\nsecrets/\n", {
      "AGENTS.md": "See @secrets/key.txt and @notes.md\n",
      "secrets/key.txt": "db_password=HG-SLASH-MARKER\n",
      "notes.md": "NOTES-SLASH-MARKER\n",
    });
    const result = await render(top, home);
    expect(result.text).not.toContain("HG-SLASH-MARKER");
    expect(result.text).toContain("NOTES-SLASH-MARKER");
    expect(result.diagnostics.map((d) => d.message).join("\n")).toContain(
      "ignored by Mercurial (.hgignore)",
    );
    const listed = await tree(top, home);
    expect(listed).toContain("notes.md");
    expect(listed).not.toContain("key.txt");
    expect(listed).not.toContain("secrets");
  });

  it("./x, a/../x, a//b, rootglob:secrets/ and an include-prefixed includes/../x", async () => {
    for (const [hgignore, secret] of [
      ["syntax: glob\n./secrets.yml\n", "secrets.yml"],
      ["syntax: glob\nx/../secrets.yml\n", "secrets.yml"],
      ["glob:conf//local.yml\n", "conf/local.yml"],
      ["rootglob:secrets/\n", "secrets/key.txt"],
      ["rootglob:./conf/../secrets.yml\n", "secrets.yml"],
      ["includes/../secrets.yml\n", "secrets.yml"],
      ["syntax: glob\ninclude/../secrets.yml\n", "secrets.yml"],
      ["subinclude//../secrets.yml\n", "secrets.yml"],
      // hg-core (Mercurial's Rust status) reads `path:` and `relpath:` lines, normalised too.
      ["path:secrets/\n", "secrets/key.txt"],
      ["syntax: glob\nrelpath:./conf//local.yml\n", "conf/local.yml"],
    ] as const) {
      const { top, home } = hgCopy(hgignore, { [secret]: "x\n", "notes.md": "y\n" });
      const check = privatePaths(top, { signal: NO_DEADLINE, hidden: false, home, env: {} });
      expect((await check(join(top, secret)))?.why, hgignore).toBe(
        "ignored by Mercurial (.hgignore)",
      );
      expect(await check(join(top, "notes.md")), hgignore).toBeUndefined();
    }
    // `include/..` is the working copy's top to canonpath: Mercurial then ignores every file.
    const all = hgCopy("include/..\n", { "notes.md": "y\n" });
    const check = privatePaths(all.top, {
      signal: NO_DEADLINE,
      hidden: false,
      home: all.home,
      env: {},
    });
    expect((await check(join(all.top, "notes.md")))?.why).toBe("ignored by Mercurial (.hgignore)");
  });

  it("an empty .git file on the way to the working copy's top: the tree says no more than the door", async () => {
    const { top, home } = hgCopy("syntax: glob\nsecrets.yml\n", {
      "app/AGENTS.md": "See @secrets.yml\n",
      "app/secrets.yml": "db=HG-EMPTY-GIT-MARKER\n",
      "app/code.py": "x\n",
      "app/.git": "",
    });
    const result = await render(join(top, "app"), home);
    expect(result.text).not.toContain("HG-EMPTY-GIT-MARKER");
    const listed = await tree(join(top, "app"), home);
    expect(listed).toContain("code.py");
    expect(listed).not.toContain("secrets.yml");
  });

  it("a .hg that is a link to a folder marks the working copy", async () => {
    const { top, home } = hgCopy(
      "syntax: glob\nsecrets.yml\n",
      { "AGENTS.md": "See @secrets.yml\n", "secrets.yml": "db=HG-LINK-MARKER\n", "code.py": "x\n" },
      "link",
    );
    const result = await render(top, home);
    expect(result.text).not.toContain("HG-LINK-MARKER");
    const listed = await tree(top, home);
    expect(listed).toContain("code.py");
    expect(listed).not.toContain("secrets.yml");
    // Your clone with a linked `.hg` inside a git project is a repository of its own, as with a folder.
    const outer = join(top, "..", "outer");
    mkdirSync(join(outer, "mine"), { recursive: true });
    execFileSync("git", ["init", "-q", outer]);
    symlinkSync(join(top, "..", "store"), join(outer, "mine", ".hg"));
    writeFileSync(join(outer, "mine", ".hgignore"), "syntax: glob\nsecrets.yml\n");
    writeFileSync(join(outer, "mine", "secrets.yml"), "db=HG-NESTED-LINK-MARKER\n");
    writeFileSync(join(outer, "AGENTS.md"), "See @mine/secrets.yml\n");
    const nested = await render(outer, home);
    expect(nested.text).not.toContain("HG-NESTED-LINK-MARKER");
    expect(await tree(outer, home)).not.toContain("secrets.yml");
  });

  it("a nested Mercurial working copy's ignored files are left out of the tree, as a nested git clone's", async () => {
    const base = tempDir();
    const top = join(base, "top");
    const home = join(base, "home");
    mkdirSync(join(top, "mine", ".hg"), { recursive: true });
    mkdirSync(join(top, "subg"), { recursive: true });
    mkdirSync(home);
    execFileSync("git", ["init", "-q", top]);
    execFileSync("git", ["init", "-q", join(top, "subg")]);
    writeFileSync(join(top, "mine", ".hgignore"), "syntax: glob\nsecrets.yml\nprivate/\n");
    writeFileSync(join(top, "mine", "secrets.yml"), "k=NESTHG\n");
    writeFileSync(join(top, "mine", "code.py"), "x\n");
    mkdirSync(join(top, "mine", "private", "deep"), { recursive: true });
    writeFileSync(join(top, "mine", "private", "deep", "AGENTS.md"), "PRIVATE-AGENTS\n");
    mkdirSync(join(top, "mine", "src"));
    writeFileSync(join(top, "mine", "src", "AGENTS.md"), "SRC-AGENTS\n");
    writeFileSync(join(top, "subg", ".gitignore"), "secrets.yml\n");
    writeFileSync(join(top, "subg", "secrets.yml"), "k=NESTG\n");
    writeFileSync(join(top, "subg", "code.py"), "x\n");
    const built = await buildWorkspaceTree(top, { mtime: "2026-01-01T00:00:00Z", home });
    expect(built.rendered).toContain("code.py");
    expect(built.rendered).not.toContain("secrets.yml");
    expect(built.rendered).not.toContain("private");
    expect(built.agentsMd).toEqual(["mine/src/AGENTS.md"]);
  });
});
