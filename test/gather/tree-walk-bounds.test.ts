import { join, relative } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { makeTree } from "./_tree.js";

/** Every path the walk lists or probes (synchronously, in slices; the callback forms too). */
const touched = vi.hoisted(() => ({ readdir: [] as string[], stat: [] as string[] }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const record =
    <F extends (...args: never[]) => unknown>(list: string[], fn: F) =>
    (...args: Parameters<F>) => {
      // A folder checked by lstat is listed through its descriptor (/proc/self/fd/N): by the path it names.
      const at = String(args[0]);
      list.push(at.startsWith("/proc/self/fd/") ? fs.readlinkSync(at) : at);
      return fn(...args);
    };
  return {
    ...fs,
    readdir: record(touched.readdir, fs.readdir as never),
    stat: record(touched.stat, fs.stat as never),
    lstat: record(touched.stat, fs.lstat as never),
    readdirSync: record(touched.readdir, fs.readdirSync as never),
    opendirSync: record(touched.readdir, fs.opendirSync as never),
    statSync: record(touched.stat, fs.statSync as never),
    lstatSync: record(touched.stat, fs.lstatSync as never),
  };
});

describe("buildWorkspaceTree: the walk is bounded", () => {
  it("reads folders 0-3 deep, asks those 4 deep for an AGENTS.md and nothing below, never enters ignored, hidden, node_modules or linked folders", async () => {
    const root = join(tempDir(), "project");
    const t = "2026-01-01 00:00";
    const deep = "a/b/c/d/e/f/g";
    makeTree(root, {
      ".gitignore": { at: t, text: "build/\n" },
      [`${deep}/x.txt`]: { at: t, size: 1 },
      "a/b/c/AGENTS.md": { at: t, size: 1 },
      "build/lib/x.js": { at: t, size: 1 },
      "node_modules/p/q/x.js": { at: t, size: 1 },
      ".cache/r/x": { at: t, size: 1 },
      "a/b/link": { at: t, link: "../../build" },
    });
    touched.readdir.length = 0;
    touched.stat.length = 0;
    await buildWorkspaceTree(root);
    const rel = (paths: string[]) => [...new Set(paths.map((p) => relative(root, p)))].sort();
    expect(rel(touched.readdir)).toEqual(["", "a", "a/b", "a/b/c"]);
    // Stat'ed: the repository look-up (.git here and above), your global git
    // excludes (outside the root), the entries shown (depth 1-3) and the
    // depth-5 AGENTS.md; nothing deeper, nothing skipped.
    const statted = rel(touched.stat).filter((p) => !p.endsWith(".git") && !p.startsWith(".."));
    expect(statted.filter((p) => p.split("/").length > 5)).toEqual([]);
    expect(statted.filter((p) => /^(build|node_modules|\.cache)(\/|$)|link\//.test(p))).toEqual([]);
    expect(statted).toContain("a/b/c/d/AGENTS.md");
  });

  it("a tree that misses the deadline stops reading folders once the render has returned", async () => {
    const root = tempDir();
    const spec: Record<string, { at: string; size: number }> = {};
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 5; j++) spec[`d${i}/e${j}/f/x.txt`] = { at: "2026-01-01 00:00", size: 1 };
    }
    makeTree(join(root, "project"), spec);
    touched.readdir.length = 0;
    const result = await renderSystemPrompt(pinned(root, { workspaceTree: true, deadlineMs: 1 }));
    expect(result.steps.find((s) => s.name === "tree")?.status).toEqual("timeout");
    const atReturn = touched.readdir.length;
    // Long enough for a walk that kept going to read some of its 241 folders.
    await new Promise((done) => setTimeout(done, 200));
    expect(touched.readdir.length).toEqual(atReturn);
    expect(atReturn).toBeLessThan(241);
  });
});
