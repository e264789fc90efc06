import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { stat } from "../../src/_io.js";
import { OWN_PART_IDLE_MS, ownFirstGate } from "../../src/gather/own-first.js";

// The gate that holds every repository part of a render's steps until each step's own part
// (your AGENTS.md, rule folders, skill folders) is read. The clock is vitest's: the gate's
// only timer is its idle wait, so each case says exactly when it opens.

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("ownFirstGate", () => {
  beforeEach(() => {
    // The gate's idle wait only: src/_pace.ts's turns (setImmediate) stay real for the look below.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds the repository until every own part begun is read, each marked before it waits", async () => {
    const { yoursFirst, gate } = ownFirstGate();
    const order: string[] = [];
    let skillsRead: () => void = () => undefined;
    const rules = yoursFirst(async (own) => {
      order.push("your rules");
      await own.thenProject();
      order.push("project rules");
    });
    const skills = yoursFirst(async (own) => {
      await new Promise<void>((done) => {
        skillsRead = done;
      });
      order.push("your skills");
      await own.thenProject();
      order.push("project skills");
    });
    const layer = gate().then(() => order.push("project layer"));
    expect(await settled(layer)).toBe(false);
    expect(order).toEqual(["your rules"]);
    skillsRead();
    await Promise.all([rules, skills, layer]);
    expect(order.slice(0, 2)).toEqual(["your rules", "your skills"]);
    expect(order.slice(2).sort()).toEqual(["project layer", "project rules", "project skills"]);
  });

  it("an own part that throws is read: it holds no one", async () => {
    const { yoursFirst, gate } = ownFirstGate();
    const failed = yoursFirst(async () => {
      throw new Error("unreadable");
    });
    await expect(failed).rejects.toThrow("unreadable");
    expect(await settled(gate())).toBe(true);
  });

  it(`opens after ${OWN_PART_IDLE_MS} ms with no file-system call answered (a hung disk of yours)`, async () => {
    const { yoursFirst, gate } = ownFirstGate();
    void yoursFirst(() => new Promise<void>(() => undefined));
    const open = gate();
    await vi.advanceTimersByTimeAsync(OWN_PART_IDLE_MS - 1);
    expect(await settled(open)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(open)).toBe(true);
  });

  it("stays closed while calls are answered (a cold, loaded start reading your files)", async () => {
    const { yoursFirst, gate } = ownFirstGate();
    let read: () => void = () => undefined;
    void yoursFirst(
      () =>
        new Promise<void>((done) => {
          read = done;
        }),
    );
    const open = gate();
    // Four idle waits' time, a look answered in each.
    for (let i = 0; i < 4; i++) {
      await stat(import.meta.dirname);
      await vi.advanceTimersByTimeAsync(OWN_PART_IDLE_MS);
    }
    expect(await settled(open)).toBe(false);
    read();
    expect(await settled(open)).toBe(true);
  });

  it("opens when the signal fires", async () => {
    const stop = new AbortController();
    const { yoursFirst, gate } = ownFirstGate(stop.signal);
    void yoursFirst(() => new Promise<void>(() => undefined));
    const open = gate();
    expect(await settled(open)).toBe(false);
    stop.abort();
    expect(await settled(open)).toBe(true);
  });

  it("opens at its share of the deadline while calls are answered, and says what it held (rev51a F3)", async () => {
    let now = 1000;
    const { yoursFirst, gate, held } = ownFirstGate(undefined, {
      openAfterMs: 600,
      clock: () => now,
    });
    void yoursFirst(() => new Promise<void>(() => undefined), "your skills");
    void yoursFirst(async () => undefined, "your rule files");
    const open = gate();
    // Answered calls all along: only the share opens the gate.
    for (let i = 0; i < 2; i++) {
      await stat(import.meta.dirname);
      now += OWN_PART_IDLE_MS;
      await vi.advanceTimersByTimeAsync(OWN_PART_IDLE_MS);
    }
    expect(await settled(open)).toBe(false);
    expect(held()).toBeUndefined();
    await stat(import.meta.dirname);
    now += 99;
    await vi.advanceTimersByTimeAsync(99);
    expect(await settled(open)).toBe(false);
    now += 1;
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(open)).toBe(true);
    expect(held()).toEqual({ waitedMs: 600, parts: ["your skills"] });
  });

  it("held is nothing when your parts were read in time", async () => {
    const { yoursFirst, gate, held } = ownFirstGate(undefined, { openAfterMs: 600 });
    await yoursFirst(async (own) => own.thenProject(), "your skills");
    expect(await settled(gate())).toBe(true);
    expect(held()).toBeUndefined();
  });

  it("a gate opened by the signal with your parts unread says so", async () => {
    const stop = new AbortController();
    const { yoursFirst, gate, held } = ownFirstGate(stop.signal);
    void yoursFirst(() => new Promise<void>(() => undefined), "your context files");
    const open = gate();
    stop.abort();
    expect(await settled(open)).toBe(true);
    expect(held()?.parts).toEqual(["your context files"]);
  });
});
