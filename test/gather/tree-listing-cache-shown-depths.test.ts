import {
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type ListingCache, openListingCache } from "../../src/gather/tree/_listing-cache.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { openPromptSession } from "../../src/session/session.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The listing cache since it keeps the shown folders' listings too, attacked
// by a hand-edited cache file and by walks of other depths.

vi.setConfig({ testTimeout: 30_000 });

function cacheIn(file: string): ListingCache {
  return openListingCache({ path: file, parents: true }, { settleMs: 0 });
}

/** Lets the clock pass the folders just made (see tree-listing-cache-hostile.test.ts). */
const tick = () => new Promise((done) => setTimeout(done, 20));

function writtenAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Rewrites the memos of the cache file with `edit` (each memo: stamp, dirs, agents, ignore files, rest). */
function editMemos(file: string, root: string, edit: (memo: unknown[], rel: string) => void) {
  const json = JSON.parse(readFileSync(file, "utf8"));
  for (const [rel, memo] of Object.entries(json.roots[root].folders)) edit(memo as unknown[], rel);
  writeFileSync(file, JSON.stringify(json));
}

describe("a hand-edited memo that names a subfolder twice", () => {
  // A listing never holds a name twice; a memo that does would queue the
  // folder once per copy, at every level: 20,000 copies three levels deep
  // are 8e12 folders, walked until the deadline, in half a gigabyte.
  it("is a miss: the walk lists as without the cache, well within the deadline", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, "a/a/a/a"), { recursive: true });
    writeFileSync(join(root, "a/x.txt"), "x\n");
    await tick();
    const file = join(tempDir(), "tree.json");
    const walk = (cache?: ListingCache, signal?: AbortSignal) =>
      walkTree(root, {
        listDepth: 3,
        agentsDepth: 5,
        ...(cache ? { listingCache: cache } : {}),
        ...(signal ? { signal } : {}),
      });
    const cache = cacheIn(file);
    await walk(cache);
    cache.save();
    editMemos(file, root, (memo) => {
      memo[1] = Array(20_000).fill("a");
    });
    const started = Date.now();
    const edited = await walk(cacheIn(file), AbortSignal.timeout(5_000));
    expect(Date.now() - started).toBeLessThan(2_000);
    const plain = await walk();
    for (const rel of ["", "a", "a/a"]) {
      expect(await edited.children(rel), rel).toEqual(await plain.children(rel));
    }
    expect(await plain.children("a")).toEqual([
      { name: "a", kind: "dir" },
      { name: "x.txt", kind: "file" },
    ]);
  });
});

describe("names that are not UTF-8", () => {
  // Two such names can read alike (each bad byte is U+FFFD): a listing
  // gives the same name twice, and a memo of it is no less good.
  it("that read alike are kept, and the next walks neither list the folder nor rewrite the file", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, "src"), { recursive: true });
    for (const bytes of [
      [0x66, 0xff, 0xfe],
      [0x66, 0xff, 0xfd],
      [0x64, 0xff],
      [0x64, 0xfe],
    ]) {
      const path = Buffer.concat([Buffer.from(`${root}/src/`), Buffer.from(bytes)]);
      if (bytes[0] === 0x64) mkdirSync(path);
      else writeFileSync(path, "x\n");
    }
    await tick();
    const file = join(tempDir(), "tree.json");
    const walk = async () => {
      const cache = cacheIn(file);
      const listing = await walkTree(root, { listDepth: 3, agentsDepth: 5, listingCache: cache });
      cache.save();
      return listing.children("src");
    };
    const plain = await walkTree(root, { listDepth: 3, agentsDepth: 5 }).then((l) =>
      l.children("src"),
    );
    expect(plain).toHaveLength(4);
    expect(await walk()).toEqual(plain);
    const kept = writtenAt(file);
    await tick();
    expect(await walk()).toEqual(plain);
    expect(writtenAt(file)).toBe(kept);
  });
});

