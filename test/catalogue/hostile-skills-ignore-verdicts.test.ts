import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadSkills } from "../../src/skills/load.js";
import { tempDir } from "../api/_helpers.js";

// A skills folder's entries are each tested against the ignore patterns in
// force, at their full path's length, and the walk heard the deadline only
// every 256 entries. A project's `.pi/skills` with 2,000-pattern `.gitignore`
// files at its top and a folder 14 levels of 255-character names down, holding
// 3,000 files, made each test cost about 100 ms of CPU: the first 256 held the
// event loop 88 s (26 s of CPU) in one stretch, past any deadline. The walk now
// offers a turn before each entry and stops at the first one after the signal.

/** Ignore verdicts asked, and a hook run before each. */
const verdicts = vi.hoisted(() => ({ count: 0, before: (_path: string) => {} }));

vi.mock("../../src/_gitignore.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/_gitignore.js")>();
  return {
    ...real,
    isIgnoredInKeptFolder: (...args: Parameters<typeof real.isIgnoredInKeptFolder>) => {
      verdicts.before(args[1]);
      verdicts.count++;
      return real.isIgnoredInKeptFolder(...args);
    },
  };
});

describe("hostile repository: a skills folder of many entries under ignore patterns", () => {
  it("asks no ignore verdict once the signal has fired", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, ".git"));
    const root = join(cwd, ".pi", "skills");
    const deep = join(root, "a", "b");
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(root, ".gitignore"), "*.tmp\n");
    for (let i = 0; i < 600; i++) writeFileSync(join(deep, `n${i}.md`), "");
    const controller = new AbortController();
    // The signal fires as the walk asks about the first entry of the wide folder.
    let firedAt: number | undefined;
    verdicts.before = (path) => {
      if (firedAt === undefined && path.endsWith("/n0.md")) {
        controller.abort(new Error("deadline"));
        firedAt = verdicts.count;
      }
    };
    verdicts.count = 0;
    await loadSkills({
      cwd,
      home: join(cwd, "home"),
      agentDir: join(cwd, "home", "agent"),
      signal: controller.signal,
    }).catch(() => undefined);
    expect(firedAt).toBeDefined();
    // The one being asked when it fired (before: all 600, the folder whole).
    expect(verdicts.count - (firedAt ?? 0)).toBeLessThanOrEqual(1);
  });
});
