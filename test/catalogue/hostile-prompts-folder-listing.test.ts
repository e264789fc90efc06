import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  loadPromptTemplatesSync,
  MAX_PROMPT_FOLDER_ENTRIES,
} from "../../src/prompt-templates/load.js";
import { tempDir } from "../api/_helpers.js";

// loadPromptTemplatesSync listed a prompts folder whole (readdirSync), and
// only then compared its length with MAX_PROMPT_FOLDER_ENTRIES: a trusted
// project's .pi/prompts of 100,000 entries was read to the last entry to be
// refused. It reads a batch at a time and stops past the cap, as the
// asynchronous load does.

/** Entries the file system gave for folders, however they were listed. */
const read = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const opendirSync = ((...args: Parameters<typeof fs.opendirSync>) => {
    const dir = fs.opendirSync(...args);
    const readSync = dir.readSync.bind(dir);
    dir.readSync = () => {
      const entry = readSync();
      if (entry) read.count++;
      return entry;
    };
    return dir;
  }) as typeof fs.opendirSync;
  const readdirSync = ((...args: Parameters<typeof fs.readdirSync>) => {
    const entries = fs.readdirSync(...args);
    read.count += entries.length;
    return entries;
  }) as typeof fs.readdirSync;
  const more = { opendirSync, readdirSync };
  return { ...fs, ...more, default: { ...fs, ...more } };
});

describe("hostile repository: a prompts folder of very many entries, loaded synchronously", () => {
  it("is listed no further than the cap, with a warning", () => {
    const base = tempDir();
    const cwd = join(base, "repo");
    const prompts = join(cwd, ".pi", "prompts");
    mkdirSync(prompts, { recursive: true });
    mkdirSync(join(cwd, ".git"));
    const seed = join(base, "seed");
    writeFileSync(seed, "");
    // Hard links to one file: quick to make, each one entry.
    for (let i = 0; i < 10 * MAX_PROMPT_FOLDER_ENTRIES; i++) linkSync(seed, join(prompts, `f${i}`));
    const home = join(base, "home");
    const agentDir = join(base, "agent");
    mkdirSync(home);
    mkdirSync(agentDir);

    read.count = 0;
    const r = loadPromptTemplatesSync({ cwd, home, agentDir });
    expect(read.count).toBeLessThanOrEqual(MAX_PROMPT_FOLDER_ENTRIES + 1);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["prompts-folder-too-large", prompts],
    ]);
  });
});
