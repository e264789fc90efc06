import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// `render -o` (and eject, export, snapshot) writes a temporary file beside the target and renames
// it into place. Ctrl-C or a kill in between ended the CLI (128 + the signal) with the
// `.<name>.<pid>.<random>.tmp` file left in the user's folder, a copy of the prompt that nothing
// removes. Review of issue 24 (lows34). The CLI's exit now removes the writes' temporary files.
// The write is held open by a preload that stalls the temporary file's bytes (as a large prompt
// on a slow disk would), so the signal lands inside it every time. Slow tier: the built CLI,
// three runs.

const CLI = BUILT_CLI;

// Patches fs.promises.open: a `.tmp` file's handle says so on stderr, then never finishes its write.
const STALL = `
const fs = require("node:fs");
const open = fs.promises.open;
fs.promises.open = async function (path, ...rest) {
  const handle = await open.call(this, path, ...rest);
  if (String(path).endsWith(".tmp")) {
    handle.writeFile = () => {
      process.stderr.write("TEMP-FILE-OPEN\\n");
      return new Promise((resolve) => setTimeout(resolve, 60000));
    };
  }
  return handle;
};
`;

describe.skipIf(process.platform === "win32")(
  "hostile-write-signal: a CLI killed during a write leaves no temporary file",
  () => {
    // Built from this source: rebuilt when a source file is newer than dist/.
    beforeAll(ensureBuilt, 120_000);

    for (const [signal, code] of [
      ["SIGTERM", 143],
      ["SIGINT", 130],
      ["SIGHUP", 129],
    ] as const) {
      it(`${signal} during render -o: exit ${code}, only the folder's own files remain`, async () => {
        const root = tempDir();
        const project = join(root, "project");
        const home = join(root, "home");
        mkdirSync(join(project, ".git"), { recursive: true });
        mkdirSync(home);
        writeFileSync(join(project, "AGENTS.md"), "Project rules.\n");
        const preload = join(root, "stall.cjs");
        writeFileSync(preload, STALL);
        const child = spawn(
          process.execPath,
          ["--require", preload, CLI, "render", "-o", "prompt.md"],
          {
            cwd: project,
            env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
            stdio: ["ignore", "ignore", "pipe"],
          },
        );
        const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
          child.on("exit", (c, s) => resolve({ code: c, signal: s }));
        });
        let stderr = "";
        await new Promise<void>((resolve) => {
          child.stderr?.on("data", (chunk: Buffer) => {
            stderr += chunk.toString("utf8");
            if (stderr.includes("TEMP-FILE-OPEN")) resolve();
          });
          child.on("exit", () => resolve());
        });
        expect(stderr).toContain("TEMP-FILE-OPEN");
        // The temporary file is there while the write is under way.
        expect(readdirSync(project).some((n) => n.endsWith(".tmp"))).toBe(true);
        child.kill(signal);
        expect(await ended).toEqual({ code, signal: null });
        expect(readdirSync(project).sort()).toEqual([".git", "AGENTS.md"]);
      }, 30_000);
    }
  },
);
