import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  type ListingCache,
  MAX_LISTING_CACHE_BYTES,
  openListingCache,
} from "../../src/gather/tree/_listing-cache.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { buildWorkspaceTrees } from "../../src/gather/tree/workspace.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { openPromptSession } from "../../src/session/session.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The listing cache attacked by the repository it lists: names a folder can
// hold but a memo might not, links where a memo says folders, and listings too
// large for the file.

/** Folders listed (readdirSync), by path; `onList` hears each before it is listed. */
const listed = vi.hoisted(() => ({
  paths: [] as string[],
  onList: undefined as ((path: string) => void) | undefined,
}));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
    // A folder checked by lstat is listed through its descriptor (/proc/self/fd/N): by the path it names.
    const at = String(args[0]);
    const path = at.startsWith("/proc/self/fd/") ? fs.readlinkSync(at) : at;
    listed.paths.push(path);
    listed.onList?.(path);
    return fs.readdirSync(...args);
  }) as typeof fs.readdirSync;
  return { ...fs, default: { ...fs, readdirSync }, readdirSync };
});

function cacheIn(file: string): ListingCache {
  return openListingCache({ path: file, parents: true }, { settleMs: 0 });
}

async function walk(root: string, cache?: ListingCache, listDepth = 3) {
  listed.paths.length = 0;
  const listing = await walkTree(root, {
    listDepth,
    agentsDepth: 5,
    ...(cache ? { listingCache: cache } : {}),
  });
  cache?.save();
  return { agentsMd: [...listing.agentsMd].sort(), listed: [...listed.paths] };
}

/**
 * Lets the clock pass the folders just made: with a settle time of 0 a
 * folder changed within the current millisecond (its ctime has a fraction
 * past Date.now()) is still not kept, and a later walk keeping it rewrites the file.
 */
const tick = () => new Promise((done) => setTimeout(done, 5));

/** The cache file's mtime, or undefined when there is none. */
function writtenAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

describe("a repository's names in the listing cache", () => {
  // On POSIX a backslash, a line break or any byte but NUL and "/" can be
  // part of a name; a memo that refuses such a name is a miss on every walk,
  // and every render rewrites the file with the same listing.
  it.each([
    ["a backslash", "back\\slash"],
    ["a line break", "line\nbreak"],
    ["a control character", "bell\u0007"],
    ["a name that is 255 bytes long", "n".repeat(255)],
  ])(
    "a folder holding a subfolder named with %s is taken from the cache on the next walk, and the file is not rewritten",
    async (_what, name) => {
      const root = join(tempDir(), "project");
      mkdirSync(join(root, "a/b/c", name), { recursive: true });
      mkdirSync(join(root, "a/b/c/plain"));
      writeFileSync(join(root, "a/b/c", name, "AGENTS.md"), "odd\n");
      await tick();
      const file = join(tempDir(), "tree.json");
      const plain = await walk(root);
      const first = await walk(root, cacheIn(file));
      const kept = writtenAt(file);
      await new Promise((done) => setTimeout(done, 20));
      const second = await walk(root, cacheIn(file));
      expect(plain.agentsMd).toEqual([`a/b/c/${name}/AGENTS.md`]);
      expect(first.agentsMd).toEqual(plain.agentsMd);
      expect(second.agentsMd).toEqual(plain.agentsMd);
      expect(second.listed.filter((p) => p.startsWith(join(root, "a/b/c")))).toEqual([]);
      expect(writtenAt(file)).toBe(kept);
    },
  );
});

