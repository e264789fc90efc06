import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { skillWatchFolders } from "../../src/author/watch/_watch-folders.js";
import { MAX_SKILL_FOLDER_ENTRIES } from "../../src/skills/_walk.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// watch walks the skill roots for the folders to watch, on the repository
// walker, but without the caps and the deadline the skills walk has: a
// folder of a million entries under a root was listed whole, and a walk of
// 512 slow folders went on past the render's deadline. It lists no folder
// past the skills walk's cap (MAX_SKILL_FOLDER_ENTRIES) and stops at the
// deadline, each with a warning naming the folder.

/** Entries read from folder handles, and each handle's folder; below `slow`, a folder costs 3 ms. */
const read = vi.hoisted(() => ({ entries: 0, folders: [] as string[], slow: "\0" }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs, spin } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), {
    opened: (path) => {
      read.folders.push(path);
      // A folder the walk holds is listed by its descriptor (rev89h F1): slow too while `slow` is set.
      const held = read.slow !== "\0" && path.startsWith("/proc/self/fd/");
      if (held || path.startsWith(read.slow)) spin(3);
    },
    entry: () => read.entries++,
  });
});

describe("hostile repository: the folders watch walks under a skills root", () => {
  it("a folder of very many entries is listed no further than the skills walk's cap, with a warning naming it", async () => {
    const base = tempDir();
    const root = join(base, "skills");
    const big = join(root, "big");
    bigFolder(big, MAX_SKILL_FOLDER_ENTRIES + 100, { seeds: base });
    read.entries = 0;
    const watched = await skillWatchFolders([root]);
    // The root's one entry, then big's up to the one past the cap.
    expect(read.entries).toBeLessThanOrEqual(1 + MAX_SKILL_FOLDER_ENTRIES + 1);
    expect(watched.folders).toEqual([root, big]);
    expect(watched.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["watch-folder-too-large", big],
    ]);
  });

  it("stops listing at the deadline, with a warning naming the root", async () => {
    const base = tempDir();
    const root = join(base, "skills");
    for (let i = 0; i < 200; i++) mkdirSync(join(root, `d${i}`), { recursive: true });
    read.folders.length = 0;
    read.slow = root;
    const watched = await skillWatchFolders([root], 512, undefined, AbortSignal.timeout(150));
    read.slow = "\0";
    const atReturn = read.folders.length;
    // 201 folders at 3 ms each: 600 ms for a walk that does not stop.
    expect(atReturn).toBeGreaterThan(0);
    expect(atReturn).toBeLessThan(150);
    await new Promise((done) => setTimeout(done, 50));
    expect(read.folders.length).toEqual(atReturn);
    expect(watched.folders.length).toBeLessThan(150);
    expect(watched.diagnostics.map((d) => [d.code, d.path])).toEqual([["watch-deadline", root]]);
  });
});
