import { readFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type FolderMemo,
  MAX_LISTING_CACHE_BYTES,
  MAX_ROOT_LISTING_BYTES,
  openListingCache,
} from "../../src/gather/tree/_listing-cache.js";
import { tempDir } from "../api/_helpers.js";

// The tree's listing cache is one file of at most 8 MiB for every project
// you work in. One project of 50 folders of 1,000 long subfolder names
// (a checkout can hold that) filled it to 7.9 MiB in one walk: every other
// project's changed folders then found no room and left the file with their
// next walk, and a new project's walks kept nothing. A project root's
// memos are now kept up to MAX_ROOT_LISTING_BYTES (2 MiB, a quarter of the
// file; the 100k-file bench tree takes 177 KB).

const statOf = (i: number) =>
  ({ dev: 1, ino: i, mtimeMs: 0, ctimeMs: 0, size: 4096, nlink: 3 }) as Stats;
const open = (file: string) => openListingCache({ path: file, parents: true }, { settleMs: 0 });
const big = (i: number): FolderMemo => ({
  dirs: Array.from({ length: 1000 }, (_, j) => `${"x".repeat(150)}${i}-${j}`),
  context: [],
  ignoreFiles: [],
});
const small: FolderMemo = { dirs: ["src", "docs"], context: ["fAGENTS.md"], ignoreFiles: [] };

describe("hostile repository: one project's share of the listing cache", () => {
  it("a project of huge listings keeps at most its share; another project's new folders still fit", () => {
    const file = join(tempDir(), "tree.json");
    const first = open(file);
    first.put("/yours", "", statOf(0), small);
    first.save();
    const hostile = open(file);
    for (let i = 1; i <= 50; i++) hostile.put("/hostile", `f${i}`, statOf(i), big(i));
    hostile.save();
    const stored = JSON.parse(readFileSync(file, "utf8"));
    const share = Buffer.byteLength(JSON.stringify(stored.roots["/hostile"]));
    expect(share).toBeLessThanOrEqual(MAX_ROOT_LISTING_BYTES);
    expect(share).toBeGreaterThan(MAX_ROOT_LISTING_BYTES / 2);
    expect(MAX_ROOT_LISTING_BYTES).toBe(MAX_LISTING_CACHE_BYTES / 4);
    // Your project's next walk: a folder changed (a new stat), a new folder.
    const yours = open(file);
    expect(yours.get("/yours", "", statOf(0), false)).toEqual(small);
    yours.put("/yours", "src", statOf(100), small);
    yours.save();
    const after = open(file);
    expect(after.get("/yours", "src", statOf(100), false)).toEqual(small);
    expect(after.get("/yours", "", statOf(0), false)).toEqual(small);
    // Walked again (its kept folders met, ten more listed), the hostile project grows no further.
    for (let i = 1; i <= 60; i++) {
      if (!after.get("/hostile", `f${i}`, statOf(i), false))
        after.put("/hostile", `f${i}`, statOf(i), big(i));
    }
    after.save();
    const again = JSON.parse(readFileSync(file, "utf8"));
    expect(Buffer.byteLength(JSON.stringify(again.roots["/hostile"]))).toBe(share);
  });
});