describe("links where the cache says folders", () => {
  // A memo names the subfolders a listing found; should one name a link (a
  // cache file edited by hand, or a folder swapped for a link between its
  // parent's listing and its own), the walk must still never list through it.
  // (A folder of the last level, only asked for an AGENTS.md, is not
  // checked: see the walk. A link a hand-edited file names there costs the
  // path of the AGENTS.md behind it, never opened.)
  it.each([
    // Shown two levels deep: a/b is below them, and its subfolders are listed in turn.
    ["listed", 2, "a/b"],
  ])(
    "a subfolder that is a link is not %s, whatever the memo of its parent says",
    async (_what, listDepth, parent) => {
      const root = join(tempDir(), "project");
      const outside = join(tempDir(), "outside");
      mkdirSync(join(outside, "sub"), { recursive: true });
      writeFileSync(join(outside, "AGENTS.md"), "not in the project\n");
      writeFileSync(join(outside, "sub/AGENTS.md"), "not in the project\n");
      mkdirSync(join(root, parent, "real"), { recursive: true });
      symlinkSync(outside, join(root, parent, "link"));
      await tick();
      const file = join(tempDir(), "tree.json");
      const plain = await walk(root, undefined, listDepth);
      await walk(root, cacheIn(file), listDepth);
      const stored = JSON.parse(readFileSync(file, "utf8"));
      expect(stored.roots[root].folders[parent][1]).toEqual(["real"]);
      stored.roots[root].folders[parent][1].push("link");
      writeFileSync(file, JSON.stringify(stored));
      const forged = await walk(root, cacheIn(file), listDepth);
      expect(plain.agentsMd).toEqual([]);
      expect(forged.agentsMd).toEqual([]);
      expect(forged.listed).not.toContain(join(root, parent, "link"));
    },
  );
});

describe("a listing cache larger than its file may be", () => {
  /** The stat of a settled folder numbered `i`, as the cache reads it. */
  const statOf = (i: number) =>
    ({ dev: 1, ino: i, mtimeMs: 0, ctimeMs: 0, size: 4096, nlink: 3 }) as Stats;
  // Fifty folders of a thousand subfolders named with 100 "ü" each: 5 M
  // characters, but 10 MB once written as UTF-8, over the 8 MB the reader takes.
  const FOLDERS = 50;
  const memo = (i: number) => ({
    dirs: Array.from({ length: 1000 }, (_, j) => `${"ü".repeat(96)}${i}-${j}`),
    context: [],
    ignoreFiles: [],
  });
  // Over four roots: one root keeps no more than a quarter of the file (MAX_ROOT_LISTING_BYTES).
  const putAll = (cache: ListingCache) => {
    for (let i = 0; i < FOLDERS; i++) {
      const root = `/r${i % 4}`;
      if (!cache.get(root, `f${i}`, statOf(i), false)) cache.put(root, `f${i}`, statOf(i), memo(i));
    }
    cache.save();
  };

  it("keeps the folders that fit, in a file the next walk reads, and the next walks rewrite nothing", async () => {
    const file = join(tempDir(), "tree.json");
    putAll(cacheIn(file));
    const bytes = statSync(file).size;
    expect(bytes).toBeLessThanOrEqual(MAX_LISTING_CACHE_BYTES);
    expect(bytes).toBeGreaterThan(MAX_LISTING_CACHE_BYTES / 2);
    const next = cacheIn(file);
    expect(next.get("/r0", "f0", statOf(0), false)).toEqual(memo(0));
    const kept = writtenAt(file);
    await new Promise((done) => setTimeout(done, 20));
    putAll(cacheIn(file));
    expect(writtenAt(file)).toBe(kept);
  });
});

describe("a listing cache of many empty folders", () => {
  // A folder with no subfolder, context or ignore file (every leaf of a tree)
  // was weighed three bytes short (its three empty lists' brackets): 400,000
  // of them came to more than the reader takes, so the file, which must
  // never be, was not written at all, on every walk.
  it("is weighed at no less than it takes: the file is written and read back", () => {
    const file = join(tempDir(), "tree.json");
    const statOf = (i: number) =>
      ({ dev: 1, ino: i, mtimeMs: 0, ctimeMs: 0, size: 4096, nlink: 2 }) as Stats;
    const empty = { dirs: [], context: [], ignoreFiles: [] };
    let cache = cacheIn(file);
    // Eight roots of 50,000 empty folders (the folder cap of one root): more than the file has room for.
    for (let r = 0; r < 8; r++) {
      for (let i = 0; i < 50_000; i++) cache.put(`/r${r}`, `f${i}`, statOf(r * 50_000 + i), empty);
    }
    cache.save();
    const bytes = statSync(file).size;
    expect(bytes).toBeLessThanOrEqual(MAX_LISTING_CACHE_BYTES);
    expect(bytes).toBeGreaterThan(MAX_LISTING_CACHE_BYTES * 0.99);
    cache = cacheIn(file);
    expect(cache.get("/r0", "f0", statOf(0), false)).toEqual(empty);
  });
});

