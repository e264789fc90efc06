import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { tempDir } from "../api/_helpers.js";

// A touched path below cwd brings the rule folders of each folder on its way
// (`.claude/rules`, Windsurf's `.windsurf/rules`). The loop over those folders
// did not look at the call's deadline, only the context files' and the glob
// rules' loops did: one path 40 folders deep, each folder's `.claude/rules` a
// link to one tree of 20 x 1,999 files, took 6.6 s at a 200 ms deadline
// (0.25 s now); here 60 folders and 10 x 1,999 files.

const DEPTH = 60;
const DEADLINE_MS = 200;
/** Far above the deadline plus one folder's listing on a loaded machine, far below the whole walk. */
const BOUND_MS = 2000;

describe("hostile repository: a deep touched path, a big rules tree linked from each folder on its way", () => {
  it("the folder rules' loop stops at the deadline, and says so", async () => {
    const root = join(tempDir(), "repo");
    mkdirSync(join(root, ".git"), { recursive: true });
    writeFileSync(join(root, ".git", "HEAD"), "ref: refs/heads/main\n");
    for (let s = 0; s < 10; s++) {
      const dir = join(root, ".big", `s${s}`);
      mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 1999; f++) writeFileSync(join(dir, `r${f}.txt`), "");
    }
    let dir = root;
    let up = "";
    for (let i = 0; i < DEPTH; i++) {
      dir = join(dir, `d${i}`);
      up = `../${up}`;
      mkdirSync(join(dir, ".claude"), { recursive: true });
      symlinkSync(`${up}../.big`, join(dir, ".claude", "rules"));
    }
    writeFileSync(join(dir, "x.ts"), "");
    const started = performance.now();
    const got = await loadContextForPaths([join(dir, "x.ts")], {
      cwd: root,
      home: join(root, "..", "home"),
      deadlineMs: DEADLINE_MS,
    });
    const took = performance.now() - started;
    expect(took).toBeLessThan(BOUND_MS);
    expect(got.diagnostics.map((d) => d.code)).toContain("touch-deadline");
  });
});
