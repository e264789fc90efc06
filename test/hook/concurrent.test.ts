import { spawn } from "node:child_process";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LOCK_WAIT_MS, sessionLocation, withSessionLock } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";

const BIN = fileURLToPath(new URL("../../dist/src/cli/sysprompt.cjs", import.meta.url));

/** The built hook run once with `input`; its stdout. */
function hookProcess(input: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "hook", "gemini-cli"], { env });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
    });
    child.on("error", fail);
    child.on("close", (code) => (code === 0 ? done(out) : fail(new Error(`exit ${code}`))));
    child.stdin.end(input);
  });
}

describe("concurrent hook calls of one session", { timeout: 60_000 }, () => {
  it("give a folder's file once, however many run at the same time", async () => {
    const root = tempDir();
    const cwd = join(root, "p");
    mkdirSync(join(cwd, ".git"), { recursive: true });
    const env = { ...process.env, XDG_CACHE_HOME: join(root, "cache"), HOME: join(root, "home") };
    mkdirSync(join(root, "home"));
    for (let round = 0; round < 3; round++) {
      const dir = join(cwd, `pkg${round}`);
      mkdirSync(dir);
      writeFileSync(join(dir, "AGENTS.md"), `Folder ${round} rules.\n`);
      const calls = Array.from({ length: 5 }, (_, i) => {
        writeFileSync(join(dir, `f${i}.ts`), "");
        const input = JSON.stringify({
          session_id: `parallel-${round}`,
          cwd,
          hook_event_name: "AfterTool",
          tool_name: "read_file",
          tool_input: { file_path: join(dir, `f${i}.ts`) },
        });
        return hookProcess(input, env);
      });
      const replies = await Promise.all(calls);
      const giving = replies.filter((r) => r.includes(`Folder ${round} rules.`));
      expect({ round, giving: giving.length }).toEqual({ round, giving: 1 });
      expect(replies.filter((r) => r === "{}\n").length).toBe(4);
    }
  });
});

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
