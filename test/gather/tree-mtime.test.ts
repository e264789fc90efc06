import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { makeTree, type Spec } from "./_tree.js";

/** Mtimes that would order z, src, a.txt newest first; `mtime` must override all of them. */
const SPEC: Record<string, Spec> = {
  "z.txt": { at: "2026-03-01 00:00", size: 3 },
  "src/": { at: "2026-02-01 00:00" },
  "src/b.ts": { at: "2026-02-01 00:00", size: 1536 },
  "src/a.ts": { at: "2025-01-01 00:00", size: 10 },
  "a.txt": { at: "2025-06-01 00:00", size: 0 },
};

const lines = (...xs: string[]) => xs.join("\n");

describe("buildWorkspaceTree: mtime", () => {
  it("shows one pinned time for every entry, and entries order by name", async () => {
    const root = makeTree(join(tempDir(), "project"), SPEC);
    const shown: [number, string][] = [
      [0, "project/"],
      [1, "  a.txt  0B  2026-01-02 03:04"],
      [1, "  src/  2026-01-02 03:04"],
      [2, "    a.ts  10B  2026-01-02 03:04"],
      [2, "    b.ts  1.5KB  2026-01-02 03:04"],
      [1, "  z.txt  3B  2026-01-02 03:04"],
    ];
    const expected = {
      rendered: lines(...shown.map(([, text]) => text)),
      lines: shown.map(([depth, text]) => ({ depth, text })),
      truncated: false,
      agentsMd: [],
      agentsMdOmitted: 0,
      unreadable: [],
    };
    expect(await buildWorkspaceTree(root, { mtime: "2026-01-02T03:04:59Z" })).toEqual(expected);
    expect(await buildWorkspaceTree(root, { mtime: new Date("2026-01-02T03:04Z") })).toEqual(
      expected,
    );
    expect(await buildWorkspaceTree(root, { mtime: Date.parse("2026-01-02T03:04Z") })).toEqual(
      expected,
    );
  });

  it("a value that is not a time is a SyspromptError naming the option", async () => {
    const root = makeTree(join(tempDir(), "project"), SPEC);
    const error = await buildWorkspaceTree(root, { mtime: "yesterday" }).catch((e) => e);
    expect(error).toBeInstanceOf(SyspromptError);
    expect(error.message).toEqual(
      'buildWorkspaceTree: mtime: "yesterday" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)',
    );
  });
});

describe("treeMtime option", () => {
  it("pins the workspace_tree section's times", async () => {
    const root = tempDir();
    makeTree(join(root, "project"), SPEC);
    const result = await renderSystemPrompt(
      pinned(root, { workspaceTree: true, treeMtime: "2026-01-02" }),
    );
    const tree = result.sections.find((s) => s.name === "workspace_tree")?.text.split("\n");
    expect(tree?.slice(3, -1)).toEqual([
      "project/",
      "  a.txt  0B  2026-01-02 00:00",
      "  src/  2026-01-02 00:00",
      "    a.ts  10B  2026-01-02 00:00",
      "    b.ts  1.5KB  2026-01-02 00:00",
      "  z.txt  3B  2026-01-02 00:00",
    ]);
  });

  it("is checked like now: a bad value throws before any gathering", async () => {
    const root = tempDir();
    await expect(
      renderSystemPrompt(pinned(root, { workspaceTree: true, treeMtime: "2026-02-30" })),
    ).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        'treeMtime: "2026-02-30" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)',
      ),
    );
  });
});
