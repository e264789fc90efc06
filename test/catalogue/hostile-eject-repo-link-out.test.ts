import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { cliAt as cli } from "./_cli-at.js";

// rev58d F4 (medium): a repository commits `vendor-lib -> ../../home/private`. `eject rules --cwd
// vendor-lib` wrote into ~/private/.pi/, `eject tools --force --cwd vendor-lib` replaced your
// ~/private/.pi/sections/tools.md, and `eject --user rules --agent-dir vendor-lib` wrote into
// ~/private/sections: the write's "no link on the way" check starts at the folder as given, below
// the link. The folder written in is now placed as a render's: refused, exit 2, nothing written.

function layout() {
  const base = tempDir();
  writeFiles(base, {
    "home/private/AGENTS.md": "PRIVATE-NOTES-MARKER\n",
    "home/private/.pi/sections/tools.md": "MY OWN CUSTOM RULES\n",
    "rl/repo/AGENTS.md": "REPO-AGENTS\n",
    "rl/repo/.git/HEAD": "ref: refs/heads/main\n",
  });
  const repo = join(base, "rl", "repo");
  for (const dir of ["objects", "refs"]) mkdirSync(join(repo, ".git", dir));
  symlinkSync("../../home/private", join(repo, "vendor-lib"));
  return { repo, home: join(base, "home"), mine: join(base, "home", "private") };
}

describe("hostile-eject-repo-link-out: eject into a folder reached through a repository's link out of it", () => {
  it("--cwd and --user --agent-dir through the link are refused; your files stay as they were", async () => {
    const { repo, home, mine } = layout();
    for (const argv of [
      ["eject", "rules", "--cwd", "vendor-lib"],
      ["eject", "tools", "--force", "--cwd", "vendor-lib"],
      ["eject", "--user", "rules", "--agent-dir", "vendor-lib"],
    ]) {
      const got = await cli(argv, repo, home);
      expect(got.code).toBe(2);
      expect(got.out).not.toContain("wrote");
      expect(got.err).toContain(`a link of the repository ${repo}`);
      expect(got.err).toContain(`to ${mine}, out of that repository`);
    }
    expect(readFileSync(join(mine, ".pi", "sections", "tools.md"), "utf8")).toBe(
      "MY OWN CUSTOM RULES\n",
    );
    expect(readdirSync(mine).sort()).toEqual([".pi", "AGENTS.md"]);
    expect(readdirSync(join(mine, ".pi"))).toEqual(["sections"]);
    expect(readdirSync(join(mine, ".pi", "sections"))).toEqual(["tools.md"]);
  });
});