describe("a hand-edited memo that names a subfolder reading U+FFFD twenty thousand times", () => {
  // Such a name may repeat in a listing, so the memo is taken; the walk
  // queues each such path once, and ends.
  it("is walked well within the deadline", async () => {
    const root = join(tempDir(), "project");
    const odd = "\uFFFD";
    mkdirSync(join(root, odd, odd, odd, odd), { recursive: true });
    await tick();
    const file = join(tempDir(), "tree.json");
    const cache = cacheIn(file);
    await walkTree(root, { listDepth: 3, agentsDepth: 5, listingCache: cache });
    cache.save();
    editMemos(file, root, (memo) => {
      memo[1] = Array(20_000).fill(odd);
    });
    const started = Date.now();
    await walkTree(root, {
      listDepth: 3,
      agentsDepth: 5,
      listingCache: cacheIn(file),
      signal: AbortSignal.timeout(5_000),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("a hand-edited memo that names what no listing keeps", () => {
  // A memo holds only what the walk takes from a listing: never a hidden
  // entry or node_modules, and of the hidden ones only the ignore files.
  it.each([
    ["a hidden folder", (m: unknown[]) => (m[1] as string[]).push(".git")],
    ["node_modules", (m: unknown[]) => (m[1] as string[]).push("node_modules")],
    ["a hidden file", (m: unknown[]) => (m[4] as string[]).push("f.env")],
    ["node_modules as a link", (m: unknown[]) => (m[4] as string[]).push("lnode_modules")],
    ["an ignore file not named so", (m: unknown[]) => (m[3] as string[]).push("x.txt")],
  ])("is a miss when it names %s", async (_what, edit) => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, ".git/refs"), { recursive: true });
    mkdirSync(join(root, "node_modules/dep"), { recursive: true });
    mkdirSync(join(root, "src"), { recursive: true });
    writeFileSync(join(root, ".env"), "SECRET=1\n");
    writeFileSync(join(root, "x.txt"), "node_modules/\n");
    await tick();
    const file = join(tempDir(), "tree.json");
    const walk = async (cache?: ListingCache) => {
      const listing = await walkTree(root, {
        listDepth: 3,
        agentsDepth: 5,
        ...(cache ? { listingCache: cache } : {}),
      });
      cache?.save();
      return listing;
    };
    await walk(cacheIn(file));
    editMemos(file, root, (memo, rel) => {
      if (rel === "") edit(memo);
    });
    const edited = await walk(cacheIn(file));
    const plain = await walk();
    expect(await edited.children("")).toEqual(await plain.children(""));
    expect(await plain.children("")).toEqual([
      { name: "src", kind: "dir" },
      { name: "x.txt", kind: "file" },
    ]);
  });
});

describe("walks of other depths over one cache, with folders that hold no subfolder", () => {
  // A folder without subfolders is not listed below the shown levels (its
  // link count says so), and a folder of the last level is not even
  // lstat'ed: a walk 3 deep never meets the fourth level's folders that a
  // walk 4 or 5 deep shows, and dropped their memos, which the deeper walk
  // then listed and wrote again: a rewrite of the file on every render.
  function project(): string {
    const root = join(tempDir(), "project");
    for (const dir of ["a/b/c/d/e", "a/b/leaf", "a/b/c/leaf2", "a/b/c/d/leaf3"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    for (const dir of ["a/b/leaf", "a/b/c/leaf2", "a/b/c/d/leaf3"]) {
      writeFileSync(join(root, dir, "x.txt"), "x\n");
    }
    return root;
  }
  const walk = async (root: string, file: string, listDepth: number) => {
    const cache = cacheIn(file);
    await walkTree(root, { listDepth, agentsDepth: 5, listingCache: cache });
    cache.save();
  };

  it.each([
    [3, 4],
    [3, 5],
    [2, 5],
  ])("a walk %i deep and one %i deep do not rewrite the file in turn", async (one, other) => {
    const root = project();
    await tick();
    const file = join(tempDir(), "tree.json");
    await walk(root, file, one);
    await walk(root, file, other);
    const kept = writtenAt(file);
    for (const depth of [one, other, one, other]) {
      await tick();
      await walk(root, file, depth);
      expect(writtenAt(file), `after a walk ${depth} deep`).toBe(kept);
    }
  });

  it("a removed folder still leaves the file, with the memos below it, even when the walk does not reach them", async () => {
    const root = project();
    await tick();
    const file = join(tempDir(), "tree.json");
    await walk(root, file, 5);
    const folders = () => Object.keys(JSON.parse(readFileSync(file, "utf8")).roots[root].folders);
    expect(folders().sort()).toEqual([
      "",
      "a",
      "a/b",
      "a/b/c",
      "a/b/c/d",
      "a/b/c/leaf2",
      "a/b/leaf",
    ]);
    rmSync(join(root, "a/b/c/d"), { recursive: true });
    await tick();
    await walk(root, file, 3);
    // a/b/c is listed again; a/b/leaf (not met: it has no subfolder) and
    // a/b/c/leaf2 (of the last level) stay, as their parents still name them.
    expect(folders().sort()).toEqual(["", "a", "a/b", "a/b/c", "a/b/c/leaf2", "a/b/leaf"]);
  });
});

describe("a prompt session over a tree whose shown folders come from the cache", () => {
  // A warm walk lists no folder: a shown folder's own lstat is all the
  // session notes of it, and has to be enough for it to render again.
  it.each([
    ["gains a file", (a: string) => writeFileSync(join(a, "new.txt"), "new\n")],
    [
      "has a file replaced by a folder",
      (a: string) => {
        rmSync(join(a, "x.txt"));
        mkdirSync(join(a, "x.txt"));
      },
    ],
    [
      "has a file replaced by a link",
      (a: string) => {
        rmSync(join(a, "x.txt"));
        symlinkSync("/etc/passwd", join(a, "x.txt"));
      },
    ],
    [
      "has a file renamed, its mtime then set back",
      (a: string) => {
        const before = statSync(a).mtime;
        renameSync(join(a, "x.txt"), join(a, "y.txt"));
        utimesSync(a, before, before);
      },
    ],
  ])("renders again when a shown folder %s", async (_what, change) => {
    const base = tempDir();
    const options = { ...pinned(base), workspaceTree: true };
    const a = join(base, "project/a");
    mkdirSync(join(a, "b"), { recursive: true });
    writeFileSync(join(a, "x.txt"), "x\n");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
    try {
      await renderSystemPrompt(options);
      const kept = JSON.parse(readFileSync(join(base, "agent/cache/sysprompt-tree.json"), "utf8"));
      // The shown folder's memo, with its other entries: the session's walks take it.
      expect(kept.roots[join(base, "project")].folders.a.slice(1)).toEqual([
        ["b"],
        "",
        [],
        ["fx.txt"],
      ]);
      const session = openPromptSession(options, Number.NEGATIVE_INFINITY);
      const first = await session.render();
      expect(first.result.text).toContain("x.txt");
      change(a);
      const second = await session.render();
      const fresh = await renderSystemPrompt(options);
      expect(second.result.text).toBe(fresh.text);
      expect(second.result.text).not.toBe(first.result.text);
      session.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
