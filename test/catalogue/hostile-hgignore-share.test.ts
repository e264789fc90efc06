import { chownSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";
import { IS_ROOT, NOBODY } from "./_nobody.js";

// Review rev82e F5's known limit: a Mercurial shared clone (`hg share`) with share-safe reads its
// source's `.hg/hgrc` before its own (`localrepo.loadhgrc`), and that hgrc's `[ui] ignore` files,
// joined to the share's top (`dirstate._ignorefiles`), are ignored in the share too. They were
// not read: `render --untrusted` in the share inlined `notes.private` that the source's
// `ignore = .hgignore.local` ignores, and the tree listed it. Now the source named by
// `.hg/sharedpath` is read as Mercurial reads it; one that is not a working copy of yours, or
// at or above your home folder, is a cut (every file of the share refused under --untrusted).

/** A source working copy `src` whose hgrc names `.hgignore.local`, and a share `wt` of it. */
function share(requires: string, sharedpath: (base: string) => string, hgrc = "") {
  const base = tempDir();
  const home = join(base, "home");
  const src = join(base, "src");
  const wt = join(base, "wt");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(join(src, ".hg", "store"), { recursive: true });
  writeFileSync(join(src, ".hg", "requires"), "dotencode\nshare-safe\nstore\n");
  writeFileSync(join(src, ".hg", "hgrc"), "[ui]\nignore = .hgignore.local\n");
  mkdirSync(join(wt, ".hg"), { recursive: true });
  writeFileSync(join(wt, ".hg", "requires"), requires);
  writeFileSync(join(wt, ".hg", "sharedpath"), sharedpath(base));
  if (hgrc !== "") writeFileSync(join(wt, ".hg", "hgrc"), hgrc);
  writeFileSync(join(wt, ".hgignore.local"), "syntax: glob\n*.private\n");
  writeFileSync(join(wt, "AGENTS.md"), "R\n@notes.private\n");
  writeFileSync(join(wt, "notes.private"), "SECRET-SHARE-SOURCE\n");
  writeFileSync(join(wt, "code.py"), "x\n");
  return { base, wt, home };
}

const options = (top: string, home: string) => ({
  cwd: top,
  home,
  agentDir: join(home, ".pi", "agent"),
  env: {},
  projectTrusted: false,
  workspaceTree: true,
  treeMtime: "2026-01-10T09:00:00Z",
});

const why = async (top: string, home: string, name: string) =>
  (await privatePaths(top, { signal: NO_DEADLINE, hidden: false, home, env: {} })(join(top, name)))
    ?.why;

describe("hostile repository: a share-safe Mercurial share reads its source's hgrc", () => {
  for (const [kind, requires, path] of [
    ["shared", "share-safe\nshared\n", (b: string) => `${join(b, "src", ".hg")}\n`],
    ["relshared", "relshared\nshare-safe\n", () => "../../src/.hg"],
    ["exp-sharesafe", "exp-sharesafe\nshared\n", (b: string) => join(b, "src", ".hg")],
  ] as const) {
    it(`hg-share-source-hgrc (${kind}): the files its ignore list names are refused and not listed`, async () => {
      const { wt, home } = share(requires, path);
      const result = await renderSystemPrompt(options(wt, home));
      expect(result.text).not.toContain("SECRET-SHARE-SOURCE");
      expect(result.text).toContain("R\n");
      expect(await why(wt, home, "notes.private")).toBe("ignored by Mercurial (.hgignore)");
      expect(await why(wt, home, "code.py")).toBeUndefined();
      const tree = await buildWorkspaceTree(wt, { mtime: "2026-01-01T00:00:00Z", home });
      expect(tree.rendered).toContain("code.py");
      expect(tree.rendered).not.toContain("notes.private");
    });
  }

  it("hg-share-source-hgrc: the share's own hgrc comes after the source's (%unset takes it away)", async () => {
    const { wt, home } = share(
      "share-safe\nshared\n",
      (b) => join(b, "src", ".hg"),
      "[ui]\n%unset ignore\n",
    );
    expect(await why(wt, home, "notes.private")).toBeUndefined();
  });

  it("hg-share-no-share-safe: without share-safe Mercurial reads the share's own hgrc only, and so does the door", async () => {
    const { wt, home } = share("shared\n", (b) => join(b, "src", ".hg"));
    expect(await why(wt, home, "notes.private")).toBeUndefined();
  });

  for (const [name, path] of [
    ["at your home folder", (b: string) => join(b, "home", ".hg")],
    ["not a .hg folder", (b: string) => join(b, "src")],
    ["leading nowhere", (b: string) => join(b, "gone", ".hg")],
    ["relative under shared", () => "../src/.hg"],
  ] as const) {
    it(`hg-share-source-refused (${name}): a cut, every file refused under --untrusted`, async () => {
      const { base, wt, home } = share("share-safe\nshared\n", path);
      mkdirSync(join(base, "home", ".hg"), { recursive: true });
      writeFileSync(join(base, "home", ".hg", "hgrc"), "[ui]\nignore.mine = x\n");
      const result = await renderSystemPrompt(options(wt, home));
      expect(result.text).not.toContain("SECRET-SHARE-SOURCE");
      expect(await why(wt, home, "code.py")).toContain("sharedpath names no share source of yours");
    });
  }

  it.runIf(IS_ROOT)(
    "hg-share-source-refused (another user's source): a cut, nothing of his read",
    async () => {
      const { base, wt, home } = share("share-safe\nshared\n", (b) => join(b, "src", ".hg"));
      chownSync(join(base, "src", ".hg"), NOBODY, NOBODY);
      chownSync(join(base, "src", ".hg", "hgrc"), NOBODY, NOBODY);
      const result = await renderSystemPrompt(options(wt, home));
      expect(result.text).not.toContain("SECRET-SHARE-SOURCE");
      expect(await why(wt, home, "code.py")).toContain("sharedpath names no share source of yours");
    },
  );
});

describe("hostile repository: a share's sharedpath and source hgrc read as Mercurial reads them", () => {
  it("hg-share-relshared-absolute: an absolute sharedpath under relshared is the source itself (rev89f F2)", async () => {
    // `os.path.join` and Rust's `Path::join` take an absolute part as it is: Mercurial reads this
    // source, and so does the door; before, node's `join` put it under the share's `.hg` and the
    // whole share was cut with "names no share source of yours".
    const { wt, home } = share("relshared\nshare-safe\n", (b) => `${join(b, "src", ".hg")}\n`);
    expect(await why(wt, home, "notes.private")).toBe("ignored by Mercurial (.hgignore)");
    expect(await why(wt, home, "code.py")).toBeUndefined();
  });

  it("hg-share-source-too-many-ignore-files: the cut names the share source's hgrc, not the share's (rev89f F3)", async () => {
    const { base, wt, home } = share("share-safe\nshared\n", (b) => join(b, "src", ".hg"));
    const keys = Array.from({ length: 17 }, (_, i) => `ignore.n${i} = ign${i}\n`).join("");
    writeFileSync(join(base, "src", ".hg", "hgrc"), `[ui]\n${keys}`);
    const reason = await why(wt, home, "code.py");
    expect(reason).toContain("the share source's .hg/hgrc: more than 16 ignore files named");
    expect(reason).not.toContain("(.hg/hgrc");
  });
});
