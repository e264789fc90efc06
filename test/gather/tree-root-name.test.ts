import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutTree } from "../../src/gather/tree/_tree-layout.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { tempDir } from "../api/_helpers.js";
import { makeTree } from "./_tree.js";

describe("the tree's root line", () => {
  it("the file system's root is named /, not //; any other folder ends in one /", async () => {
    const root = makeTree(join(tempDir(), "project"), {
      "a.txt": { at: "2026-01-01 00:00", size: 1 },
    });
    const listing = await walkTree(root, { listDepth: 3, agentsDepth: 5 });
    const limits = { maxDepth: 3, maxEntries: 12, maxLines: 120, mtimeMs: 0 };
    const first = async (name: string) => (await layoutTree(root, name, listing, limits)).lines[0];
    // buildWorkspaceTree("/") names its root by the path itself: basename("/") is "".
    expect(await first("/")).toEqual({ depth: 0, text: "/" });
    expect(await first("project")).toEqual({ depth: 0, text: "project/" });
  });
});
