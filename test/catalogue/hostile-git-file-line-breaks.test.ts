import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  gitDirNamed,
  gitDirNamedSync,
  MAX_GITFILE_BYTES,
  pathLineSync,
} from "../../src/repo-files/git-file.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50b F4 (LOW): a planted `.git` file (or a worktree's `gitdir`/`commondir`) of
// `gitdir: `, 16 KiB of line breaks and one letter cost 0.15-0.25 s of synchronous CPU per
// check: the trims `/\n+$/` and `/[\r\n]+$/` tried the run of breaks from each of its starts.
// The breaks at the end are now found from the end, one step a character.

/** The file's cap, filled: `gitdir: `, line breaks, and a letter that is not a break. */
const PLANTED = `gitdir: ${"\n".repeat(MAX_GITFILE_BYTES - 10)}x`;

function cpuMs(work: () => void): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe("hostile repository: git files of 16 KiB of line breaks", () => {
  it("are refused as no one path on one line, in a few ms for ten checks of each kind", async () => {
    const root = tempDir();
    writeFiles(root, {
      "pkg/.git": PLANTED,
      "admin/gitdir": `../..${"\r\n".repeat((MAX_GITFILE_BYTES - 8) / 2)}x`,
    });
    const dotGit = join(root, "pkg/.git");
    const asyncStart = process.cpuUsage();
    for (let i = 0; i < 10; i++) {
      expect(await gitDirNamed(dotGit, join(root, "pkg"))).toEqual({
        ok: false,
        problem: ".git file not used: it does not hold one path on one line",
        line: 1,
      });
    }
    const asyncUsed = process.cpuUsage(asyncStart);
    const ms = cpuMs(() => {
      for (let i = 0; i < 10; i++) {
        expect(gitDirNamedSync(dotGit, join(root, "pkg"))).toBeUndefined();
        expect(pathLineSync(join(root, "admin/gitdir"))).toBeUndefined();
      }
    });
    expect(ms + (asyncUsed.user + asyncUsed.system) / 1000).toBeLessThan(400);
  });

  it("a path followed by line breaks is still read (as git reads the first line)", () => {
    const root = tempDir();
    writeFiles(root, { "pkg/.git": "gitdir: ../real/.git\r\n\n\n", "admin/commondir": "../..\n" });
    expect(gitDirNamedSync(join(root, "pkg/.git"), join(root, "pkg"))).toBe(
      join(root, "real/.git"),
    );
    expect(pathLineSync(join(root, "admin/commondir"))).toBe("../..");
  });
});
