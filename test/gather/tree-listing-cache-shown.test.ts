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
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { openPromptSession } from "../../src/session/session.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The memos of the shown folders (format 3) against a cache file edited by
// hand: the stamps are the folders' own (anyone can stat them), the names are
// not what any listing gave. Whatever a memo says, the tree is the one a walk
// without the cache draws, and the walk enters no folder it would not enter.

// Every folder settled: the first walk keeps what it lists.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

interface Stored {
  roots: Record<string, { folders: Record<string, unknown[]> }>;
}

/** A project with files, a hidden file, a `node_modules` and a `.git` at the root; the cache file of its tree. */
function project() {
  const base = tempDir();
  const root = join(base, "project");
  mkdirSync(join(root, "src/lib"), { recursive: true });
  mkdirSync(join(root, "node_modules/pkg"), { recursive: true });
  mkdirSync(join(root, ".git/objects"), { recursive: true });
  writeFileSync(join(root, "README.md"), "read me\n");
  writeFileSync(join(root, ".env"), "SECRET=1\n");
  writeFileSync(join(root, "src/main.ts"), "main\n");
  writeFileSync(join(root, "src/lib/util.ts"), "util\n");
  writeFileSync(join(root, "node_modules/pkg/index.js"), "pkg\n");
  writeFileSync(join(root, ".git/objects/blob"), "blob\n");
  const location = { path: join(base, "cache/tree.json"), parents: true };
  return { root, location };
}

/** Rewrites the memo of folder `rel` of the cache file with `edit`. */
function editMemo(
  location: { path: string },
  root: string,
  rel: string,
  edit: (memo: unknown[]) => void,
) {
  const file = JSON.parse(readFileSync(location.path, "utf8")) as Stored;
  const memo = file.roots[root]?.folders[rel];
  if (!memo) throw new Error(`no memo of "${rel}" in the cache file`);
  edit(memo);
  writeFileSync(location.path, JSON.stringify(file));
}

describe("a hand-edited memo of a shown folder", () => {
  it.each([
    [
      "names a subfolder twice",
      (memo: unknown[]) => {
        (memo[1] as string[]).push(...(memo[1] as string[]));
      },
    ],
    [
      "names a file twice",
      (memo: unknown[]) => {
        (memo[4] as string[]).push((memo[4] as string[])[0] as string);
      },
    ],
    [
      "names a subfolder as a file as well",
      (memo: unknown[]) => {
        (memo[4] as string[]).push(`f${(memo[1] as string[])[0]}`);
      },
    ],
    [
      "names a hidden file",
      (memo: unknown[]) => {
        (memo[4] as string[]).push("f.env");
      },
    ],
    [
      "names node_modules as a subfolder",
      (memo: unknown[]) => {
        (memo[1] as string[]).push("node_modules");
      },
    ],
    [
      "names .git as a subfolder",
      (memo: unknown[]) => {
        (memo[1] as string[]).push(".git");
      },
    ],
    [
      "says it holds an AGENTS.md it does not",
      (memo: unknown[]) => {
        memo[2] = ["fAGENTS.md"];
      },
    ],
  ])("that %s leaves the tree as a walk without the cache draws it", async (_what, edit) => {
    const { root, location } = project();
    const plain = await buildWorkspaceTree(root);
    expect(plain.rendered).not.toContain("node_modules");
    expect(plain.rendered).not.toContain(".env");
    await buildWorkspaceTree(root, { cache: location });
    editMemo(location, root, "", edit);
    editMemo(location, root, "src", edit);
    const warm = await buildWorkspaceTree(root, { cache: location });
    expect(warm).toEqual(plain);
  });

  it("that names each subfolder a thousand times, on every shown level, does not make the walk multiply", async () => {
    const { root, location } = project();
    mkdirSync(join(root, "src/lib/deep/deeper"), { recursive: true });
    const plain = await buildWorkspaceTree(root, { maxDepth: 4 });
    await buildWorkspaceTree(root, { maxDepth: 4, cache: location });
    for (const rel of ["", "src", "src/lib"]) {
      editMemo(location, root, rel, (memo) => {
        const dirs = memo[1] as string[];
        memo[1] = Array.from({ length: 1000 }, () => dirs).flat();
      });
    }
    const started = performance.now();
    const warm = await buildWorkspaceTree(root, { maxDepth: 4, cache: location });
    expect(warm).toEqual(plain);
    // Once per folder: a thousand times a thousand lstats are many seconds.
    expect(performance.now() - started).toBeLessThan(2000);
  }, 30_000);
});

