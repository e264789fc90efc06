import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAX_SCENARIO_ENTRIES, makeSandbox } from "../../src/author/sandbox.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// explain --simulate and snapshot copy a folder first, and stop at 10,000
// entries. But each folder was listed whole before its entries were
// counted: a project folder of a million files took explain --simulate
// 11.8 s and 198 MB (7.5 s and 89 MB with 10,050), with no deadline heard,
// before it said the project was too large. A folder's listing now stops
// where no copy could hold more: the copied entries, the ignored folders
// and the few never copied.

/** Entries read from folder handles. */
const read = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), { entry: () => read.count++ });
});

vi.setConfig({ testTimeout: 60_000 });

describe("hostile repository: a folder far over the copy's cap", () => {
  it("is listed no further than a copy could hold, and refused", async () => {
    const base = tempDir();
    const many = join(base, "project", "many");
    const count = 3 * MAX_SCENARIO_ENTRIES;
    bigFolder(many, count, { seeds: base });

    read.count = 0;
    const { sandbox, problems } = await makeSandbox(join(base, "project"), join(base, "cache"));
    expect(sandbox).toBeUndefined();
    expect(problems.length).toBeGreaterThan(0);
    // The spy heard the listing (a count of 0 would pass the bound for nothing).
    expect(read.count).toBeGreaterThan(0);
    expect(read.count).toBeLessThan(count);
    expect(read.count).toBeLessThanOrEqual(2 * MAX_SCENARIO_ENTRIES + 10);
  });
});
