import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, SYSTEM } from "../gather/_git.js";

// A repository that ships its own .git can make git run a program or read
// another repository: a partial clone fetches a missing object through its
// promisor remote (an `ext::` command, or ssh with the repository's own
// core.sshCommand), and objects/info/alternates lends it another
// repository's objects. The git section never fetches and never follows them.

/** `<root>/<name>`: a repository with two commits, subjects `<subject> one` and `<subject> two`. */
function repo(root: string, name: string, subject: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  for (const n of ["one", "two"]) {
    writeFileSync(join(dir, `${n}.txt`), `${n}\n`);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "-m", `${subject} ${n}`);
  }
  return dir;
}

/** Deletes the first commit's object, as a partial clone that never fetched it would lack it. */
function dropFirstCommit(dir: string): void {
  const first = git(dir, "rev-parse", "HEAD~1").trim();
  rmSync(join(dir, ".git", "objects", first.slice(0, 2), first.slice(2)));
}

const gitSection = async (root: string, cwd: string, extra = {}) => {
  const result = await renderSystemPrompt(
    pinned(root, { cwd, env: SYSTEM, git: true, projectTrusted: false, ...extra }),
  );
  return {
    text: result.sections.find((s) => s.name === "git")?.text,
    codes: result.diagnostics.filter((d) => d.code.startsWith("git-")).map((d) => d.code),
  };
};

// Each case builds repositories and runs git a dozen times: seconds on a loaded machine.
describe("hostile repository: git never runs a transport", { timeout: 30_000 }, () => {
  it("a partial clone whose promisor remote is an ext:: command (protocol.ext.allow=always) runs nothing", async () => {
    const root = tempDir();
    const cwd = repo(root, "project", "Own");
    const ran = join(root, "ext-ran");
    git(cwd, "config", "core.repositoryformatversion", "1");
    git(cwd, "config", "extensions.partialClone", "origin");
    git(cwd, "config", "remote.origin.url", `ext::sh -c touch% ${ran}`);
    git(cwd, "config", "remote.origin.promisor", "true");
    git(cwd, "config", "protocol.ext.allow", "always");
    dropFirstCommit(cwd);
    const { text, codes } = await gitSection(root, cwd);
    expect(existsSync(ran)).toBe(false);
    expect([text, codes]).toEqual([undefined, ["git-refused"]]);
  });

  it("a promisor remote without extensions.partialClone, over ssh with the repository's core.sshCommand, runs nothing", async () => {
    const root = tempDir();
    const cwd = repo(root, "project", "Own");
    const ran = join(root, "ssh-ran");
    git(cwd, "config", "remote.origin.url", "ssh://example.invalid/x.git");
    git(cwd, "config", "remote.origin.promisor", "true");
    git(cwd, "config", "core.sshCommand", `touch ${ran}; false`);
    git(cwd, "config", "protocol.ssh.allow", "always");
    dropFirstCommit(cwd);
    const { text, codes } = await gitSection(root, cwd);
    expect(existsSync(ran)).toBe(false);
    expect([text, codes]).toEqual([undefined, ["git-refused"]]);
  });

  it("objects/info/alternates into another repository is refused: its commits never reach the section", async () => {
    const root = tempDir();
    const other = repo(root, "other", "Secret");
    const cwd = join(root, "project");
    // A clone that borrows every object from `other`, then claims its history.
    git(root, "clone", "-q", "--shared", other, cwd);
    const { text, codes } = await gitSection(root, cwd);
    expect([text, codes]).toEqual([undefined, ["git-outside"]]);
  });

  it("alternates that stay inside the project are read as usual", async () => {
    const root = tempDir();
    const cwd = repo(root, "project", "Own");
    const inner = repo(cwd, "vendor", "Inner");
    // A protocol policy of its own is overridden, not a reason to refuse.
    git(cwd, "config", "protocol.ext.allow", "always");
    writeFileSync(
      join(cwd, ".git", "objects", "info", "alternates"),
      `${join(inner, ".git", "objects")}\n`,
    );
    const { text } = await gitSection(root, cwd);
    expect(text).toContain("  - Own two");
  });

  it("a trusted project's sysprompt.yaml cannot turn the git section on; the user's can", async () => {
    const root = tempDir();
    const cwd = repo(root, "project", "Own");
    mkdirSync(join(cwd, ".pi"), { recursive: true });
    writeFileSync(join(cwd, ".pi", "sysprompt.yaml"), "git: true\n");
    const options = pinned(root, { cwd, env: SYSTEM, configFiles: true });
    const fromProject = await renderSystemPrompt(options);
    expect(fromProject.sections.map((s) => s.name)).not.toContain("git");
    expect(
      fromProject.diagnostics
        .filter((d) => d.code === "config-project-git")
        .map((d) => [d.level, d.path, d.line]),
    ).toEqual([["warning", join(cwd, ".pi", "sysprompt.yaml"), 1]]);
    writeFileSync(join(root, "agent", "sysprompt.yaml"), "git: true\n");
    const fromUser = await renderSystemPrompt(options);
    expect(fromUser.sections.find((s) => s.name === "git")?.text).toContain("  - Own two");
  });
});
