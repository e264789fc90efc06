import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, repoAt, SYSTEM } from "../gather/_git.js";

// A repository's objects/pack/ was not looked at before git ran: a pack
// index that is a FIFO held the first git command until its 2 s timeout
// (render --git: 2.27 s, then git-timeout), on every render; a pack or
// index linked to /dev/zero or /dev/urandom made git fail fast (git-failed,
// 70-120 ms), and a link to another repository's pack would lend it that
// repository's objects, as alternates do (those are refused). The pack
// folder's entries are now checked like the refs: a link must stay in the
// project and its git folders, and a FIFO or device (or a link to one) is
// refused (git-refused) before git runs.

/** `<root>/project`, one commit, its objects packed; returns the project and its pack's two files. */
function packedRepo(root: string) {
  const cwd = repoAt(join(root, "project"), "main", "first");
  git(cwd, "gc", "-q");
  const packDir = join(cwd, ".git", "objects", "pack");
  const files = readdirSync(packDir);
  const file = (ext: string) => join(packDir, files.find((n) => n.endsWith(ext)) ?? "");
  return { cwd, pack: file(".pack"), idx: file(".idx") };
}

const render = async (root: string, cwd: string) => {
  const result = await renderSystemPrompt(pinned(root, { cwd, env: SYSTEM, git: true }));
  return {
    section: result.sections.find((s) => s.name === "git")?.text,
    problems: result.diagnostics.filter((d) => d.code.startsWith("git-")),
  };
};

describe("hostile repository: the git section and objects/pack", () => {
  it("a pack index that is a FIFO is refused before git waits on it", async () => {
    const root = tempDir();
    const { cwd, idx } = packedRepo(root);
    rmSync(idx);
    execFileSync("mkfifo", [idx]);
    const { section, problems } = await render(root, cwd);
    expect(section).toBeUndefined();
    expect(problems.map((d) => [d.code, d.path])).toEqual([["git-refused", idx]]);
    expect(problems[0]?.message).toContain("a FIFO");
  }, 30_000);

  it("a pack linked to /dev/zero, or to a FIFO inside the project, is refused", async () => {
    const root = tempDir();
    const { cwd, pack, idx } = packedRepo(root);
    rmSync(pack);
    symlinkSync("/dev/zero", pack);
    const zero = await render(root, cwd);
    expect(zero.problems.map((d) => [d.code, d.path])).toEqual([["git-outside", pack]]);

    rmSync(pack);
    mkdirSync(join(cwd, "pipes"));
    execFileSync("mkfifo", [join(cwd, "pipes", "p")]);
    rmSync(idx);
    symlinkSync(join(cwd, "pipes", "p"), idx);
    const piped = await render(root, cwd);
    expect(piped.problems.map((d) => [d.code, d.path])).toEqual([["git-refused", idx]]);
  }, 30_000);

  it("a plain packed repository still gives its section", async () => {
    const root = tempDir();
    const { cwd } = packedRepo(root);
    const { section, problems } = await render(root, cwd);
    expect(problems).toEqual([]);
    expect(section).toContain("first");
  }, 30_000);
});
