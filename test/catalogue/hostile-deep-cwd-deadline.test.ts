import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadContextFiles } from "../../src/gather/context/index.js";
import { DEFAULT_RULE_SOURCES, traceRules } from "../../src/gather/rules/index.js";
import { loadSkills } from "../../src/skills/load.js";
import { tempDir } from "../api/_helpers.js";

// The context and rule steps look at every folder from the project root
// down to cwd: each folder's context file names, each rule format's
// locations, each folder's project root. For a cwd 1,500 folders deep in a
// repository (paths of 3 KB, under PATH_MAX) that is tens of thousands of
// look-ups on long paths, started at once; none heard the deadline, so
// render --deadline 5000 returned after 36 s (1.7 GB), and at 1,000 deep
// the render was 2.4 s late. Each now waits its turn and hears the signal
// first: once the render gave up on the step, no more look-ups are made.

/** Look-ups made (lstat, stat, realpath: native, or an O_PATH open read back from /proc). */
const looked = vi.hoisted(() => ({ count: 0 }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const counted = <F extends (...args: never[]) => unknown>(f: F): F =>
    ((...args: Parameters<F>) => {
      looked.count++;
      return f(...args);
    }) as F;
  const overrides = {
    lstatSync: counted(fs.lstatSync),
    statSync: counted(fs.statSync),
    realpathSync: Object.assign(counted(fs.realpathSync), {
      native: counted(fs.realpathSync.native),
    }),
    // A realpath on Linux: the path opened with O_PATH, its real path read from /proc/self/fd.
    readlinkSync: ((path: string, options?: unknown) => {
      if (String(path).startsWith("/proc/self/fd/")) looked.count++;
      return fs.readlinkSync(path, options as BufferEncoding);
    }) as typeof fs.readlinkSync,
  };
  return { ...fs, default: { ...fs, ...overrides }, ...overrides };
});

vi.setConfig({ testTimeout: 60_000 });

/** A project whose cwd is `depth` folders below its root. */
function deepProject(depth: number): { cwd: string; home: string } {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  const cwd = join(root, ...Array.from({ length: depth }, () => "d"));
  mkdirSync(cwd, { recursive: true });
  return { cwd, home: join(base, "home") };
}

/** Look-ups made after `signal` fired, while `work` runs on. */
async function lookupsAfterAbort(work: (signal: AbortSignal) => Promise<unknown>) {
  const controller = new AbortController();
  looked.count = 0;
  const running = work(controller.signal).catch(() => undefined);
  // Let the work start, then give up on it, as a render does at its deadline.
  await new Promise((done) => setImmediate(done));
  controller.abort(new Error("deadline"));
  const atAbort = looked.count;
  await running;
  return looked.count - atAbort;
}

describe("hostile repository: a cwd hundreds of folders deep", () => {
  const depth = 200;

  it("the rule step makes no look-up past its deadline", async () => {
    const { cwd, home } = deepProject(depth);
    const after = await lookupsAfterAbort((signal) =>
      traceRules({
        cwd,
        home,
        agentDir: join(home, "agent"),
        sources: DEFAULT_RULE_SOURCES,
        signal,
      }),
    );
    // At most the project root's own search up the chain, one look-up a folder (7,529 before).
    expect(after).toBeLessThan(2 * depth);
  });

  it("the context step makes no look-up past its deadline", async () => {
    const { cwd, home } = deepProject(depth);
    const after = await lookupsAfterAbort((signal) =>
      loadContextFiles({ cwd, home, agentDir: join(home, "agent"), signal }),
    );
    // 47,896 before.
    expect(after).toBeLessThan(2 * depth);
  });

  it("the skills step makes no look-up past its deadline", async () => {
    const { cwd, home } = deepProject(depth);
    const after = await lookupsAfterAbort((signal) =>
      loadSkills({ cwd, home, agentDir: join(home, "agent"), signal }),
    );
    expect(after).toBeLessThan(2 * depth);
  });
});
