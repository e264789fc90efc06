import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { ensureBuilt } from "../catalogue/_built.js";

// `sysprompt sections | head -4`: the reader goes away while the command still
// writes. A Unix tool is then ended by SIGPIPE, quietly; the shell reports
// 128 + 13 = 141 (`set -o pipefail` sees it). Node ignores SIGPIPE, so the
// command must do the same itself instead of dying on an unhandled EPIPE.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const ENTRIES = {
  "the installed command (sysprompt.cjs)": join(REPO, "dist", "src", "cli", "sysprompt.cjs"),
  "the unbundled entry (bin.js)": join(REPO, "dist", "src", "cli", "bin.js"),
};
const CLOSED_PIPE_STATUS = 141;

interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs the CLI with its stdout (or stderr) a pipe whose reading end is closed
 * before the child has started, so every write it makes finds no reader.
 */
function withClosedReader(entry: string, args: string[], cwd: string, closed: "stdout" | "stderr") {
  return new Promise<Ended>((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: cwd, SYSPROMPT_AGENT_DIR: join(cwd, "agent") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child[closed].destroy();
    const other = closed === "stdout" ? child.stderr : child.stdout;
    let text = "";
    other.setEncoding("utf8");
    other.on("data", (chunk: string) => {
      text += chunk;
    });
    child.on("error", reject);
    child.on("close", (status, signal) => resolve({ status, signal, stderr: text }));
  });
}

function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, "agent"));
  mkdirSync(join(dir, "snapshots"));
  writeFileSync(join(dir, "AGENTS.md"), "# Project\n\nRun the tests.\n");
  writeFileSync(join(dir, "snapshots", "a.scenario.yaml"), "name: a\ncwd: .\n");
  return dir;
}

describe("a closed stdout", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  for (const [name, entry] of Object.entries(ENTRIES)) {
    it(`ends ${name} quietly with status 141, as SIGPIPE ends a Unix tool`, async () => {
      const dir = project();
      for (const args of [["sections"], ["render"], ["snapshot"], ["--help"]]) {
        const ended = await withClosedReader(entry, args, dir, "stdout");
        expect({ args, ...ended }).toEqual({
          args,
          status: CLOSED_PIPE_STATUS,
          signal: null,
          stderr: "",
        });
      }
    }, 60_000);
  }

  it("and a closed stderr end it the same way, whatever was left to say", async () => {
    const dir = project();
    const ended = await withClosedReader(
      ENTRIES["the installed command (sysprompt.cjs)"],
      ["render", "--bogus"],
      dir,
      "stderr",
    );
    expect(ended).toEqual({ status: CLOSED_PIPE_STATUS, signal: null, stderr: "" });
  }, 30_000);

  it.skipIf(!existsSync("/dev/full"))(
    "is told from a full disk: `> /dev/full` says so in one line and exits 1",
    () => {
      const full = openSync("/dev/full", "w");
      try {
        const out = spawnSync(
          process.execPath,
          [ENTRIES["the installed command (sysprompt.cjs)"], "--version"],
          {
            stdio: ["ignore", full, "pipe"],
            encoding: "utf8",
          },
        );
        expect({ status: out.status, stderr: out.stderr }).toEqual({
          status: 1,
          stderr: "sysprompt: cannot write to stdout: ENOSPC: no space left on device, write\n",
        });
      } finally {
        closeSync(full);
      }
    },
  );
});
