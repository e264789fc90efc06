import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillWatchFolders } from "../../src/author/watch/_watch-folders.js";
import { tempDir } from "../api/_helpers.js";
import { skill } from "./_skill.js";

// `watch` and the skill roots: one watch per folder (never one per file, never
// a recursive watch that takes one per entry), within a stated cap, with a
// warning when the cap is reached. watch-cap-scale.test.ts (the slow tier) has a
// watch on a skills root of 12,600 entries.

describe("skillWatchFolders", () => {
  it("the root and its folders down to each skill; not a skill's own folders, dot-folders or node_modules", async () => {
    const root = tempDir();
    skill(join(root, "alpha"), "alpha");
    mkdirSync(join(root, "alpha", "references", "deep"), { recursive: true });
    skill(join(root, "group", "beta"), "beta");
    mkdirSync(join(root, ".hidden", "x"), { recursive: true });
    mkdirSync(join(root, "node_modules", "y"), { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(root, "group", `file${i}.txt`), "x");
    expect(await skillWatchFolders([root])).toEqual({
      folders: [root, join(root, "alpha"), join(root, "group"), join(root, "group", "beta")],
      diagnostics: [],
    });
  });

  it("stops at the cap with a warning naming the root", async () => {
    const root = tempDir();
    for (let i = 0; i < 20; i++)
      mkdirSync(join(root, `d${String(i).padStart(2, "0")}`, "sub"), { recursive: true });
    const { folders, diagnostics } = await skillWatchFolders([root], 10);
    expect(folders.length).toBe(10);
    expect(diagnostics).toEqual([
      {
        level: "warning",
        code: "watch-cap",
        message:
          "watching 10 folders under the skill roots, the most watch does; changes in the other folders of this root are not seen until a change elsewhere re-renders",
        path: root,
      },
    ]);
  });
});