describe("names that are not UTF-8 in a shown folder", () => {
  // Node decodes a name that is not UTF-8 with U+FFFD for each bad byte, so
  // two such names can come out of one listing as the same string.
  it("two that decode alike leave the tree as without the cache (both left out), and the file is written once", async () => {
    const { root, location } = project();
    for (const byte of [0xfe, 0xff]) {
      writeFileSync(Buffer.concat([Buffer.from(`${root}/odd`), Buffer.from([byte])]), "x\n");
    }
    const plain = await buildWorkspaceTree(root);
    // Left out: no ignore verdict on such a name is git's (rev51a F5).
    expect(plain.rendered).not.toContain("odd");
    expect(plain.rendered).not.toBe("");
    await buildWorkspaceTree(root, { cache: location });
    const written = statSync(location.path).mtimeMs;
    await new Promise((done) => setTimeout(done, 20));
    const warm = await buildWorkspaceTree(root, { cache: location });
    expect(warm).toEqual(plain);
    expect(statSync(location.path).mtimeMs).toBe(written);
  });
});

describe("a prompt session over shown folders taken from the cache", () => {
  // A warm walk lists no shown folder: their lstats are all the session notes of them.
  it.each([
    ["the root gains a file", (p: string) => writeFileSync(join(p, "NEW.md"), "new\n")],
    ["a shown subfolder gains a file", (p: string) => writeFileSync(join(p, "src/new.ts"), "n\n")],
    [
      "a shown file is replaced by a folder",
      (p: string) => {
        rmSync(join(p, "src/main.ts"));
        mkdirSync(join(p, "src/main.ts"));
      },
    ],
    [
      "a shown subfolder is replaced by a link",
      (p: string) => {
        renameSync(join(p, "src/lib"), join(p, "moved"));
        symlinkSync(join(p, "moved"), join(p, "src/lib"));
      },
    ],
    [
      "a shown file is replaced by a link",
      (p: string) => {
        rmSync(join(p, "src/main.ts"));
        symlinkSync(join(p, "src/lib/util.ts"), join(p, "src/main.ts"));
      },
    ],
    [
      "a shown file is renamed and its folder's mtime set back",
      (p: string) => {
        const before = statSync(join(p, "src")).mtime;
        renameSync(join(p, "src/main.ts"), join(p, "src/entry.ts"));
        utimesSync(join(p, "src"), before, before);
      },
    ],
  ])("renders again when %s", async (_what, change) => {
    const base = tempDir();
    const options = { ...pinned(base), workspaceTree: true };
    const p = join(base, "project");
    mkdirSync(join(p, "src/lib"), { recursive: true });
    writeFileSync(join(p, "src/main.ts"), "main\n");
    writeFileSync(join(p, "src/lib/util.ts"), "util\n");
    await renderSystemPrompt(options);
    // The render kept every shown folder with its other entries: the session's renders list none.
    const kept = JSON.parse(
      readFileSync(join(base, "agent/cache/sysprompt-tree.json"), "utf8"),
    ) as Stored;
    const folders = kept.roots[p]?.folders ?? {};
    expect(Object.keys(folders).sort()).toEqual(["", "src", "src/lib"]);
    expect(Object.values(folders).map((memo) => memo.length)).toEqual([5, 5, 5]);
    const session = openPromptSession(options, Number.NEGATIVE_INFINITY);
    const first = await session.render();
    change(p);
    const second = await session.render();
    const fresh = await renderSystemPrompt(options);
    session.close();
    expect(second.result.text).toBe(fresh.text);
    expect(second.result.text).not.toBe(first.result.text);
  });
});

describe("walks of two depths over one cache", () => {
  // A folder of the third level with files but no subfolder is listed by a
  // walk four deep (it is shown) and only asked for an AGENTS.md by one three
  // deep (its link count says it has no subfolder): its memo is not met then.
  it("do not rewrite the file in turn, and a folder removed still leaves it", async () => {
    const base = tempDir();
    const root = join(base, "project");
    mkdirSync(join(root, "a/b/leaf"), { recursive: true });
    mkdirSync(join(root, "a/b/c/d"), { recursive: true });
    writeFileSync(join(root, "a/b/leaf/file.txt"), "x\n");
    const location = { path: join(base, "cache/tree.json"), parents: true };
    const writes: number[] = [];
    for (const maxDepth of [3, 4, 3, 4, 3, 4]) {
      const warm = await buildWorkspaceTree(root, { maxDepth, cache: location });
      expect(warm).toEqual(await buildWorkspaceTree(root, { maxDepth }));
      writes.push(statSync(location.path).mtimeMs);
      await new Promise((done) => setTimeout(done, 5));
    }
    // Written by the first walk of each depth, then by none.
    expect(new Set(writes.slice(1)).size).toBe(1);
    const keptRels = () =>
      Object.keys(
        (JSON.parse(readFileSync(location.path, "utf8")) as Stored).roots[root]?.folders ?? {},
      ).sort();
    expect(keptRels()).toContain("a/b/leaf");
    rmSync(join(root, "a/b/leaf"), { recursive: true });
    await buildWorkspaceTree(root, { maxDepth: 3, cache: location });
    expect(keptRels()).toEqual(["", "a", "a/b", "a/b/c"]);
  });
});
