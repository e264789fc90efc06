import { linkSync, mkdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_DEADLINE, projectReach, readRepoText } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";
import { git } from "../gather/_git.js";

// The decided behaviour for hard links (README, Trust: "Hard links"): a hard
// link is the file itself, at a path of its own, so the door reads it as the
// file at that path, as git does. No check by path can tell it from the
// original, and none is needed for a repository: git stores no hard links (a
// clone holds separate files), and only whoever may already read and write a
// file can link it (Linux's fs.protected_hardlinks). Refusing every file with
// more than one link would refuse pnpm's hard-linked node_modules and
// `cp -al` copies for nothing.

describe("hard links", () => {
  it("the door reads a hard link inside the project as the file at its own path", async () => {
    const root = realpathSync(tempDir());
    const home = join(root, "home");
    const repo = join(root, "repo");
    mkdirSync(join(home, ".ssh"), { recursive: true });
    mkdirSync(join(repo, ".git"), { recursive: true });
    writeFileSync(join(home, ".ssh/id_rsa"), "MARKER\n");
    // Only the file's owner (or root) could make this link: it is theirs to read.
    linkSync(join(home, ".ssh/id_rsa"), join(repo, "AGENTS.md"));
    expect(statSync(join(repo, "AGENTS.md")).nlink).toBe(2);
    const reach = await projectReach({ signal: NO_DEADLINE, start: repo, home, trusted: false });
    expect(await readRepoText(join(repo, "AGENTS.md"), { reach })).toEqual({
      ok: true,
      text: "MARKER\n",
      diagnostics: [],
      real: join(repo, "AGENTS.md"),
    });
  });

  it("a repository cannot carry one: git stores the content, and a clone's files are separate", () => {
    const root = realpathSync(tempDir());
    const source = join(root, "source");
    mkdirSync(source);
    git(source, "init", "-q", "-b", "main");
    writeFileSync(join(source, "notes.md"), "Shared text.\n");
    linkSync(join(source, "notes.md"), join(source, "AGENTS.md"));
    git(source, "add", ".");
    git(source, "commit", "-q", "-m", "two names, one file");
    git(root, "clone", "-q", "--no-local", source, "clone");
    for (const name of ["AGENTS.md", "notes.md"]) {
      expect(statSync(join(root, "clone", name)).nlink).toBe(1);
    }
  });
});
