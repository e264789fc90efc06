import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_WAIT_MS, sessionLocation, withSessionLock } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

describe("withSessionLock", () => {
  const at = () => {
    const root = tempDir();
    return sessionLocation("codex", "s", { env: { XDG_CACHE_HOME: join(root, "c") }, home: root });
  };

  it("holds the lock while it runs (making the cache folder), and removes it after, also on a throw", async () => {
    const location = at();
    const lock = `${location.path}.lock`;
    const out = await withSessionLock(location, () => existsSync(lock));
    expect(out).toEqual({ value: true, locked: true });
    expect(existsSync(lock)).toBe(false);
    await expect(
      withSessionLock(location, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(existsSync(lock)).toBe(false);
  });

  it("waits a bounded time for a held lock, then runs without it", async () => {
    const location = at();
    const lock = `${location.path}.lock`;
    await withSessionLock(location, async () => {
      const start = Date.now();
      const inner = await withSessionLock(location, () => "ran");
      const waited = Date.now() - start;
      expect(inner).toEqual({ value: "ran", locked: false });
      expect(waited).toBeGreaterThanOrEqual(LOCK_WAIT_MS);
      // Slack for a loaded machine: the bound is a few polls past LOCK_WAIT_MS, never seconds.
      expect(waited).toBeLessThan(LOCK_WAIT_MS + 1000);
      // The holder's lock is left alone.
      expect(existsSync(lock)).toBe(true);
    });
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a lock left by a call that died holding it", async () => {
    const location = at();
    const lock = `${location.path}.lock`;
    await withSessionLock(location, () => undefined);
    writeFileSync(lock, "");
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    expect(await withSessionLock(location, () => existsSync(lock))).toEqual({
      value: true,
      locked: true,
    });
    expect(existsSync(lock)).toBe(false);
  });
});
