import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProbe } from "../../src/gather/environment/probe.js";
import { tempDir } from "../api/_helpers.js";
import { stopsWithin } from "./_process.js";

/** Spawning a process and having it killed on a loaded CI machine takes this much beyond the timeout. */
const SLACK_MS = 1000;

const node = (script: string) => [process.execPath, ["-e", script]] as const;

describe("runProbe, the real probe runner", () => {
  it("gives the standard output of a command that exits 0", async () => {
    const [cmd, args] = node("process.stdout.write('00:02.0 \"VGA compatible controller\"\\n')");
    expect(await runProbe(cmd, args, { timeoutMs: 10_000 })).toEqual({
      status: "ok",
      stdout: '00:02.0 "VGA compatible controller"\n',
    });
  });

  it("a non-zero exit is failed; a command that does not exist is missing", async () => {
    const [cmd, args] = node("process.stdout.write('partial'); process.exit(3)");
    expect(await runProbe(cmd, args, { timeoutMs: 10_000 })).toEqual({ status: "failed" });
    expect(
      await runProbe("/nonexistent/sysprompt-no-such-probe", [], { timeoutMs: 10_000 }),
    ).toEqual({
      status: "missing",
    });
  });

  it("a hanging probe is killed at its timeout, with whatever it started", async () => {
    const dir = tempDir();
    // The shell starts a sleep that holds the output pipe: the runner must not
    // wait for the pipe to close, and killing the group stops the sleep too.
    const script = `echo $$ > ${join(dir, "sh.pid")}; sleep 30 & echo $! > ${join(dir, "sleep.pid")}; wait`;
    const started = performance.now();
    const result = await runProbe("/bin/sh", ["-c", script], { timeoutMs: 200 });
    const elapsed = performance.now() - started;
    expect(result).toEqual({ status: "timeout" });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(200 + SLACK_MS);
    const pids = ["sh.pid", "sleep.pid"].map((f) => Number(readFileSync(join(dir, f), "utf8")));
    for (const pid of pids) expect(await stopsWithin(pid, SLACK_MS)).toBe(true);
  });

  it("runs only an absolute path: a bare name is a caller's bug, never a PATH search", async () => {
    await expect(runProbe("lspci", ["-mm"], { timeoutMs: 1000 })).rejects.toThrow(
      'runProbe: "lspci" is not an absolute path; find it with findSystemBinary',
    );
    await expect(runProbe("./lspci", [], { timeoutMs: 1000 })).rejects.toThrow(TypeError);
  });

  it("runs in a neutral folder, the root, with only the absolute PATH entries", async () => {
    const [cmd, args] = node(
      "process.stdout.write(JSON.stringify([process.cwd(), process.env.PATH]))",
    );
    const saved = process.env.PATH;
    process.env.PATH = `/usr/bin::node_modules/.bin:.:/bin`;
    try {
      const result = await runProbe(cmd, args, { timeoutMs: 10_000 });
      expect(result).toEqual({ status: "ok", stdout: JSON.stringify(["/", "/usr/bin:/bin"]) });
      // The project's own absolute entries are left out too, so what the probe starts is a system binary.
      process.env.PATH = "/work/p/bin:/usr/bin:/work/p/node_modules/.bin:/bin";
      const confined = await runProbe(cmd, args, { timeoutMs: 10_000, exclude: ["/work/p"] });
      expect(confined).toEqual({ status: "ok", stdout: JSON.stringify(["/", "/usr/bin:/bin"]) });
    } finally {
      process.env.PATH = saved;
    }
  });
});
