import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/index.js";
import { walkTree } from "../../src/gather/tree/_tree-walk.js";
import { privatePaths } from "../../src/repo-files/private-paths.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Whether a path is git-ignored is asked of every pattern in force, at the
// path's full length, and again for each folder above it: a path D folders
// deep under P patterns costs about D squared times P. A repository holds the
// walk's 10,000 patterns and folders hundreds deep. Two checks asked it in
// one stretch that heard no deadline:
// - the workspace tree, whether its root (cwd) is in an ignored folder:
//   `render --tree --deadline 1000` from a cwd 300 folders deep took 24 s (19 s
//   of CPU), and in a long-lived process a cwd 1,000 deep went on 35 s of CPU
//   after the render had returned;
// - an untrusted project's private-path check of an `@import` 1,000 folders
//   deep: the render returned at its deadline, and the check went on 95 s
//   (23 s of CPU) behind it; and its last test, of the clone's
//   `.git/info/exclude` at every folder of the path, blocked the event loop
//   2.9 s in one call.
// Each verdict now gives the event loop its turn and hears the signal first.

/** Lines of one ignore file: patterns of two wildcards, which no shortcut on names skips. */
function patterns(tag: string): string {
  return `${Array.from({ length: 2000 }, (_, i) => `*${tag}${i}*w*`).join("\n")}\n`;
}

/** A repository whose first `heavy` folders hold full ignore files, with a chain `depth` folders deep. */
function deepRepository(
  depth: number,
  heavy: number,
): { root: string; deep: string; home: string } {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  const deep = join(root, ...Array.from({ length: depth }, () => "x"));
  mkdirSync(deep, { recursive: true });
  for (let i = 0, dir = root; i < heavy; i++, dir = join(dir, "x")) {
    writeFileSync(join(dir, ".gitignore"), patterns(`g${i}x`));
    writeFileSync(join(dir, ".ignore"), patterns(`i${i}x`));
  }
  return { root, deep, home: join(base, "home") };
}

/** CPU time spent by `work`, given a signal that fires after `afterMs`, until it settles. */
async function cpuPastAbort(afterMs: number, work: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error("deadline")), afterMs);
  try {
    return await cpuTimed(() => work(controller.signal).catch(() => undefined));
  } finally {
    clearTimeout(timer);
  }
}

describe("hostile repository: ignore verdicts on a path hundreds of folders deep", () => {
  it("the workspace tree's walk from a deep cwd stops at its signal", async () => {
    const { deep } = deepRepository(600, 3);
    const { cpuMs } = await cpuPastAbort(200, (signal) =>
      walkTree(deep, { listDepth: 3, agentsDepth: 3, signal }),
    );
    // Before: 19.5 s of CPU in one synchronous call. CPU time, not the clock's (see _timed.ts).
    expect(cpuMs).toBeLessThan(2500);
  }, 120_000);

  it("an untrusted project's check of an import 1,000 folders deep stops at its signal", async () => {
    const { root, deep, home } = deepRepository(1000, 5);
    writeFileSync(join(root, "AGENTS.md"), `# deep\n\n@${"x/".repeat(1000)}target.md\n`);
    writeFileSync(join(deep, "target.md"), "hi\n");
    const { cpuMs } = await cpuPastAbort(200, (signal) =>
      loadContextFiles({
        cwd: root,
        home,
        agentDir: join(home, "agent"),
        projectTrusted: false,
        signal,
      }),
    );
    // Before: 20 s of CPU and more, run on after the signal.
    expect(cpuMs).toBeLessThan(2500);
  }, 120_000);

  it("an untrusted project's check against .git/info/exclude hears its signal on a deep path", async () => {
    const { root, deep } = deepRepository(1000, 0);
    // Patterns of a plain last segment: the folders' own verdicts skip them by name.
    const lines = Array.from({ length: 2000 }, (_, i) => `*e${i}q`);
    mkdirSync(join(root, ".git", "info"), { recursive: true });
    writeFileSync(join(root, ".git", "info", "exclude"), `${lines.join("\n")}\n`);
    const controller = new AbortController();
    const check = privatePaths(root, { signal: controller.signal });
    // The folders' verdicts, kept by the checker: what is left of a sibling is the exclude test.
    expect(await check(join(deep, "a.md"))).toBeUndefined();
    const { cpuMs } = await cpuPastAbort(50, (signal) => {
      signal.addEventListener("abort", () => controller.abort(signal.reason));
      return check(join(deep, "b.md"));
    });
    // Before: 0.7 s of CPU in one synchronous call, the signal unheard (2.9 s of the clock under load); now 10-20 ms.
    expect(cpuMs).toBeLessThan(200);
  }, 120_000);
});
