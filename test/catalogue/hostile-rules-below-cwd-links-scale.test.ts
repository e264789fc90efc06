import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { belowCwdFormats, findRulesBelowCwd } from "../../src/gather/rules/nested.js";
import { NO_DEADLINE, projectReach } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// `explain` names the rule files below cwd by a walk capped at 2,000 folders
// and 100,000 entries listed. The rule folders it lists in each of them
// (`.claude/rules`, recursive: 100 subfolders of 2,000 entries) were outside
// that total, and one such tree, linked as `.claude/rules` from every folder,
// was listed again for each: 200 folders linking one tree of 100 x 500 files
// (50,000 files) listed 10 million entries, 28 s here; 2,000 folders, 280 s.

const FOLDERS = 30;
const SUBFOLDERS = 4;
const FILES = 1000;

describe("hostile repository: one big rules folder linked from every folder below cwd", () => {
  it("its listings count against the walk's 100,000 entries: the walk stops there, and says so", async () => {
    const root = join(tempDir(), "repo");
    mkdirSync(join(root, ".git"), { recursive: true });
    writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    for (let s = 0; s < SUBFOLDERS; s++) {
      const dir = join(root, ".big", `s${s}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < FILES; f++) writeFileSync(join(dir, `r${f}.txt`), "");
    }
    for (let i = 0; i < FOLDERS; i++) {
      const dir = join(root, `f${String(i).padStart(2, "0")}`, ".claude");
      mkdirSync(dir, { recursive: true });
      symlinkSync("../../.big", join(dir, "rules"));
    }
    writeFileSync(join(root, "f00", "CLAUDE.local.md"), "First folder's own.\n");
    const home = join(root, "..", "home");
    const reach = await projectReach({ signal: NO_DEADLINE, start: root, home, trusted: true });
    // 30 folders x 4,000 entries: 120,000 listed before the fix, all 30 folders searched.
    const found = await findRulesBelowCwd(root, belowCwdFormats(["claude"]), {
      reach,
      ignored: async () => undefined,
    });
    expect(found.cut).toBe(true);
    const folders = new Set(found.files.map((f) => f.folder.slice(root.length + 1)));
    expect(folders.has("f00")).toBe(true);
    expect(folders.has(`f${FOLDERS - 1}`)).toBe(false);
    expect(found.files.map((f) => f.path.slice(root.length + 1))).toContain("f00/CLAUDE.local.md");
  });
});
