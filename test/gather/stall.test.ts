import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { layoutTree } from "../../src/gather/tree/_tree-layout.js";
import { MAX_FOLDER_ENTRIES, walkTree } from "../../src/gather/tree/_tree-walk.js";
import { buildWorkspaceTree } from "../../src/gather/tree/tree.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { MAX_SKILL_WALK_FOLDERS, walkSkillsRoot } from "../../src/skills/_walk.js";
import { bigFolder } from "../_big-folder.js";
import { pinned, tempDir } from "../api/_helpers.js";

/** Entries the tree walk took from folder handles (opendir), counted per read. */
const taken = vi.hoisted(() => ({ count: 0 }));
/** Folders listed by a whole listing (promise readdir) or a folder handle (opendir), as the skills walk lists them. */
const listed = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const { spiedFsp } = await import("../_listing-fs.js");
  return spiedFsp(await importOriginal<typeof import("node:fs/promises")>(), () => listed.count++);
});

vi.mock("node:fs", async (importOriginal) => {
  const { spiedFs } = await import("../_listing-fs.js");
  return spiedFs(await importOriginal<typeof import("node:fs")>(), {
    opened: () => listed.count++,
    entry: () => taken.count++,
  });
});

// Slack for timing checks on a loaded 2-core machine shared by several test
// runs: the deadline must hold within this, not to the millisecond.
const SLACK_MS = 400;

// Building tens of thousands of entries takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 30_000 });

describe("the tree walk under a deadline", () => {
  it("reads a folder no further than its entry cap, and says on its line that it is listed by name from part of it", async () => {
    const root = join(tempDir(), "project");
    bigFolder(join(root, "big"), 7000);
    taken.count = 0;
    const listing = await walkTree(root, { listDepth: 3, agentsDepth: 5, entryCap: 5000 });
    // The cap, and one more read that shows the folder goes on (plus the root's two entries).
    expect(taken.count).toBeLessThanOrEqual(5000 + 1 + 10);
    const { lines, truncated } = await layoutTree(root, "project", listing, {
      maxDepth: 3,
      maxEntries: 12,
      maxLines: 120,
      mtimeMs: Date.parse("2026-01-01T00:00:00Z"),
    });
    const text = lines.map((l) => l.text);
    expect(text[1]).toBe(
      "  big/  2026-01-01 00:00  (over 5000 entries: the first 5000 read, listed by name)",
    );
    expect(text).toContain(`    … at least ${5000 - 12} more`);
    expect(truncated).toBe(true);
    expect(MAX_FOLDER_ENTRIES).toBe(200_000);
  });

  it("stops between batches of one folder's listing when its signal fires", async () => {
    const root = join(tempDir(), "project");
    bigFolder(join(root, "big"), 15_000);
    const controller = new AbortController();
    // Fires at the first turn of the event loop the walk gives back.
    setImmediate(() => controller.abort(new Error("deadline")));
    taken.count = 0;
    await expect(
      walkTree(root, { listDepth: 3, agentsDepth: 5, signal: controller.signal }),
    ).rejects.toThrow("deadline");
    expect(taken.count).toBeLessThan(15_000);
  });
});

