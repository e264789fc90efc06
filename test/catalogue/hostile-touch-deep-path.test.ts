import { mkdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextForPaths } from "../../src/gather/context/on-touch.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// A touched path ~1,000 folders deep (a/a/a/…, 2 KB, under PATH_MAX) cost each
// hook call 1.5-2.4 s of its 5 s (3 s a call at a load of 10, 143 MB against
// 57 MB): the folders from the root down were each joined again from the root
// and tested against cwd with `relative`, the path's depth squared in strings
// (180 MB a call), though at most 256 of them are searched. The folders are
// now built in one walk, each from its parent's, and the ignore check keeps
// each folder's verdict. 1,800 folders deep, the depth of the longest path
// of one-letter names a file can have, a call took 4-6 s of CPU before.

/** Far above a call's CPU on a loaded machine (0.1-0.5 s), far below the squared walk's. */
const BOUND_MS = 1500;

/** Removes `deep` and its folders up to `top`, bottom up: a recursive remove of 1,800 levels overflows a worker's stack. */
function removeChain(deep: string, top: string): void {
  rmSync(join(deep, "x.ts"), { force: true });
  for (let dir = deep; dir !== top; dir = dirname(dir)) {
    rmSync(join(dir, "AGENTS.md"), { force: true });
    rmdirSync(dir);
  }
}

describe("hostile repository: a touched path 1,800 folders deep", () => {
  it("one call costs the folders it searches, not the depth squared; the nearest root's files still come", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    writeFileSync(join(project, ".gitignore"), "build/\n");
    const deep = join(project, ...Array.from({ length: 1800 }, () => "a"));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, "x.ts"), "");
    writeFileSync(join(project, "a", "a", "AGENTS.md"), "Near the top.\n");
    const options = { cwd: project, home: join(root, "home") };
    // Loaded and warmed on a shallow path first: what is timed is the deep call alone.
    await loadContextForPaths([join(project, "a", "x.ts")], options);
    const { cpuMs, value } = await cpuTimed(() =>
      loadContextForPaths([join(deep, "x.ts")], { ...options, deadlineMs: 60_000 }),
    ).finally(() => removeChain(deep, project));
    expect(value.files).toEqual([
      { path: join(project, "a", "a", "AGENTS.md"), content: "Near the top.", kind: "context" },
    ]);
    expect(value.diagnostics.map((d) => d.code)).toEqual(["touch-too-deep"]);
    expect(cpuMs).toBeLessThan(BOUND_MS);
  }, 120_000);
});
