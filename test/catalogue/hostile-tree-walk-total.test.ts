import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutTree } from "../../src/gather/tree/_tree-layout.js";
import { MAX_WALK_ENTRIES, walkTree } from "../../src/gather/tree/_tree-walk.js";
import { treeDiagnostics } from "../../src/gather/tree/tree.js";
import { tempDir } from "../api/_helpers.js";

// The tree walk capped each folder (200,000 entries read) but not the walk:
// every entry of every shown folder was kept until the layout, so six folders
// of 195,000 long-named links held 595 MB RSS (library, 5 s of CPU). Review
// of issue 24 (lows). The walk now keeps MAX_WALK_ENTRIES of all its folders;
// here a total of 1,000 over three folders of 600 links stands for it.

/** `root/dN`, N < `folders`, each holding `count` dangling links with long names. */
function project(folders: number, count: number): string {
  const root = join(tempDir(), "project");
  for (let d = 0; d < folders; d++) {
    const dir = join(root, `d${d}`);
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < count; i++) symlinkSync("x", join(dir, `${"L".repeat(120)}${i}`));
  }
  return root;
}

describe("hostile-tree-walk-total: the tree keeps a total of entries across its folders", () => {
  it("past the total, folders are read in part or not at all, each says so, and a warning says why", async () => {
    const root = project(3, 600);
    const listing = await walkTree(root, { listDepth: 2, agentsDepth: 2, totalCap: 1000 });
    const kept = [0, 1, 2].map((d) => listing.readCap(`d${d}`));
    // The root's three folders, then 600 of d0, 397 of d1, none of d2.
    expect(kept).toEqual([1000 - 3, 1000 - 3 - 600, 0]);
    const counted = await Promise.all([0, 1, 2].map((d) => listing.children(`d${d}`)));
    expect(counted.map((c) => c.length)).toEqual([600, 397, 0]);
    expect(listing.totalCut).toBe(2);
    const { lines } = await layoutTree(root, "project", listing, {
      maxDepth: 2,
      maxEntries: 4,
      maxLines: 60,
      mtimeMs: Date.parse("2026-01-01T00:00:00Z"),
    });
    const notes = lines.map((l) => l.text).filter((t) => t.includes("total was reached"));
    expect(notes).toHaveLength(2);
    expect(notes[1]).toContain("0 read, listed by name");
    const tree = {
      rendered: "",
      truncated: true,
      lines: [],
      agentsMd: [],
      agentsMdOmitted: 0,
      unreadable: [],
    };
    expect(treeDiagnostics({ ...tree, totalCut: 2 }, root)).toEqual([
      {
        level: "warning",
        code: "tree-total-cut",
        message: `the workspace tree keeps ${MAX_WALK_ENTRIES} entries of all its folders at most: 2 folders were read in part or not at all, and each says so`,
        path: root,
      },
    ]);
  });

  it("the default total keeps a tree of 100,000 files whole (npm run bench's tree)", () => {
    expect(MAX_WALK_ENTRIES).toBeGreaterThanOrEqual(100_000 * 2);
  });
});
