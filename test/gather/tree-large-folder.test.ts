import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { LARGE_FOLDER } from "../../src/gather/tree/_tree-layout.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { tempDir } from "../api/_helpers.js";

/** Paths the tree looks at one by one (lstat, synchronous or not). */
const looked = vi.hoisted(() => [] as string[]);

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const lstat = (...args: Parameters<typeof fs.lstat>) => {
    looked.push(String(args[0]));
    return (fs.lstat as (...a: unknown[]) => void)(...args);
  };
  // The walk and the layout call it synchronously, in slices.
  const lstatSync = ((...args: Parameters<typeof fs.lstatSync>) => {
    looked.push(String(args[0]));
    return (fs.lstatSync as (...a: unknown[]) => unknown)(...args);
  }) as typeof fs.lstatSync;
  return { ...fs, default: { ...fs, lstat, lstatSync }, lstat, lstatSync };
});

describe("buildWorkspaceTree: a folder with many entries", () => {
  it("is listed by name, and only the entries shown are looked at", async () => {
    const root = join(tempDir(), "project");
    const big = join(root, "big");
    mkdirSync(big, { recursive: true });
    writeFileSync(join(root, "seed"), "");
    const count = LARGE_FOLDER + 500;
    // Hard links: one call each, and the same time and size for all.
    for (let i = 0; i < count; i++) linkSync(join(root, "seed"), join(big, `f${i}`));
    looked.length = 0;
    const tree = await buildWorkspaceTree(root, { mtime: "2026-01-01T00:00:00Z" });
    const t = "2026-01-01 00:00";
    // By name: f0, f1, f10, f100, …; the last name is f999.
    const first = [
      "f0",
      "f1",
      "f10",
      "f100",
      "f1000",
      "f1001",
      "f1002",
      "f1003",
      "f1004",
      "f1005",
      "f1006",
    ];
    expect(tree.rendered.split("\n")).toEqual([
      "project/",
      // The header says "newest first": this folder's own line says it is not.
      `  big/  ${t}  (over 1000 entries: listed by name)`,
      ...first.map((name) => `    ${name}  0B  ${t}`),
      `    … ${count - 12} more`,
      `    f999  0B  ${t}`,
      `  seed  0B  ${t}`,
    ]);
    // Looking at every entry to order them by time is what took seconds at 200,000.
    expect(looked.filter((p) => p.startsWith(`${big}/`)).length).toBe(12);
  });

  it("up to the limit, entries are ordered by time as everywhere else", async () => {
    const root = join(tempDir(), "project");
    const big = join(root, "big");
    mkdirSync(big, { recursive: true });
    for (let i = 0; i < LARGE_FOLDER; i++) writeFileSync(join(big, `f${i}`), "");
    looked.length = 0;
    await buildWorkspaceTree(root, { mtime: "2026-01-01T00:00:00Z" });
    expect(looked.filter((p) => p.startsWith(`${big}/`)).length).toBe(LARGE_FOLDER);
  });
});
