import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { recordReads } from "../../src/_io.js";
import {
  LISTING_CACHE_VERSION,
  type ListingCache,
  openListingCache,
} from "../../src/gather/tree/_listing-cache.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { createReadSet } from "../../src/session/_read-set.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The render case waits 2.1 s for its folders to settle, then renders three times.
vi.setConfig({ testTimeout: 30_000 });

/** Folders listed (readdirSync), by path. */
const listed = vi.hoisted(() => ({ paths: [] as string[] }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
    // A folder checked by lstat is listed through its descriptor (/proc/self/fd/N): by the path it names.
    const at = String(args[0]);
    listed.paths.push(at.startsWith("/proc/self/fd/") ? fs.readlinkSync(at) : at);
    return fs.readdirSync(...args);
  }) as typeof fs.readdirSync;
  return { ...fs, default: { ...fs, readdirSync }, readdirSync };
});

/**
 * A project with folders below the tree's three shown levels: `a/b/c` holds
 * subfolders, one with an AGENTS.md four folders deep, and an ignore file.
 */
function project(): string {
  const root = join(tempDir(), "project");
  for (const dir of ["a/b/c/d", "a/b/c/e", "a/b/c/skip", "x/y/z/w"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "a/b/c/d/AGENTS.md"), "deep rules\n");
  writeFileSync(join(root, "a/b/c/skip/AGENTS.md"), "ignored rules\n");
  writeFileSync(join(root, "a/b/c/.gitignore"), "skip/\n");
  writeFileSync(join(root, "a/b/c/AGENTS.md"), "rules of c\n");
  writeFileSync(join(root, "x/y/z/w/AGENTS.md"), "w rules\n");
  return root;
}

/** A cache in a fresh file that keeps every listing however recent (tests change folders within the clock's tick). */
function freshCache(file: string): () => ListingCache {
  return () => openListingCache({ path: file, parents: true }, { settleMs: 0 });
}

async function walk(root: string, cache?: ListingCache) {
  listed.paths.length = 0;
  const listing = await walkTree(root, {
    listDepth: 3,
    agentsDepth: 5,
    ...(cache ? { listingCache: cache } : {}),
  });
  cache?.save();
  return { agentsMd: [...listing.agentsMd].sort(), listed: [...listed.paths] };
}

