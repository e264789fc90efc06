import { mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { MAX_LAYER_FOLDER_ENTRIES } from "../../src/sections/load.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// The layer step (a trusted project's .pi, .pi/sections, .pi/partials)
// took no deadline signal: past a 1 ms deadline the render returned and its
// three listings, each up to MAX_LAYER_FOLDER_ENTRIES entries, went on
// being read in the background. Every other step stops once its render
// has given up on it; so does this one.

/**
 * Folders whose entries were read from folder handles, one record an entry;
 * below `slow`, each entry costs 2 ms, as on a slow network mount (a batch of
 * 256 entries 0.5 s), so the listings outlast a 1 ms render on any machine;
 * at 20 µs an entry (40 ms a listing) they finished first in 1 run of 3.
 */
const read = vi.hoisted(() => ({ entries: [] as string[], slow: "\0" }));

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs, spin } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), {
    entry: (path) => {
      read.entries.push(path);
      if (path.startsWith(read.slow)) spin(2);
    },
  });
});

describe("hostile repository: the layer folders past the deadline", () => {
  it("are listed no further once the render has returned", async () => {
    const base = tempDir();
    const cwd = join(base, "repo");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    // Full folders, none of their entries read as a file: listing is all there is.
    for (const folder of ["sections", "partials"]) {
      bigFolder(join(cwd, ".pi", folder), MAX_LAYER_FOLDER_ENTRIES, { seeds: base });
    }
    const home = join(base, "home");
    const agentDir = join(base, "agent");
    mkdirSync(home);
    mkdirSync(agentDir);
    const layer = () => read.entries.filter((p) => relative(cwd, p).startsWith(".pi")).length;

    // The builtin step has no deadline: warmed up, it is not what the render waits for.
    await renderSystemPrompt({ cwd: home, home, agentDir });
    read.entries.length = 0;
    read.slow = join(cwd, ".pi");
    const r = await renderSystemPrompt({ cwd, home, agentDir, deadlineMs: 1 });
    expect(r.steps.find((s) => s.name === "project")?.status).toEqual("timeout");
    const atReturn = layer();
    // Long enough for a listing that kept going to read at least two more batches.
    await new Promise((done) => setTimeout(done, 1500));
    expect(layer()).toEqual(atReturn);
    // The listings stop at the deadline, not once the render is done waiting
    // on its other steps: no folder was listed whole (1001 entries read, to
    // find it too large) on the way. Before the fix, 1026 or 2002 were read.
    expect(atReturn).toBeLessThan(MAX_LAYER_FOLDER_ENTRIES);
  });
});