describe("ignore-file bombs", () => {
  it("a large root .gitignore and many folders each with one of their own: patterns are cut and named, the tree is built", async () => {
    const root = join(tempDir(), "project");
    mkdirSync(join(root, ".git"), { recursive: true });
    const patterns = Array.from({ length: 50_000 }, (_, i) => `x${i}?y`);
    writeFileSync(join(root, ".gitignore"), `${patterns.join("\n")}\nhidden.txt\n`);
    for (let i = 0; i < 300; i++) {
      const dir = join(root, `d${String(i).padStart(3, "0")}`);
      mkdirSync(join(dir, "sub"), { recursive: true });
      writeFileSync(join(dir, ".gitignore"), "x?y\n");
      writeFileSync(join(dir, "hidden.txt"), "");
    }
    const tree = await buildWorkspaceTree(root, { mtime: "2026-01-01T00:00:00Z" });
    // The first 2,000 patterns are kept; the cut `hidden.txt` line is not, so it shows.
    expect(tree.ignoreCuts).toEqual([
      { path: join(root, ".gitignore"), kept: 2000, dropped: 48_001, line: 2001 },
    ]);
    expect(tree.rendered.split("\n").slice(0, 3)).toEqual([
      "project/",
      "  d000/  2026-01-01 00:00",
      "    hidden.txt  0B  2026-01-01 00:00",
    ]);
  });

  it("patterns are capped in total across the files of one walk", async () => {
    const root = join(tempDir(), "project");
    const lines = Array.from({ length: 1500 }, (_, i) => `p${i}`).join("\n");
    for (let i = 0; i < 8; i++) {
      mkdirSync(join(root, `d${i}`), { recursive: true });
      writeFileSync(join(root, `d${i}`, ".gitignore"), lines);
    }
    const tree = await buildWorkspaceTree(root);
    // 10,000 in all: six files whole and 1,000 of the seventh, none of the eighth.
    const cuts = tree.ignoreCuts ?? [];
    expect(cuts.map((c) => [c.kept, c.dropped]).sort()).toEqual([
      [0, 1500],
      [1000, 500],
    ]);
  });
});

describe("the skills walk", () => {
  it("enters at most its folder cap, and says so", async () => {
    const root = join(tempDir(), "skills");
    for (let i = 0; i < MAX_SKILL_WALK_FOLDERS + 10; i++) {
      mkdirSync(join(root, `g${Math.floor(i / 100)}`, `h${i}`), { recursive: true });
    }
    const walked = await walkSkillsRoot(root);
    expect(walked.diagnostics.map((d) => [d.code, d.path])).toEqual([["skills-walk-limit", root]]);
  });

  it("stops when its signal fires", async () => {
    const root = join(tempDir(), "skills");
    for (let i = 0; i < 400; i++) mkdirSync(join(root, `g${i}`, "h"), { recursive: true });
    const controller = new AbortController();
    controller.abort(new Error("deadline"));
    await expect(walkSkillsRoot(root, { signal: controller.signal })).rejects.toThrow("deadline");
  });

  it("a 60,000-pattern .gitignore in a skills folder is cut to 2,000 and named", async () => {
    const root = join(tempDir(), "skills");
    mkdirSync(root, { recursive: true });
    // 60,000 lines: within the 1 MiB a text file may have.
    const patterns = Array.from({ length: 60_000 }, (_, i) => `q${i}[ab]`);
    writeFileSync(join(root, ".gitignore"), patterns.join("\n"));
    for (let i = 0; i < 50; i++) mkdirSync(join(root, `g${i}`, "h"), { recursive: true });
    const walked = await walkSkillsRoot(root);
    expect(walked.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["ignore-patterns-cut", join(root, ".gitignore")],
    ]);
  });
});

describe("nothing outlives the render", () => {
  // A project's skills folder linked out of the project is not walked at all
  // (catalogue/hostile-skills-link-out); your own agent dir's may lead anywhere,
  // so a link to / there is the long walk this case needs.
  it("your agent dir's skills folder links to /: the skills walk stops once the render has returned", async () => {
    const base = tempDir();
    const options = pinned(base, { deadlineMs: 200 });
    const project = join(base, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(base, "agent", "skills"), { recursive: true });
    symlinkSync("/", join(base, "agent", "skills", "root"));
    const started = performance.now();
    const result = await renderSystemPrompt(options);
    // The render returns at its deadline: 0.55-0.7 s here at loads of 7-9 (the walk keeps the
    // disk busy; the bound was three slacks, 1.4 s), so six slacks past it, 2.4 s, CI machines
    // being up to 2x slower. A render that waited for the walk would go on to its folder cap
    // over all of / (and its step would not say timeout).
    expect(performance.now() - started).toBeLessThan(200 + 6 * SLACK_MS);
    expect(result.steps.find((s) => s.name === "skills")?.status).toBe("timeout");
    // The walk hears the abort at its next folder or entry batch.
    await new Promise((done) => setTimeout(done, 50));
    const atStop = listed.count;
    await new Promise((done) => setTimeout(done, 300));
    expect(listed.count).toBe(atStop);
  });
});
