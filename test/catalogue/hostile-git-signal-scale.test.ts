import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// git runs in its own process group (so is every probe), out of reach of the
// terminal's Ctrl-C, and Node's default end on a signal left it running with
// no parent: with a FIFO as the project's .gitignore, `sysprompt render --git`
// killed with SIGTERM during git's 2 s left git blocked for ever (ppid 1).
// Review of issue 24 (lows). The CLI now ends on SIGINT, SIGTERM and SIGHUP
// with 128 + the signal's number, killing the programs it started. Slow tier:
// it runs the built CLI and waits for git to start.

const CLI = BUILT_CLI;

/** Processes whose command line names `marker`, by pid. */
function processesNaming(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(join("/proc", name, "cmdline"), "utf8");
      if (cmdline.includes(marker) && cmdline.includes("git")) found.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const left: number[] = [];

afterEach(() => {
  for (const pid of left.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
});

describe.skipIf(process.platform === "win32")(
  "hostile-git-signal: a killed CLI leaves no git behind",
  () => {
    // Built from this source: rebuilt when a source file is newer than dist/.
    beforeAll(ensureBuilt, 120_000);

    for (const [signal, code] of [
      ["SIGTERM", 143],
      ["SIGINT", 130],
    ] as const) {
      it(`${signal} while git reads a FIFO .gitignore: exit ${code}, git killed`, async () => {
        const root = tempDir();
        const project = join(root, `fifo-project-${signal}`);
        const home = join(root, "home");
        mkdirSync(project, { recursive: true });
        mkdirSync(home);
        execFileSync("git", ["init", "-q", project]);
        execFileSync("mkfifo", [join(project, ".gitignore")]);
        writeFileSync(join(project, "a.txt"), "a\n");
        const child = spawn(process.execPath, [CLI, "render", "--git"], {
          cwd: project,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
          stdio: "ignore",
        });
        const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
          child.on("exit", (code, signal) => resolve({ code, signal }));
        });
        // Wait until git is running in the project (it blocks on the FIFO).
        let gits: number[] = [];
        for (let i = 0; i < 100 && gits.length === 0; i++) {
          await sleep(50);
          gits = processesNaming(project);
        }
        expect(gits.length).toBeGreaterThan(0);
        left.push(...gits);
        child.kill(signal);
        const how = await ended;
        await sleep(300);
        expect(processesNaming(project)).toEqual([]);
        expect(how).toEqual({ code, signal: null });
      }, 30_000);
    }
  },
);
