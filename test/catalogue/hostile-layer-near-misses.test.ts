import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_NEAR_MISS_ENTRIES, nearMissesInFolder } from "../../src/locate/near-misses.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// A layer folder (.pi) is listed whole for near-miss hints (a `section/`
// folder, a `system.md`): a trusted project's .pi of a million entries took
// render --deadline 1000 to 2.8 s and `list` 8.8 s and 326 MB. A layer
// folder of more than MAX_NEAR_MISS_ENTRIES entries gives no hints: it is
// no layer anyone wrote by hand.

describe("hostile repository: a .pi folder of very many entries", () => {
  it("is not listed for hints past the cap", async () => {
    const base = tempDir();
    const pi = join(base, "repo", ".pi");
    mkdirSync(join(pi, "section"), { recursive: true });
    bigFolder(pi, MAX_NEAR_MISS_ENTRIES + 50, { seeds: base });
    expect(await nearMissesInFolder(pi, { customFiles: true })).toEqual([]);
  }, 60_000);

  it("still gives its hints under the cap", async () => {
    const pi = join(tempDir(), "repo", ".pi");
    mkdirSync(join(pi, "section"), { recursive: true });
    const hints = await nearMissesInFolder(pi, { customFiles: true });
    expect(hints.map((d) => d.path)).toEqual([join(pi, "section")]);
  });
});
