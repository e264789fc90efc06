import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_REMOVE_WAIT_MS, makeSandbox, removeSandbox } from "../../src/author/sandbox.js";
import { tempDir } from "../api/_helpers.js";

// Review rev96b F1: the removal of a copy (a partial one 2,000 folders deep took 10 s) held the
// command with no budget. A removal, and the sweep of the copies a run that is gone left, is
// waited for MAX_REMOVE_WAIT_MS at most; past it it goes on without the command, and what a
// run that ends first leaves is a stale copy the next run's sweep removes.

/** Paths whose removal hangs (a removal slower than the wait), and those whose fails at once. */
const removal = vi.hoisted(() => ({ hang: new Set<string>(), fail: new Set<string>() }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const rm = ((path: string, options?: Parameters<typeof fs.rm>[1]) => {
    if (removal.hang.has(String(path))) return new Promise<void>(() => undefined);
    if (removal.fail.has(String(path))) {
      return Promise.reject(Object.assign(new Error("EACCES: no"), { code: "EACCES" }));
    }
    return fs.rm(path, options);
  }) as typeof fs.rm;
  return { ...fs, default: { ...fs, rm }, rm };
});

afterEach(() => {
  removal.hang.clear();
  removal.fail.clear();
  vi.useRealTimers();
});

/**
 * `work` settled with fake timers: each time it waits on a timer, the clock moves to it. Gives
 * how many timers fired; throws when it does not settle within 10 s of real time (a removal with
 * no wait hangs as long as its `rm`).
 */
async function settle<T>(work: Promise<T>): Promise<{ value: T; fired: number }> {
  let done = false;
  const out = work.finally(() => {
    done = true;
  });
  let fired = 0;
  const until = performance.now() + 10_000;
  // Real I/O runs between the looks; the fake clock moves only to a pending timer.
  while (!done) {
    if (performance.now() > until) throw new Error("never settled");
    await new Promise((r) => setImmediate(r));
    if (!done && vi.getTimerCount() > 0) {
      await vi.advanceTimersToNextTimerAsync();
      fired++;
    }
  }
  return { value: await out, fired };
}

const fakeTimers = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

describe("a sandbox's removal waits a bounded time", () => {
  it("a removal slower than the wait returns once the wait is over", async () => {
    const root = tempDir();
    const sandbox = { root, copy: join(root, "scenario"), home: join(root, "home") };
    removal.hang.add(root);
    fakeTimers();
    const started = Date.now();
    const { fired } = await settle(removeSandbox(sandbox));
    // One wait, of MAX_REMOVE_WAIT_MS on the fake clock.
    expect(fired).toBe(1);
    expect(Date.now() - started).toBe(MAX_REMOVE_WAIT_MS);
  });

  it("a removal that fails within the wait throws, and one that ends removes", async () => {
    const root = tempDir();
    const failing = join(root, "failing");
    mkdirSync(failing);
    removal.fail.add(failing);
    await expect(removeSandbox({ root: failing, copy: failing, home: failing })).rejects.toThrow(
      "EACCES",
    );
    const gone = join(root, "gone");
    mkdirSync(join(gone, "scenario"), { recursive: true });
    await removeSandbox({ root: gone, copy: join(gone, "scenario"), home: join(gone, "home") });
    expect(readdirSync(root)).toEqual(["failing"]);
  });

  it("the sweep of a gone run's copy does not hold the next copy past the wait", async () => {
    const base = tempDir();
    const parent = join(base, "cache");
    const project = join(base, "project");
    mkdirSync(project);
    writeFileSync(join(project, "AGENTS.md"), "x\n");
    // A run of this machine whose process is gone: pid 2^22 + 1 is past Linux's pid_max.
    const tag =
      hostname()
        .replace(/[^A-Za-z0-9]/g, "_")
        .slice(0, 64) || "host";
    const stale = join(parent, `run-${tag}-4194305-abcdef`);
    mkdirSync(stale, { recursive: true });
    removal.hang.add(stale);
    fakeTimers();
    const { value, fired } = await settle(makeSandbox(project, parent));
    expect(value.problems).toEqual([]);
    expect(fired).toBe(1);
    vi.useRealTimers();
    if (value.sandbox) await removeSandbox(value.sandbox);
  });
});
