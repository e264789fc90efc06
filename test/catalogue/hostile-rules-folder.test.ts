import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findRuleFiles,
  MAX_RULE_FILES_PER_FOLDER,
  MAX_RULE_FOLDER_ENTRIES,
} from "../../src/gather/rules/discover.js";
import { reachOf } from "../../src/repo-files/index.js";
import { tempDir } from "../api/_helpers.js";

// A rules folder of a million files (`.roo/rules`) was listed whole, sorted
// and answered with one refused candidate per file: 6.6 s and 845 MB at
// --deadline 1000. A folder is read a batch at a time and never past
// MAX_RULE_FOLDER_ENTRIES; one with more is refused whole, as one candidate.

const ROO = { rel: ".roo/rules", kind: "dir", recursive: true, match: () => true } as const;

describe("hostile repository: a rules folder of too many files", () => {
  it("past the entries read, the folder is one over-cap refusal, none of its files read", async () => {
    const root = tempDir();
    const dir = join(root, ".roo", "rules");
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i <= MAX_RULE_FOLDER_ENTRIES; i++) writeFileSync(join(dir, `r${i}.md`), "x\n");
    const found = await findRuleFiles(
      root,
      ROO,
      reachOf({
        start: root,
        realStart: root,
        found: root,
        realFound: root,
        home: "/nonexistent-home",
        realHome: "/nonexistent-home",
      }),
    );
    expect(found.map((c) => [c.path, c.refused?.status])).toEqual([[dir, "over-cap"]]);
  }, 60_000);

  it("under it, the first files by name are read and the rest refused one by one, as before", async () => {
    const root = tempDir();
    const dir = join(root, ".roo", "rules");
    mkdirSync(dir, { recursive: true });
    const count = MAX_RULE_FILES_PER_FOLDER + 5;
    for (let i = 0; i < count; i++)
      writeFileSync(join(dir, `r${String(i).padStart(4, "0")}.md`), "x\n");
    const found = await findRuleFiles(
      root,
      ROO,
      reachOf({
        start: root,
        realStart: root,
        found: root,
        realFound: root,
        home: "/nonexistent-home",
        realHome: "/nonexistent-home",
      }),
    );
    expect(found.filter((c) => c.refused === undefined)).toHaveLength(MAX_RULE_FILES_PER_FOLDER);
    expect(found.filter((c) => c.refused?.status === "over-cap").map((c) => c.rel)).toEqual([
      "r0200.md",
      "r0201.md",
      "r0202.md",
      "r0203.md",
      "r0204.md",
    ]);
  }, 60_000);
});