describe("the pattern budget read level by level", () => {
  // Ignore files take the walk's 10,000 patterns in the order they are read;
  // the walk reads them level by level so that a shallower one always comes
  // first, and its patterns govern more of the tree. The folders four deep
  // are only looked into for an AGENTS.md, and their ignore files were read
  // as their parent was listed: before the ignore files of that parent's
  // later siblings, one level up.
  it("the ignore files of the folders four deep take no pattern before those three deep", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, "a/b/p"), { recursive: true });
    mkdirSync(join(root, "a/b/q"));
    // The one the file system lists first holds the heavy files; the other one the shallower ignore file.
    const [heavy, light] = readdirSync(join(root, "a/b")) as [string, string];
    const patterns = `${Array.from({ length: 2000 }, (_, i) => `p${i}`).join("\n")}\n`;
    for (let i = 0; i < 5; i++) {
      mkdirSync(join(root, "a/b", heavy, `d${i}`));
      writeFileSync(join(root, "a/b", heavy, `d${i}/.gitignore`), patterns);
      writeFileSync(join(root, "a/b", heavy, `d${i}/AGENTS.md`), "heavy\n");
    }
    mkdirSync(join(root, "a/b", light, "hidden"));
    writeFileSync(join(root, "a/b", light, ".gitignore"), "hidden/\n");
    writeFileSync(join(root, "a/b", light, "hidden/AGENTS.md"), "ignored\n");
    const listing = await walkTree(root, { listDepth: 3, agentsDepth: 5 });
    expect([...listing.agentsMd].sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `a/b/${heavy}/d${i}/AGENTS.md`),
    );
    // The heavy files are read in their folder's order: the last one read loses a pattern.
    const last = readdirSync(join(root, "a/b", heavy)).at(-1) as string;
    expect(listing.ignoreCuts.map((c) => [c.path, c.kept])).toEqual([
      [join(root, "a/b", heavy, last, ".gitignore"), 1999],
    ]);
  });
});

