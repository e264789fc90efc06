import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutTree } from "../../src/gather/tree/_tree-layout.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { renderSystemPrompt } from "../../src/index.js";
import { bigFolder } from "../_big-folder.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// A folder of more than 1,000 entries is listed by name, and its whole listing
// was sorted with compareNames, one call a character pair, in one synchronous
// stretch no deadline could stop: two folders of 200,000 names sharing 248
// characters held `render --tree` 11.8-15.7 s at the default 5 s deadline
// (review rev60b F3). Now each name is folded once into a key compared
// natively, the names shown are picked in one pass, and the pass hears the
// deadline between slices. Two folders of 50,000 such names stand for it here:
// at a load of 13-20, the old layout took 7.8-11 s (now ~0.2 s) and the
// render at `deadlineMs: 2000` 5.8 s (now 2.0 s).

const PREFIX = "x".repeat(248);
const COUNT = 50_000;
const MTIME = "2026-01-01T00:00:00Z";
/** Past the deadline, time for the step's fallback and the rest of a render on a loaded machine. */
const SLACK_MS = 1500;

const nameOf = (i: number) => `${PREFIX}${String(i).padStart(6, "0")}`;

/** `home/project/b1` and `b2` of COUNT names each (hard links to seeds beside the project). */
function project(): { home: string; root: string } {
  const home = join(tempDir(), "home");
  const root = join(home, "project");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  for (const folder of ["b1", "b2"]) {
    const seeds = join(home, `seeds-${folder}`);
    mkdirSync(seeds);
    bigFolder(join(root, folder), COUNT, { name: nameOf, seeds });
  }
  return { home, root };
}

/** What the tree shows of one such folder: its first 11 names, a count, its last. */
function folderLines(folder: string): string[] {
  const t = "2026-01-01 00:00";
  return [
    `  ${folder}/  ${t}  (over 1000 entries: listed by name)`,
    ...Array.from({ length: 11 }, (_, i) => `    ${nameOf(i)}  0B  ${t}`),
    `    … ${COUNT - 12} more`,
    `    ${nameOf(COUNT - 1)}  0B  ${t}`,
  ];
}

describe("hostile-tree-long-names-sort-scale: big folders of long shared names", () => {
  it("are listed by name in the same order, and the layout and the render hear the deadline", async () => {
    const { home, root } = project();
    const listing = await walkTree(root, { listDepth: 2, agentsDepth: 2 });
    const limits = { maxDepth: 2, maxEntries: 12, maxLines: 120, mtimeMs: Date.parse(MTIME) };
    const { cpuMs, value } = await cpuTimed(() => layoutTree(root, "project", listing, limits));
    // Each name folded once: ~0.1 s of CPU for the 100,000 (the old sorts: 2-4 s).
    expect(cpuMs).toBeLessThan(1000);
    expect(value.lines.map((l) => l.text)).toEqual([
      "project/",
      ...folderLines("b1"),
      ...folderLines("b2"),
    ]);
    // Laid out again with a signal that fires at 200 ms: heard then, not after a whole sort.
    const started = performance.now();
    await layoutTree(root, "project", listing, {
      ...limits,
      signal: AbortSignal.timeout(200),
    }).catch(() => undefined);
    expect(performance.now() - started).toBeLessThan(200 + 1000);

    const options = {
      cwd: root,
      home,
      agentDir: join(home, ".pi", "agent"),
      workspaceTree: true,
      treeMtime: MTIME,
    };
    const warm = await renderSystemPrompt({ ...options, deadlineMs: 60_000 });
    expect(warm.text).toContain([...folderLines("b1"), ...folderLines("b2")].join("\n"));
    const begun = performance.now();
    await renderSystemPrompt({ ...options, deadlineMs: 2000 });
    expect(performance.now() - begun).toBeLessThan(2000 + SLACK_MS);
  }, 120_000);
});
