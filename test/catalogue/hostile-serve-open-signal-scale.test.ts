import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// `serve --open` hands the opener a page of its own, `open.html` (0600, in a
// 0700 temporary folder), holding the address with its token, and promises
// the page is removed when serve stops. Only Ctrl-C (SIGINT) stopped it so: a
// SIGTERM (`kill`, systemd) or SIGHUP (a closed terminal) ended the process at
// once and left the page in /tmp (review rev52b F6). Now both stop serve as
// Ctrl-C does, the page removed, with 128 + the signal's number (143, 129) as
// the exit status. Slow tier: it runs the built CLI and waits for the opener.

const WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(process.platform === "linux")(
  "hostile-serve-open-signal: serve stopped by a kill removes its page",
  () => {
    beforeAll(ensureBuilt, 120_000);

    for (const [signal, status] of [
      ["SIGTERM", 143],
      ["SIGHUP", 129],
      ["SIGINT", 0],
    ] as const) {
      it(`${signal}: open.html removed, exit ${status}`, async () => {
        const root = tempDir();
        const project = join(root, "project");
        const sys = join(root, "sys");
        const argv = join(root, "opener-argv");
        for (const dir of [project, sys, join(root, "home")]) mkdirSync(dir, { recursive: true });
        // A system opener of the test's: writes the page's path it was given.
        writeFileSync(join(sys, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" > ${argv}\n`);
        chmodSync(join(sys, "xdg-open"), 0o755);
        // A repository: else the project would reach up to `root` and hold the home folder.
        execFileSync("git", ["init", "-q", project]);
        const child = spawn(process.execPath, [BUILT_CLI, "serve", "--open", "--port", "0"], {
          cwd: project,
          env: { PATH: `${sys}:/usr/bin:/bin`, HOME: join(root, "home") },
          stdio: "ignore",
        });
        const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
          child.on("exit", (code, signal) => resolve({ code, signal }));
        });
        const start = Date.now();
        while (!(existsSync(argv) && readFileSync(argv, "utf8").endsWith("\n"))) {
          if (Date.now() - start > WAIT_MS) {
            child.kill("SIGKILL");
            throw new Error("the opener was never run");
          }
          await sleep(50);
        }
        const page = readFileSync(argv, "utf8").trim();
        expect(page).toMatch(/sysprompt-open-[^/]+\/open\.html$/);
        expect(existsSync(page)).toBe(true);
        child.kill(signal);
        const end = await ended;
        expect(end).toEqual({ code: status, signal: null });
        expect(existsSync(page)).toBe(false);
        expect(existsSync(join(page, ".."))).toBe(false);
      }, 30_000);
    }
  },
);
