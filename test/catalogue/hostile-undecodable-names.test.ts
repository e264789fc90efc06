import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAX_UNREADABLE_NAMED, walkSkillsRoot } from "../../src/skills/_walk.js";
import { tempDir } from "../api/_helpers.js";

// A name that is not UTF-8 comes out of a listing with U+FFFD and opens
// nothing; to say so (name-not-utf8) rather than "missing", its folder was
// listed again, whole, for every such name. A trusted project's .pi/skills of
// 5,000 folders named with a 0xff byte took sysprompt list 41 s and check
// 40 s (25 million entries listed), and a render lost every skill to the
// step's deadline; 10,000, the folder cap, would be four times that. A
// folder is now listed once for its names, and no further than a cap.

/** Entries read from folder listings, however they were listed. */
const read = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), {
    entry: () => read.count++,
    whole: (_, count) => {
      read.count += count;
    },
  });
});

vi.mock("node:fs/promises", async (importOriginal) => {
  const { spiedFsp } = await import("../_listing-fs.js");
  return spiedFsp(await importOriginal<typeof import("node:fs/promises")>(), (_, count) => {
    read.count += count;
  });
});

vi.setConfig({ testTimeout: 60_000 });

describe("hostile repository: many names that are not UTF-8 in one folder", () => {
  it("lists the folder once for them, not once a name", async () => {
    const root = join(tempDir(), "skills");
    mkdirSync(root, { recursive: true });
    const count = 400;
    for (let i = 0; i < count; i++) {
      mkdirSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xff]), Buffer.from(`${i}`)]));
    }

    read.count = 0;
    const { diagnostics } = await walkSkillsRoot(root);
    // The first names are named for what they are; the rest counted in one line (rev50b F8).
    expect(diagnostics.filter((d) => d.code === "name-not-utf8")).toHaveLength(
      MAX_UNREADABLE_NAMED,
    );
    expect(diagnostics.filter((d) => d.code === "skills-dir-unreadable")).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(new RegExp(`^${count - MAX_UNREADABLE_NAMED} more folders`)),
        path: root,
      }),
    ]);
    // The walk's own listing and one for the names, not one a name (160,000 entries).
    expect(read.count).toBeLessThanOrEqual(3 * count);
  });
});
