import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { repoAt, SYSTEM } from "../gather/_git.js";

// The git folder's own entries, its refs and objects/pack/ were checked for
// links out and FIFOs before git ran, but not the loose-object folders
// (objects/ab/): a folder objects/ab linked out of the project, or one loose
// object linked to a file in your home, was read by git as this
// repository's; a loose object that is a FIFO held git log until the 2 s
// timeout. The at most 256 two-hex folders under objects/ and their entries
// are now checked as the packs are (kinds from the listing; only links are
// resolved), under the same budget, time limit and signal.

/** `<root>/project`, one commit (three loose objects); returns it and one loose object's folder and name. */
function looseRepo(root: string) {
  const cwd = repoAt(join(root, "project"), "main", "first");
  const objects = join(cwd, ".git", "objects");
  const folder = readdirSync(objects).find((n) => /^[0-9a-f]{2}$/.test(n)) ?? "";
  const name = readdirSync(join(objects, folder))[0] ?? "";
  return { cwd, folder: join(objects, folder), object: join(objects, folder, name) };
}

const render = async (root: string, cwd: string) => {
  const result = await renderSystemPrompt(pinned(root, { cwd, env: SYSTEM, git: true }));
  return {
    section: result.sections.find((s) => s.name === "git")?.text,
    problems: result.diagnostics
      .filter((d) => d.code.startsWith("git-"))
      .map((d) => [d.code, d.path]),
  };
};

describe("hostile repository: the git section and loose objects", () => {
  it("a loose object linked into the home folder is refused before git reads it", async () => {
    const root = tempDir();
    const { cwd, object } = looseRepo(root);
    mkdirSync(join(root, "home"), { recursive: true });
    writeFileSync(join(root, "home", "secret"), "x");
    rmSync(object);
    symlinkSync(join(root, "home", "secret"), object);
    const { section, problems } = await render(root, cwd);
    expect(section).toBeUndefined();
    expect(problems).toEqual([["git-outside", object]]);
  }, 30_000);

  it("a loose-object folder linked out of the project is refused", async () => {
    const root = tempDir();
    const { cwd, folder } = looseRepo(root);
    renameSync(folder, join(root, "elsewhere"));
    symlinkSync(join(root, "elsewhere"), folder);
    const { section, problems } = await render(root, cwd);
    expect(section).toBeUndefined();
    expect(problems).toEqual([["git-outside", folder]]);
  }, 30_000);

  it("a loose-object folder linked to one inside the project is listed through the link", async () => {
    const root = tempDir();
    const { cwd, folder } = looseRepo(root);
    const inner = join(cwd, "inner");
    renameSync(folder, inner);
    symlinkSync(inner, folder);
    mkdirSync(join(root, "home"), { recursive: true });
    writeFileSync(join(root, "home", "secret"), "x");
    const name = readdirSync(inner)[0] ?? "";
    rmSync(join(inner, name));
    symlinkSync(join(root, "home", "secret"), join(inner, name));
    const { section, problems } = await render(root, cwd);
    expect(section).toBeUndefined();
    expect(problems).toEqual([["git-outside", join(folder, name)]]);
  }, 30_000);

  it("a loose object that is a FIFO is refused before git waits on it", async () => {
    const root = tempDir();
    const { cwd, object } = looseRepo(root);
    rmSync(object);
    execFileSync("mkfifo", [object]);
    const { section, problems } = await render(root, cwd);
    expect(section).toBeUndefined();
    expect(problems).toEqual([["git-refused", object]]);
  }, 30_000);

  it("a repository of plain loose objects still gives its section", async () => {
    const root = tempDir();
    const { cwd } = looseRepo(root);
    const { section, problems } = await render(root, cwd);
    expect(problems).toEqual([]);
    expect(section).toContain("first");
  }, 30_000);
});
