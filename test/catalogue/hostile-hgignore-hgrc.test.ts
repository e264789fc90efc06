import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { NO_DEADLINE, privatePaths } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// rev82a F5: a Mercurial working copy's own `.hg/hgrc` may name more ignore files (`[ui] ignore =
// .hgignore.local`, `ignore.NAME = …`), your per-clone list, Mercurial's twin of
// `.git/info/exclude`, which the door reads. It was not read: `render --untrusted` inlined
// `notes.private` that `.hgignore.local` ignores. Now read as Mercurial's `dirstate._ignorefiles`
// reads them, paths joined to the working copy's top; one outside the copy is a cut.

function copy(hgrc: string) {
  const base = tempDir();
  const top = join(base, "myhg2");
  const home = join(base, "home");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(join(top, ".hg"), { recursive: true });
  writeFileSync(join(top, ".hg", "hgrc"), hgrc);
  writeFileSync(join(top, ".hgignore.local"), "syntax: glob\n*.private\n");
  mkdirSync(join(top, "conf"));
  writeFileSync(join(top, "conf", "more.ignore"), "syntax: glob\nkeys.txt\n");
  writeFileSync(join(top, "AGENTS.md"), "R\n@notes.private\n");
  writeFileSync(join(top, "notes.private"), "SECRET-HGRC-LOCAL\n");
  writeFileSync(join(top, "keys.txt"), "SECRET-KEYS\n");
  writeFileSync(join(top, "code.py"), "x\n");
  return { top, home };
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

describe("hostile repository: the ignore files a working copy's .hg/hgrc names are read", () => {
  it("hgrc-ui-ignore: the files they ignore are refused under --untrusted and not listed", async () => {
    const { top, home } = copy(
      "[paths]\ndefault = https://example.com/r\n[ui]\nusername = me\nignore = .hgignore.local\nignore.more = ./conf/../conf/more.ignore\n",
    );
    const result = await renderSystemPrompt(options(top, home));
    expect(result.text).not.toContain("SECRET-HGRC-LOCAL");
    expect(result.text).toContain("R\n");
    const check = privatePaths(top, { signal: NO_DEADLINE, hidden: false, home, env: {} });
    for (const name of ["notes.private", "keys.txt"]) {
      expect((await check(join(top, name)))?.why, name).toBe("ignored by Mercurial (.hgignore)");
    }
    expect(await check(join(top, "code.py"))).toBeUndefined();
    const tree = await buildWorkspaceTree(top, { mtime: "2026-01-01T00:00:00Z", home });
    expect(tree.rendered).toContain("code.py");
    expect(tree.rendered).not.toContain("notes.private");
    expect(tree.rendered).not.toContain("keys.txt");
  });

  it("hgrc-ui-ignore-outside: a file outside the working copy is not read, and is a cut", async () => {
    const { top, home } = copy("[ui]\nignore = ~/.hgignore_global\n");
    const result = await renderSystemPrompt(options(top, home));
    expect(result.text).not.toContain("SECRET-HGRC-LOCAL");
    const check = privatePaths(top, { signal: NO_DEADLINE, hidden: false, home, env: {} });
    expect((await check(join(top, "code.py")))?.why).toContain(
      "ui.ignore names a file outside the working copy",
    );
  });
});
