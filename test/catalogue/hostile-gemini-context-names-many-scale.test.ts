import { describe, expect, it } from "vitest";
import { geminiContextNames, MAX_GEMINI_NAMES } from "../../src/gather/rules/gemini-settings.js";
import { NO_DEADLINE, projectReach } from "../../src/repo-files/index.js";
import { writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";
import { geminiProject } from "./_gemini.js";

// Review rev108b F3 (high): a project's `.gemini/settings.json` whose `context.fileName` lists
// some 131,000 distinct names (within the settings file's shape limits) cost 13.4 s of CPU a
// render and 14.7 s a Gemini CLI hook call: each name was looked for among all those kept before
// it, and only then were the first 16 taken. Now the names are deduplicated through a set and
// only the first 16 distinct ones are kept; the rest are counted for the warning.

/** Above 3x the CPU of reading the 131,000 names once fixed (~210 ms here; 1 ms for 17 names), far below the 13 s it took. */
const BOUND_MS = 1000;

const names = (n: number) => Array.from({ length: n }, (_, i) => i.toString(36));
const settings = (list: string[]) => JSON.stringify({ context: { fileName: list } });

describe("hostile repository: context.fileName of 131,000 names", () => {
  it("is read in bounded time, the first 16 distinct names kept and the rest counted", async () => {
    const p = geminiProject({ "p/.gemini/settings.json": settings(names(MAX_GEMINI_NAMES + 1)) });
    const reach = await projectReach({
      start: p.cwd,
      home: p.where.home,
      trusted: false,
      signal: NO_DEADLINE,
    });
    await geminiContextNames(p.cwd, reach);
    const idle = await cpuTimed(() => geminiContextNames(p.cwd, reach));
    // Repeated names count once.
    writeFiles(p.cwd, {
      ".gemini/settings.json": settings([...names(131_000), "0", "1"]),
    });
    const { cpuMs, wallMs, value } = await cpuTimed(() => geminiContextNames(p.cwd, reach));
    expect(value.names).toEqual(names(MAX_GEMINI_NAMES));
    expect(value.diagnostics.map((d) => d.message)).toEqual([
      "context.fileName lists 131000 names; the first 16 are read",
    ]);
    expect(cpuMs, `CPU time (${wallMs} ms on the clock; ${idle.cpuMs} ms idle)`).toBeLessThan(
      BOUND_MS,
    );
  }, 120_000);

  it("keeps the first of repeated names once, in order", async () => {
    const p = geminiProject({
      "p/.gemini/settings.json": settings(["TEAM.md", "AGENTS.md", "TEAM.md", "GEMINI.md"]),
    });
    const reach = await projectReach({
      start: p.cwd,
      home: p.where.home,
      trusted: false,
      signal: NO_DEADLINE,
    });
    expect(await geminiContextNames(p.cwd, reach)).toEqual({
      names: ["TEAM.md", "AGENTS.md", "GEMINI.md"],
      diagnostics: [],
    });
  });
});
