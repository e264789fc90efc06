import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles, renderSystemPrompt } from "../../src/index.js";
import { NOW, tempDir, writeFiles } from "../api/_helpers.js";
import { cliAt as cli } from "./_cli-at.js";

// rev58d F1 (medium, a regression of the real-folder change): a repository commits
// `vendor-lib -> ../../home/private`; `--root vendor-lib` (or `--cwd vendor-lib`) took the
// folder by its real path, so your `~/private/AGENTS.md` was read as the repository's and the
// tree listed `passwords.txt`, `--untrusted` too. A folder named through a repository's link
// that leads out of it is now refused, as a file named through it is. `cd vendor-lib` first
// (the kernel resolved the link) is decided otherwise (rev53a F2) and not tested here.

function layout() {
  const base = tempDir();
  writeFiles(base, {
    "home/private/AGENTS.md": "PRIVATE-NOTES-MARKER\n",
    "home/private/passwords.txt": "pw\n",
    "home/.ssh/id_ed25519": "SECRET-KEY\n",
    "rl/repo/AGENTS.md": "REPO-AGENTS\n",
    "rl/repo/packages/app/AGENTS.md": "APP-AGENTS\n",
    "rl/repo/.git/HEAD": "ref: refs/heads/main\n",
  });
  const repo = join(base, "rl", "repo");
  for (const dir of ["objects", "refs"]) mkdirSync(join(repo, ".git", dir));
  symlinkSync("../../home/private", join(repo, "vendor-lib"));
  symlinkSync("../../home/.ssh", join(repo, "keys"));
  // A link of the repository that leads within it stays followed.
  symlinkSync("packages/app", join(repo, "app"));
  return { base, repo, home: join(base, "home") };
}

const LEAK = /PRIVATE-NOTES-MARKER|passwords\.txt|id_ed25519/;

describe("hostile-cwd-root-repo-link-out: a --cwd / --root through a repository's link out of it", () => {
  it("is refused (exit 2, the link and where it leads named), --untrusted too", async () => {
    const { repo, home } = layout();
    for (const argv of [
      ["render", "--tree", "--root", "vendor-lib"],
      ["render", "--tree", "--untrusted", "--root", "vendor-lib"],
      ["render", "--tree", "--cwd", "vendor-lib"],
      ["render", "--tree", "--untrusted", "--cwd", "keys"],
      ["render", "--tree", "--cwd", "vendor-lib/../vendor-lib"],
    ]) {
      const got = await cli(argv, repo, home);
      expect(got.out).not.toMatch(LEAK);
      expect(got.code).toBe(2);
      expect(got.err).toContain(`a link of the repository ${repo}`);
      expect(got.err).toContain("out of that repository");
    }
  });

  it("the library refuses it too; a link within the repository is followed", async () => {
    const { base, repo, home } = layout();
    const options = { home, agentDir: join(base, "agent"), env: {}, now: NOW };
    mkdirSync(options.agentDir);
    await expect(renderSystemPrompt({ ...options, cwd: join(repo, "vendor-lib") })).rejects.toThrow(
      "out of that repository",
    );
    await expect(
      loadContextFiles({ cwd: repo, home, roots: [join(repo, "vendor-lib")] }),
    ).rejects.toThrow("out of that repository");
    const app = await renderSystemPrompt({ ...options, cwd: join(repo, "app") });
    expect(app.text).toContain("APP-AGENTS");
    expect(app.text).toContain("REPO-AGENTS");
  });
});
