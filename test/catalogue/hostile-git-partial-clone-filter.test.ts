import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, SYSTEM } from "../gather/_git.js";

// A remote with only `partialclonefilter` (no `promisor`, no
// `extensions.partialClone`) is a promisor remote to git too: a missing
// object is fetched from it. The git section refuses such a repository as it
// refuses the other partial clones (attack review attack16: it was run, held
// only by GIT_NO_LAZY_FETCH and the protocol overrides; a git older than
// 2.39.4, which ignores GIT_NO_LAZY_FETCH, started `git fetch origin`).

/** A repository with two commits whose first commit object is gone, and its remote an ext:: command. */
function lazyRepository(root: string, ran: string): string {
  const dir = join(root, "project");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const n of ["one", "two"]) {
    writeFileSync(join(dir, `${n}.txt`), `${n}\n`);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", `Own ${n}`);
  }
  const first = git(dir, "rev-parse", "HEAD~1").trim();
  rmSync(join(dir, ".git", "objects", first.slice(0, 2), first.slice(2)));
  git(dir, "config", "remote.origin.url", `ext::sh -c touch% ${ran}`);
  git(dir, "config", "remote.origin.partialclonefilter", "blob:none");
  git(dir, "config", "protocol.ext.allow", "always");
  return dir;
}

describe("hostile-git-partial-clone-filter: a remote's partialclonefilter alone is a partial clone", () => {
  it("git itself fetches through such a remote (the premise), and the git section refuses the repository", async () => {
    const root = tempDir();
    const ran = join(root, "ext-ran");
    const cwd = lazyRepository(root, ran);
    // The premise: a plain git log fetches the missing commit and runs the remote's command.
    try {
      execFileSync("git", ["log", "--format=%s"], {
        cwd,
        env: { PATH: SYSTEM.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: "1" },
        stdio: "ignore",
      });
    } catch {
      // The fetch finds nothing there: git fails after running the command.
    }
    expect(existsSync(ran)).toBe(true);
    rmSync(ran);

    const result = await renderSystemPrompt(
      pinned(root, { cwd, env: SYSTEM, git: true, projectTrusted: false }),
    );
    expect(existsSync(ran)).toBe(false);
    expect(result.sections.find((s) => s.name === "git")).toBeUndefined();
    const refused = result.diagnostics.filter((d) => d.code.startsWith("git-"));
    expect(
      refused.map((d) => [d.code, d.message.includes("remote.origin.partialclonefilter")]),
    ).toEqual([["git-refused", true]]);
  });
});
