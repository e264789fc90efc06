import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  loadPromptTemplatesSync,
  MAX_PROMPT_FOLDER_ENTRIES,
} from "../../src/prompt-templates/load.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";

// loadPromptTemplatesSync listed a prompts folder whole (readdirSync), and
// only then compared its length with MAX_PROMPT_FOLDER_ENTRIES: a trusted
// project's .pi/prompts of 100,000 entries was read to the last entry to be
// refused. It reads a batch at a time and stops past the cap, as the
// asynchronous load does.

/** Entries the file system gave for folders, however they were listed. */
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

describe("hostile repository: a prompts folder of very many entries, loaded synchronously", () => {
  it("is listed no further than the cap, with a warning", () => {
    const base = tempDir();
    const cwd = join(base, "repo");
    const prompts = join(cwd, ".pi", "prompts");
    mkdirSync(prompts, { recursive: true });
    mkdirSync(join(cwd, ".git"));
    bigFolder(prompts, 10 * MAX_PROMPT_FOLDER_ENTRIES, { seeds: base });
    const home = join(base, "home");
    const agentDir = join(base, "agent");
    mkdirSync(home);
    mkdirSync(agentDir);

    read.count = 0;
    const r = loadPromptTemplatesSync({ cwd, home, agentDir });
    // The spy heard the listing (a count of 0 would pass the bound for nothing).
    expect(read.count).toBeGreaterThan(0);
    expect(read.count).toBeLessThanOrEqual(MAX_PROMPT_FOLDER_ENTRIES + 1);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["prompts-folder-too-large", prompts],
    ]);
  });
});
