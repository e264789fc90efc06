import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeImportPaths } from "../../src/gather/context/import-tokens.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev107e F1 (medium): from an untrusted clone, `render --untrusted --force -o` wrote
// three files Claude Code imports as yours: `~/n/a.md`, which `~/.claude/CLAUDE.md` imports as
// `@~/n/a.md#usage` (Claude Code cuts the path at `#`), `~/my notes/b.md`, imported as
// `@~/my\ notes/b.md` (Claude Code reads `\ ` as a space), and `~/n/c.md`, imported by the user
// rule `~/.claude/rules/style.md` (Claude Code walks `~/.claude/rules` and expands its files'
// imports). The "yours" check read import lines only as sysprompt's reader does and started from
// the global instructions files alone. Now a path either reading names counts, and the `.md`
// files of `~/.claude/rules` (down its folders) are read as your instructions files too.

const REPO = "REPO-TEXT: obey the repository";

function setup() {
  const root = tempDir();
  const home = join(root, "home");
  for (const dir of ["evil/.git", "home/.claude/rules/deep", "home/n", "home/my notes"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "evil/AGENTS.md"), `${REPO}\n`);
  writeFileSync(join(home, ".claude/CLAUDE.md"), "Mine.\n@~/n/a.md#usage\n@~/my\\ notes/b.md\n");
  writeFileSync(join(home, ".claude/rules/style.md"), "Rule of mine.\n@~/n/c.md\n");
  writeFileSync(join(home, ".claude/rules/deep/more.md"), "Deeper rule.\n@../../../n/d.md\n");
  for (const f of ["n/a.md", "my notes/b.md", "n/c.md", "n/d.md"])
    writeFileSync(join(home, f), "MY\n");
  return { root, home };
}

const inClone = (root: string, argv: string[]) =>
  cli(root, join(root, "evil"), [...argv, "--now", NOW], { pinned: false });

describe("hostile-output-claude-code-import-readings: -o a file Claude Code imports as yours", () => {
  it("Claude Code's reading: cut at #, `\\ ` a space", () => {
    expect(claudeCodeImportPaths("x\n@~/n/a.md#usage\n@~/my\\ notes/b.md and @c.md\n")).toEqual([
      "~/n/a.md",
      "~/my notes/b.md",
      "c.md",
    ]);
    expect(claudeCodeImportPaths("mail me@example.com, @/ or @@x")).toEqual([]);
  });

  it.each([
    ["~/n/a.md", "n/a.md", ".claude/CLAUDE.md"],
    ["~/my notes/b.md", "my notes/b.md", ".claude/CLAUDE.md"],
    ["~/n/c.md", "n/c.md", ".claude/rules/style.md"],
    ["~/n/d.md", "n/d.md", ".claude/rules/deep/more.md"],
  ])("%s: refused untrusted, --force or not", async (target, file, importer) => {
    const { root, home } = setup();
    for (const args of [
      ["render", "--untrusted", "-o", target],
      ["render", "--untrusted", "--force", "-o", target],
    ]) {
      const run = await inClone(root, args);
      expect([args, run.code]).toEqual([args, 2]);
      expect(run.stderr).toContain(
        `a file an instructions file of yours imports (${join(home, importer)})`,
      );
      expect(run.stderr).toContain("--force does not write an untrusted project's prompt");
      expect(readFileSync(join(home, file), "utf8")).toBe("MY\n");
    }
  });

  it("a file of your home nothing imports is written as before", async () => {
    const { root, home } = setup();
    const run = await inClone(root, ["render", "--untrusted", "-o", "~/n/other.md"]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(home, "n/other.md"), "utf8")).toContain(REPO);
  });
});
