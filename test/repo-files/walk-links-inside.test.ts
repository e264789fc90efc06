import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type WalkSkip, walkFolders } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// The walker's `links: "inside"`: links are followed, but only to a folder
// whose real path stays inside the root's, so a link out of the root (to `/`,
// to another project) is never listed; link loops end as with `follow`, and
// a shared `seen` walks roots nested in one another once.

async function walk(
  root: string,
  links: "follow" | "inside",
  seen?: Set<string>,
  within?: (path: string, real: string) => boolean,
): Promise<{ rels: string[]; skipped: string[] }> {
  const rels: string[] = [];
  const skipped: string[] = [];
  await walkFolders(root, undefined, {
    order: "breadth-first",
    links,
    ...(seen ? { seen } : {}),
    ...(within ? { within } : {}),
    onSkipped: (_path, rel, why: WalkSkip) => skipped.push(`${rel} ${why}`),
    visit: function* (folder) {
      rels.push(folder.rel);
      for (const e of folder.entries) {
        if (e.isDirectory() || e.isSymbolicLink()) yield { name: e.name, state: undefined };
      }
    },
  });
  return { rels, skipped };
}

function tree(): { root: string; outside: string } {
  const base = tempDir();
  const root = join(base, "root");
  const outside = join(base, "outside");
  mkdirSync(join(outside, "secret"), { recursive: true });
  mkdirSync(join(root, "a", "b"), { recursive: true });
  symlinkSync(outside, join(root, "out"));
  symlinkSync(join(root, "a", "b"), join(root, "short"));
  symlinkSync(root, join(root, "a", "b", "loop"));
  return { root, outside };
}

describe("walkFolders with links inside the root", () => {
  it("follows a link that stays inside, never one that leaves, and ends a loop", async () => {
    const { root } = tree();
    expect(await walk(root, "inside")).toEqual({
      rels: ["", "a", "short"],
      skipped: ["out outside", "a/b walked", "short/loop walked"],
    });
  });

  it("`follow` still enters the link out (what skills do)", async () => {
    const { root } = tree();
    const { rels } = await walk(root, "follow");
    expect(rels).toContain("out/secret");
  });

  it("a root that is itself a link is confined to its own real path", async () => {
    const { root, outside } = tree();
    symlinkSync(root, join(outside, "to-root"));
    const { rels, skipped } = await walk(join(outside, "to-root"), "inside");
    expect(rels).toEqual(["", "a", "short"]);
    expect(skipped).toContain("out outside");
  });

  it("a shared seen walks a root nested in an earlier one's folders once", async () => {
    const { root } = tree();
    const seen = new Set<string>();
    await walk(root, "inside", seen);
    expect(await walk(join(root, "a"), "inside", seen)).toEqual({
      rels: [],
      skipped: [" walked"],
    });
  });

  it("`within` bounds the links by its own rule, the root included (a project's skills walk)", async () => {
    const { root, outside } = tree();
    const base = join(root, "..");
    // Bounded by the folder above the root: the link out (a sibling of the root) is inside it.
    const wide = await walk(root, "inside", undefined, (_p, real) => real.startsWith(base));
    expect(wide.rels).toContain("out/secret");
    // Bounded away from `outside`: the link to it is not entered, the rest is walked.
    const narrow = await walk(root, "inside", undefined, (_p, real) => !real.startsWith(outside));
    expect(narrow).toEqual({
      rels: ["", "a", "short"],
      skipped: ["out outside", "a/b walked", "short/loop walked"],
    });
    // A root the rule refuses is not listed at all.
    expect(await walk(root, "inside", undefined, () => false)).toEqual({
      rels: [],
      skipped: [" outside"],
    });
  });
});
