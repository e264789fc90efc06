import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { git, SYSTEM } from "../gather/_git.js";

// rev64d F3: a repository's `i18n.logOutputEncoding=UTF-16` made git print each subject in
// UTF-16, whose NUL bytes are `git log -z`'s separators: "Fix the parser" came back as five
// "commits", letter by letter, one of them blank. git's log output is asked for in UTF-8, and a
// subject that is blank once trimmed is no entry.

function repo(subjects: string[]): string {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  subjects.forEach((subject, i) => {
    writeFileSync(join(dir, `${i}.txt`), `${i}\n`);
    git(dir, "add", ".");
    git(dir, "commit", "-q", "--allow-empty-message", "--cleanup=verbatim", "-m", subject);
  });
  return dir;
}

const gitSection = async (cwd: string) =>
  (
    await renderSystemPrompt(pinned(cwd, { cwd, env: SYSTEM, git: true, projectTrusted: false }))
  ).sections.find((s) => s.name === "git")?.text ?? "";

const listed = (text: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith("  - "))
    .map((line) => line.slice(4));

describe("hostile repository: the commit list is read in UTF-8", { timeout: 30_000 }, () => {
  it("i18n.logOutputEncoding=UTF-16: the subjects as committed", async () => {
    const cwd = repo(["Fix the parser"]);
    git(cwd, "config", "i18n.logOutputEncoding", "UTF-16");
    expect(listed(await gitSection(cwd))).toEqual(["Fix the parser"]);
  });

  it("a subject of no-break spaces is no entry", async () => {
    const cwd = repo(["First", "\u00a0\u00a0"]);
    expect(listed(await gitSection(cwd))).toEqual(["First"]);
  });
});