describe("the tree walk's listing cache", () => {
  it("a second walk finds the same AGENTS.md files without listing the folders below the shown levels", async () => {
    const root = project();
    const open = freshCache(join(tempDir(), "tree.json"));
    const plain = await walk(root);
    const first = await walk(root, open());
    const second = await walk(root, open());
    expect(plain.agentsMd).toEqual(["a/b/c/AGENTS.md", "a/b/c/d/AGENTS.md", "x/y/z/w/AGENTS.md"]);
    expect(first.agentsMd).toEqual(plain.agentsMd);
    expect(second.agentsMd).toEqual(plain.agentsMd);
    const below = (paths: string[]) =>
      paths.filter((p) => p.split("/").length > root.split("/").length + 2);
    expect(below(first.listed).sort()).toEqual([join(root, "a/b/c"), join(root, "x/y/z")]);
    // The shown folders too are taken from the cache: the second walk lists nothing.
    expect(second.listed).toEqual([]);
  });

  it("serves a shown folder's entries, kinds and all, until the folder changes", async () => {
    const root = project();
    writeFileSync(join(root, "readme.md"), "read me\n");
    writeFileSync(join(root, "a/file.ts"), "export {};\n");
    symlinkSync(join(root, "readme.md"), join(root, "a/link"));
    const open = freshCache(join(tempDir(), "tree.json"));
    const entries = async (cache?: ListingCache) => {
      listed.paths.length = 0;
      const listing = await walkTree(root, {
        listDepth: 3,
        agentsDepth: 5,
        ...(cache ? { listingCache: cache } : {}),
      });
      cache?.save();
      const byName = (rel: string) =>
        listing.children(rel).then((l) => l.sort((x, y) => (x.name < y.name ? -1 : 1)));
      return { top: await byName(""), a: await byName("a"), listed: [...listed.paths] };
    };
    await entries(open());
    const cached = await entries(open());
    const plain = await entries();
    expect(cached.listed).toEqual([]);
    expect(cached.top).toEqual(plain.top);
    expect(cached.a).toEqual(plain.a);
    expect(cached.a).toEqual([
      { name: "b", kind: "dir" },
      { name: "file.ts", kind: "file" },
      { name: "link", kind: "link" },
    ]);
    // A file added, one renamed, and one replaced by a folder of its name.
    writeFileSync(join(root, "a/new.txt"), "new\n");
    renameSync(join(root, "a/file.ts"), join(root, "a/renamed.ts"));
    rmSync(join(root, "readme.md"));
    mkdirSync(join(root, "readme.md"));
    const changed = await entries(open());
    // The two changed folders and the new one are listed; the rest still come from the cache.
    expect(changed.listed.sort()).toEqual([root, join(root, "a"), join(root, "readme.md")]);
    const fresh = await entries();
    expect(changed.top).toEqual(fresh.top);
    expect(changed.a).toEqual(fresh.a);
    expect(changed.top).toContainEqual({ name: "readme.md", kind: "dir" });
    expect(changed.a.map((e) => e.name)).toEqual(["b", "link", "new.txt", "renamed.ts"]);
  });

  it("a folder that gains, loses or renames an entry is listed again", async () => {
    const root = project();
    const open = freshCache(join(tempDir(), "tree.json"));
    await walk(root, open());
    mkdirSync(join(root, "a/b/c/n"));
    writeFileSync(join(root, "a/b/c/n/AGENTS.md"), "new\n");
    renameSync(join(root, "x/y/z/w"), join(root, "x/y/z/v"));
    const after = await walk(root, open());
    expect(after.agentsMd).toEqual([
      "a/b/c/AGENTS.md",
      "a/b/c/d/AGENTS.md",
      "a/b/c/n/AGENTS.md",
      "x/y/z/v/AGENTS.md",
    ]);
    rmSync(join(root, "a/b/c/AGENTS.md"));
    expect((await walk(root, open())).agentsMd).toEqual([
      "a/b/c/d/AGENTS.md",
      "a/b/c/n/AGENTS.md",
      "x/y/z/v/AGENTS.md",
    ]);
  });

  it("reads a kept folder's ignore file afresh, and checks a kept AGENTS.md link's target every time", async () => {
    const root = project();
    writeFileSync(join(root, "target.md"), "linked\n");
    mkdirSync(join(root, "x/y/z/l"));
    symlinkSync(join(root, "target.md"), join(root, "x/y/z/l/AGENTS.md"));
    symlinkSync(join(root, "target.md"), join(root, "x/y/z/AGENTS.md"));
    const open = freshCache(join(tempDir(), "tree.json"));
    await walk(root, open());
    // Edited in place and removed elsewhere: the folders' own stats do not change.
    writeFileSync(join(root, "a/b/c/.gitignore"), "d/\n");
    rmSync(join(root, "target.md"));
    const after = await walk(root, open());
    expect(after.listed.filter((p) => p.startsWith(join(root, "a/b/c")))).toEqual([]);
    expect(after.agentsMd).toEqual([
      "a/b/c/AGENTS.md",
      "a/b/c/skip/AGENTS.md",
      "x/y/z/w/AGENTS.md",
    ]);
  });

  it("the walk still notes the stat of a folder it took from the cache, so a prompt session sees the folder change", async () => {
    const root = project();
    const open = freshCache(join(tempDir(), "tree.json"));
    await walk(root, open());
    const reads = createReadSet(0);
    await recordReads(reads, () => walk(root, open()));
    const noted = [...reads.entries.values()].filter((e) => e.path === join(root, "a/b/c"));
    expect(noted.map((e) => e.probe)).toContain("lstat");
  });

  it("keeps nothing that changed within the settle time, and writes no file then", async () => {
    const root = project();
    const file = join(tempDir(), "cache", "tree.json");
    const cache = openListingCache({ path: file, parents: true });
    await walk(root, cache);
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it.each([
    ["not JSON", "{"],
    ["another version", JSON.stringify({ version: "tree-listing/0", roots: {} })],
    ["a wrong shape", JSON.stringify({ version: LISTING_CACHE_VERSION, roots: { x: 1 } })],
    [
      "a lying stamp",
      JSON.stringify({
        version: LISTING_CACHE_VERSION,
        roots: { "/": { used: 1, folders: { a: [1, 2] } } },
      }),
    ],
  ])("a cache file holding %s is a miss: the walk lists as without it", async (_what, text) => {
    const root = project();
    const file = join(tempDir(), "tree.json");
    writeFileSync(file, text);
    const plain = await walk(root);
    const cached = await walk(
      root,
      openListingCache({ path: file, parents: true }, { settleMs: 0 }),
    );
    expect(cached).toEqual(plain);
  });

  it.each([
    ["a subfolder the folder does not hold", "gone"],
    ["a path out of the folder", "../../../elsewhere"],
    ["a parent", ".."],
    ["a name with a separator", "d/../../../../elsewhere"],
  ])("a memo that names %s finds nothing there", async (_what, name) => {
    const root = project();
    mkdirSync(join(root, "elsewhere"));
    writeFileSync(join(root, "elsewhere/AGENTS.md"), "not below a/b/c\n");
    const file = join(tempDir(), "tree.json");
    const open = freshCache(file);
    await walk(root, open());
    const kept = JSON.parse(readFileSync(file, "utf8"));
    kept.roots[root].folders["a/b/c"][1].push(name);
    writeFileSync(file, JSON.stringify(kept));
    expect((await walk(root, open())).agentsMd).toEqual([
      "a/b/c/AGENTS.md",
      "a/b/c/d/AGENTS.md",
      "elsewhere/AGENTS.md",
      "x/y/z/w/AGENTS.md",
    ]);
  });

  it("a cache path that is a FIFO, a folder or under a file is never opened and never fails the walk", async () => {
    const root = project();
    const dir = tempDir();
    const plain = await walk(root);
    execFileSync("mkfifo", [join(dir, "fifo.json")]);
    mkdirSync(join(dir, "folder.json"));
    writeFileSync(join(dir, "file"), "");
    for (const path of [
      join(dir, "fifo.json"),
      join(dir, "folder.json"),
      join(dir, "file", "tree.json"),
    ]) {
      const cache = openListingCache({ path, parents: true }, { settleMs: 0 });
      expect(await walk(root, cache)).toEqual(plain);
    }
  });
});

describe("the tree with a fourth shown level", () => {
  it("shows the fourth level's folders (they were dropped when the AGENTS.md look-up took that level)", async () => {
    const root = join(tempDir(), "deep");
    mkdirSync(join(root, "a/b/c/d"), { recursive: true });
    writeFileSync(join(root, "a/b/c/g.txt"), "g");
    writeFileSync(join(root, "a/b/c/d/f.txt"), "f");
    const tree = await buildWorkspaceTree(root, { maxDepth: 4, mtime: 0 });
    expect(
      tree.rendered.split("\n").map((l) => l.replace(/\s+\S+ \S+$/, "").replace(/\s+\dB$/, "")),
    ).toEqual(["deep/", "  a/", "    b/", "      c/", "        d/", "        g.txt"]);
  });
});

describe("the render's listing cache", () => {
  it("is kept in the agent dir once the folders have settled, and the prompt is the same with it", async () => {
    const root = project();
    const options = { ...pinned(dirname(root)), workspaceTree: true };
    const agentDir = options.agentDir as string;
    const first = await renderSystemPrompt(options);
    expect(() => readFileSync(join(agentDir, "cache", "sysprompt-tree.json"))).toThrow(/ENOENT/);
    await new Promise((done) => setTimeout(done, 2100));
    const second = await renderSystemPrompt(options);
    const kept = JSON.parse(readFileSync(join(agentDir, "cache", "sysprompt-tree.json"), "utf8"));
    const folders = kept.roots[root].folders;
    expect(Object.keys(folders).sort()).toEqual(["", "a", "a/b", "a/b/c", "x", "x/y", "x/y/z"]);
    // A shown folder's memo holds its other entries; one below the shown levels only its subfolders.
    expect(folders[""]).toHaveLength(5);
    expect(folders["a/b/c"]).toHaveLength(4);
    const third = await renderSystemPrompt(options);
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
  });
});