describe("a walk the deadline cuts short", () => {
  /** Ten folders below the shown levels, a/b/c0 … a/b/c9, each with a subfolder. */
  function project(): string {
    const root = join(tempDir(), "project");
    for (let i = 0; i < 10; i++) mkdirSync(join(root, `a/b/c${i}/d`), { recursive: true });
    return root;
  }
  const below = (root: string) => (path: string) => /\/a\/b\/c\d$/.test(path.slice(root.length));
  /** The folders below the shown levels that the cache file in `file` keeps (the shown ones are kept too). */
  const keptBelow = (file: string, root: string) =>
    Object.keys(JSON.parse(readFileSync(file, "utf8")).roots[root].folders).filter((rel) =>
      /^a\/b\/c\d$/.test(rel),
    );

  /** Walks `root` with the cache in `file`, aborted as the `n`th folder below the shown levels is listed. */
  async function cutShort(
    build: (signal: AbortSignal) => Promise<unknown>,
    root: string,
    n: number,
  ): Promise<void> {
    const abort = new AbortController();
    let count = 0;
    listed.onList = (path) => {
      if (below(root)(path) && ++count === n) abort.abort(new Error("deadline"));
    };
    try {
      await expect(build(abort.signal)).rejects.toThrow("deadline");
    } finally {
      listed.onList = undefined;
    }
  }

  // A tree too large for the deadline is the one the cache is for: a walk
  // that is never saved, because it never ends, would list every folder
  // again on every render and never end either.
  it.each([
    ["buildWorkspaceTree", (root: string, options: object) => buildWorkspaceTree(root, options)],
    [
      "buildWorkspaceTrees",
      (root: string, options: object) => buildWorkspaceTrees(root, [], options),
    ],
  ])(
    "%s keeps what it listed before the deadline, and the next walk lists only the rest",
    async (_name, build) => {
      const root = project();
      const file = join(tempDir(), "tree.json");
      // A file system's clock: every folder settled.
      const cache = { path: file, parents: true };
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
      try {
        await cutShort((signal) => build(root, { cache, signal }), root, 4);
        const kept = keptBelow(file, root);
        expect(kept.length).toBeGreaterThanOrEqual(3);
        listed.paths.length = 0;
        await build(root, { cache });
        expect(listed.paths.filter(below(root))).toHaveLength(10 - kept.length);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it("a walk cut short drops nothing it did not reach from the file", async () => {
    const root = project();
    const file = join(tempDir(), "tree.json");
    const cache = { path: file, parents: true };
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
    try {
      await buildWorkspaceTree(root, { cache });
      const before = keptBelow(file, root);
      expect(before).toHaveLength(10);
      // Every folder changed: the first listed is the last.
      for (let i = 0; i < 10; i++) mkdirSync(join(root, `a/b/c${i}/n`));
      vi.setSystemTime(Date.now() + 10_000);
      await cutShort((signal) => buildWorkspaceTree(root, { cache, signal }), root, 1);
      expect(keptBelow(file, root).sort()).toEqual([...before].sort());
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("walks of other depths over one cache", () => {
  // The CLI with --tree 2 and an agent with the default 3 over the same
  // repository: a folder below one's shown levels is shown by the other.
  it("do not rewrite the file in turn", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, "a/b/c/d/e"), { recursive: true });
    mkdirSync(join(root, "a/b/f/g"), { recursive: true });
    await tick();
    const file = join(tempDir(), "tree.json");
    await walk(root, cacheIn(file), 2);
    await walk(root, cacheIn(file), 3);
    const kept = writtenAt(file);
    for (const depth of [2, 3, 2, 3]) {
      await new Promise((done) => setTimeout(done, 20));
      await walk(root, cacheIn(file), depth);
      expect(writtenAt(file), `after a walk ${depth} deep`).toBe(kept);
    }
  });
});

describe("a prompt session over a cached tree", () => {
  // The session re-walks the tree only when a stat it noted changed; a folder
  // taken from the cache was never listed, so its own stat is all there is.
  it.each([
    [
      "gains a subfolder with an AGENTS.md",
      (c: string) => {
        mkdirSync(join(c, "n"));
        writeFileSync(join(c, "n/AGENTS.md"), "new\n");
      },
    ],
    ["has a subfolder renamed", (c: string) => renameSync(join(c, "d"), join(c, "m"))],
  ])("re-walks it when a cached folder %s", async (_what, change) => {
    const base = tempDir();
    const options = { ...pinned(base), workspaceTree: true };
    const c = join(base, "project/a/b/c");
    mkdirSync(join(c, "d"), { recursive: true });
    writeFileSync(join(c, "d/AGENTS.md"), "deep\n");
    // Every folder settled, so the first render keeps its listing.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
    try {
      await renderSystemPrompt(options);
      const kept = JSON.parse(readFileSync(join(base, "agent/cache/sysprompt-tree.json"), "utf8"));
      // The shown folders' listings are kept too (with their other entries).
      expect(Object.keys(kept.roots[join(base, "project")].folders).sort()).toEqual([
        "",
        "a",
        "a/b",
        "a/b/c",
      ]);
      const session = openPromptSession(options, Number.NEGATIVE_INFINITY);
      listed.paths.length = 0;
      const first = await session.render();
      // Taken from the cache: the session noted its stat, not a listing.
      expect(listed.paths).not.toContain(c);
      change(c);
      const second = await session.render();
      expect(listed.paths).toContain(c);
      const fresh = await renderSystemPrompt(options);
      expect(second.result.text).toBe(fresh.text);
      expect(second.result.text).not.toBe(first.result.text);
      session.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the cache file", () => {
  it("is private to the user, in a folder of the user's, and a folder whose mtime is set back is still listed again", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, "a/b/c/d"), { recursive: true });
    await tick();
    const file = join(tempDir(), "made", "tree.json");
    await walk(root, cacheIn(file));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, "..")).mode & 0o777).toBe(0o700);
    // `touch -d` puts the mtime back; the ctime, which no program sets, still moves.
    const before = statSync(join(root, "a/b/c"));
    mkdirSync(join(root, "a/b/c/n"));
    writeFileSync(join(root, "a/b/c/n/AGENTS.md"), "new\n");
    utimesSync(join(root, "a/b/c"), before.atime, before.mtime);
    expect((await walk(root, cacheIn(file))).agentsMd).toEqual(["a/b/c/n/AGENTS.md"]);
  });
});
