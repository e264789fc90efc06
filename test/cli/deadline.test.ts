import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { toRenderOptions } from "../../src/cli/options.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { stopsWithin } from "../gather/_process.js";
import { cli, usageHint } from "./_run.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
// The command as published: the bundle, through its loader (see test/cli/bundle.test.ts).
const BIN = join(REPO, "dist", "src", "cli", "sysprompt.cjs");

/** The last file a build writes; 0 when there is no build. */
function builtAt(): number {
  try {
    return statSync(join(REPO, "dist", "builtin-frontmatter.json")).mtimeMs;
  } catch {
    return 0;
  }
}

function newestMtime(dirs: string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) {
        newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}

describe("--deadline", () => {
  it("a whole number of milliseconds becomes deadlineMs", () => {
    expect(toRenderOptions({ deadline: "250" }, "/w", {}).deadlineMs).toBe(250);
    expect(toRenderOptions({ deadline: "0" }, "/w", {}).deadlineMs).toBe(0);
    expect(toRenderOptions({}, "/w", {}).deadlineMs).toBeUndefined();
  });

  it("anything else is a usage error: exit 2 and a message that says what to pass", async () => {
    for (const bad of ["-1", "1.5", "soon", "5s", ""]) {
      expect(await cli(tempDir(), ["render", `--deadline=${bad}`])).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: --deadline expects a whole number of milliseconds, 0 or more, such as 5000, got "${bad}"\n${usageHint("render")}`,
      });
    }
  });
});

/**
 * The process-level promise: the built CLI, with a hanging `lspci` first on
 * PATH and a FIFO named AGENTS.md, prints and exits within the deadline plus
 * a constant — no timer, child or pipe keeps it alive — and leaves no probe
 * running behind it.
 */
/**
 * The most a process may take from its last output to its exit: writing,
 * closing and the exit hooks. A process that a probe held would sit idle
 * until the probe's 3 s kill timer (GPU_PROBE_TIMEOUT_MS) or its 60 s sleep.
 */
const IDLE_AFTER_OUTPUT_MS = 750;

describe("the built CLI with a hanging GPU probe and a FIFO", () => {
  beforeAll(() => {
    // The test runs the CLI as users do, from dist/; build it from this
    // source unless the build is already newer than every source file.
    if (newestMtime(["src", "helpers", "prompts"]) >= builtAt()) {
      execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: "ignore" });
    }
  }, 120_000);

  it("prints at the deadline and exits at once, held by no probe; the probe is killed on the way out", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const bin = join(root, "bin");
    for (const dir of [project, bin, join(root, "agent"), join(root, "home")]) mkdirSync(dir);
    execFileSync("mkfifo", [join(project, "AGENTS.md")]);
    // A probe that never answers, and whose shell started a child of its own.
    writeFileSync(
      join(bin, "lspci"),
      `#!/bin/sh\necho $$ > ${join(root, "lspci.pid")}\nsleep 60 &\necho $! > ${join(root, "sleep.pid")}\nwait\n`,
    );
    chmodSync(join(bin, "lspci"), 0o755);

    // Long enough that the other steps (a tiny project) are on time on a loaded
    // machine (at 1 s, 1 run in 5 had the context step late at a load of 11 on
    // 2 cores), and short of the probe's own 3 s timeout, which would end the
    // environment step on time.
    const deadline = 2000;
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, "render", "--deadline", String(deadline)], {
      cwd: project,
      env: {
        PATH: `${bin}:${process.env.PATH ?? ""}`,
        HOME: join(root, "home"),
        SYSPROMPT_AGENT_DIR: join(root, "agent"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let lastOutput = 0;
    child.stdout.on("data", (d) => {
      stdout += d;
      lastOutput = performance.now();
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      lastOutput = performance.now();
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    const closed = performance.now();

    // Not a bound on the whole run: Node's start-up and the render take
    // seconds on a loaded machine. What a timer, child or pipe of the probe
    // would do is keep the process alive after its output, idle until the
    // probe's 3 s kill timer or the 60 s sleep; the time from the last output
    // to the exit is only the exit itself, under any load.
    expect(closed - started).toBeGreaterThanOrEqual(deadline);
    expect(closed - lastOutput).toBeLessThan(IDLE_AFTER_OUTPUT_MS);
    expect(code).toBe(0);
    const lines = stderr.split("\n").filter((l) => l !== "");
    expect(lines.filter((l) => l.includes("[step-timeout]"))).toEqual([
      `warning [step-timeout] gathering step "environment" missed the ${deadline} ms deadline; its fallback was used`,
    ]);
    // The FIFO is reported by the context step (its wording is that step's own).
    expect(lines.filter((l) => l.includes(join(project, "AGENTS.md"))).length).toBe(1);
    const environment = /<environment>\n([\s\S]*?)\n<\/environment>/.exec(stdout)?.[1] ?? "";
    expect(environment.split("\n").map((l) => l.slice(2, l.indexOf(":")))).not.toContain("GPU");
    expect(environment).toMatch(/^- Operating system: /);
    expect(stdout).toContain(`Today's date: `);

    for (const file of ["lspci.pid", "sleep.pid"]) {
      const pid = Number(readFileSync(join(root, file), "utf8"));
      expect(await stopsWithin(pid, 1000)).toBe(true);
    }
  }, 20_000);

  it("--now pins the date of the spawned CLI too (the options reach the library)", async () => {
    const root = tempDir();
    mkdirSync(join(root, "project"));
    const out = execFileSync(process.execPath, [BIN, "render", "--now", NOW, "--section", "date"], {
      cwd: join(root, "project"),
      env: { ...process.env, HOME: root, SYSPROMPT_AGENT_DIR: join(root, "agent") },
      encoding: "utf8",
    });
    expect(out).toBe("<date>\nToday's date: 2026-01-15\n</date>");
  });
});
