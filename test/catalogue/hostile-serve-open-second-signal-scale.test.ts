import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// Review rev54b F3: `serve --open` removed its page (`open.html`, holding the address with its
// token) only once the server had stopped; a second stop signal during the stop (Ctrl-C twice,
// SIGTERM then Ctrl-C) ends the process at once (bin.ts), and SIGQUIT (Ctrl-\) was Node's
// default end: each left the page in the temporary folder. Now the page's folder is removed on
// the process's exit too, and SIGQUIT stops serve as the others do (131). Slow tier: it runs the
// built CLI and waits for the opener.

const WAIT_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(process.platform === "linux")(
  "hostile-serve-open-second-signal: serve's page goes whatever ends the process",
  () => {
    beforeAll(ensureBuilt, 120_000);

    for (const signals of [
      ["SIGINT", "SIGINT"],
      ["SIGTERM", "SIGINT"],
      ["SIGHUP", "SIGHUP"],
      ["SIGQUIT"],
    ] as const) {
      it(`${signals.join(" then ")}: the page's folder removed, the process exits by itself`, async () => {
        const root = tempDir();
        const project = join(root, "project");
        const sys = join(root, "sys");
        const tmp = join(root, "tmp");
        const argv = join(root, "opener-argv");
        for (const dir of [project, sys, tmp, join(root, "home")])
          mkdirSync(dir, { recursive: true });
        writeFileSync(join(sys, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" > ${argv}\n`);
        chmodSync(join(sys, "xdg-open"), 0o755);
        execFileSync("git", ["init", "-q", project]);
        const child = spawn(process.execPath, [BUILT_CLI, "serve", "--open", "--port", "0"], {
          cwd: project,
          env: { PATH: `${sys}:/usr/bin:/bin`, HOME: join(root, "home"), TMPDIR: tmp },
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
        expect(readdirSync(tmp)).toHaveLength(1);
        for (const signal of signals) child.kill(signal);
        const end = await ended;
        expect(end.signal).toBe(null);
        if (signals.length === 1) expect(end.code).toBe(131);
        expect(readdirSync(tmp)).toEqual([]);
      }, 30_000);
    }
  },
);
