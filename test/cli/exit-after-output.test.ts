import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILT_CLI, ensureBuilt } from "../catalogue/_built.js";

// Work left behind by a step that missed the deadline (a rules walk of a
// hostile tree, a slow mount) must not keep the CLI alive after it printed:
// `$(sysprompt render)` waits for the process, not for the output. A timer
// preloaded into the process stands for that work here.
describe("the CLI", () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("exits once the command is done, whatever is still pending", () => {
    const dir = mkdtempSync(join(tmpdir(), "exit-after-output-"));
    mkdirSync(join(dir, ".git"));
    const started = performance.now();
    const out = spawnSync(
      process.execPath,
      [
        "--import",
        "data:text/javascript,setTimeout(() => {}, 60000)",
        BUILT_CLI,
        "render",
        "--untrusted",
        "--cwd",
        dir,
      ],
      { encoding: "utf8", timeout: 20_000, env: { ...process.env, HOME: dir } },
    );
    expect(out.signal).toBeNull();
    expect(out.status).toBe(0);
    expect(out.stdout).toContain("<cwd>");
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 30_000);
});

describe("the CLI whose reader goes away", () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("still ends with 141 (SIGPIPE's status) when stdout is closed early", async () => {
    const { spawn } = await import("node:child_process");
    const { writeFileSync } = await import("node:fs");
    const dir = mkdtempSync(join(tmpdir(), "exit-after-output-"));
    mkdirSync(join(dir, ".git"));
    // A prompt larger than a pipe's buffer, so a write fails after the reader left.
    writeFileSync(join(dir, "AGENTS.md"), "Some words of the project. ".repeat(40_000));
    const child = spawn(process.execPath, [BUILT_CLI, "render", "--cwd", dir], {
      env: { ...process.env, HOME: dir },
      stdio: ["ignore", "pipe", "ignore"],
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const status = await new Promise<number | null>((done) => child.on("exit", (c) => done(c)));
    expect(status).toBe(141);
  }, 30_000);
});
