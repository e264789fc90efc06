import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildWorkspaceTree, treeDiagnostics } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { makeTree } from "./_tree.js";

/** Folders whose listing fails with EACCES (tests run as root, where chmod 000 does not stop a read). */
const refused = new Set<string>();

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  // A folder checked by lstat is listed through its descriptor (/proc/self/fd/N): by the path it names.
  const named = (at: string) => (at.startsWith("/proc/self/fd/") ? fs.readlinkSync(at) : at);
  const readdirSync = ((path: string, ...rest: unknown[]) => {
    if (refused.has(named(String(path)))) {
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), {
        code: "EACCES",
      });
    }
    return (fs.readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readdirSync;
  const opendirSync = ((path: string, ...rest: unknown[]) => {
    if (refused.has(named(String(path)))) {
      throw Object.assign(new Error(`EACCES: permission denied, opendir '${path}'`), {
        code: "EACCES",
      });
    }
    return (fs.opendirSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.opendirSync;
  return {
    ...fs,
    default: { ...fs, readdirSync, opendirSync },
    readdirSync,
    opendirSync,
  };
});

const SPEC = {
  "src/a.ts": { at: "2026-01-02 00:00", size: 10 },
  "secret/AGENTS.md": { at: "2026-01-03 00:00", text: "hidden rules" },
  "secret/x.txt": { at: "2026-01-03 00:00", size: 1 },
};

describe("a folder the tree cannot list", () => {
  it("is shown without entries and named in a warning, not lost in silence", async () => {
    const root = makeTree(join(tempDir(), "project"), SPEC);
    refused.add(join(root, "secret"));
    const tree = await buildWorkspaceTree(root, { mtime: "2026-01-05T00:00Z" });
    expect(tree.unreadable).toEqual(["secret"]);
    expect(tree.rendered).toBe(
      [
        "project/",
        "  secret/  2026-01-05 00:00",
        "  src/  2026-01-05 00:00",
        "    a.ts  10B  2026-01-05 00:00",
      ].join("\n"),
    );
    expect(treeDiagnostics(tree, root)).toEqual([
      {
        level: "warning",
        code: "tree-unreadable",
        message:
          "the workspace tree could not list this folder (no permission or an I/O error), shown without entries: secret",
        path: join(root, "secret"),
      },
    ]);
    refused.clear();
  });

  it("reaches the render's diagnostics", async () => {
    const base = tempDir();
    makeTree(join(base, "project"), SPEC);
    refused.add(join(base, "project", "secret"));
    const result = await renderSystemPrompt(pinned(base, { workspaceTree: true }));
    expect(result.diagnostics.filter((d) => d.code === "tree-unreadable")).toEqual([
      expect.objectContaining({ level: "warning", path: join(base, "project", "secret") }),
    ]);
    refused.clear();
  });
});
