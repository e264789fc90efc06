import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAX_SCENARIO_ENTRIES } from "../../src/author/sandbox.js";
import { runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// snapshot lists its scenario folder (snapshots/, a repository's folder) to
// find the *.scenario.yaml files, and listed it whole: a folder of 300,000
// scenario-named files took sysprompt snapshot 7.8 s and 299 MB and printed
// 23 MB, one error a file, each saying the folder is too large to copy. No
// scenario of a folder that large can render (its copy holds 10,000 entries
// at most), so the listing stops where the copy's would.

/** Entries read from folder handles. */
const read = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), { entry: () => read.count++ });
});

vi.setConfig({ testTimeout: 60_000 });

describe("hostile repository: a scenario folder far over the copy's cap", () => {
  it("is listed no further than a copy could hold, and refused at once", async () => {
    const base = tempDir();
    const dir = join(base, "snapshots");
    // Past what a copy lists (20,003 entries), each a scenario's name.
    bigFolder(dir, 2 * MAX_SCENARIO_ENTRIES + 1_000, { name: (i) => `s${i}.scenario.yaml` });

    read.count = 0;
    const run = runSnapshots(dir, { sandboxDir: join(base, "cache") });
    await expect(run).rejects.toMatchObject({
      code: "bad-argument",
      message: expect.stringContaining("too many to copy"),
    });
    // The spy heard the listing (a count of 0 would pass the bound for nothing).
    expect(read.count).toBeGreaterThan(0);
    expect(read.count).toBeLessThanOrEqual(2 * MAX_SCENARIO_ENTRIES + 10);
  });
});
