import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { HOOK_DEADLINE_MS } from "../../src/hook/deadline.js";
import { tempDir } from "../api/_helpers.js";
import { ensureBuilt } from "./_built.js";

// `sysprompt hook AGENT` said "took more than 5000 ms: nothing added" at its
// deadline, then lived on until its stdin closed: it read descriptor 0 by
// read(2) on libuv's threads, and Node's exit waits for them, so a writer
// that kept the pipe open (an agent, a wrapper, a slow writer) held every
// tool call until its own timeout (review rev56d F5). A pipe or a socket is
// now read through a libuv handle, which never holds the exit.

const BIN = fileURLToPath(new URL("../../dist/src/cli/sysprompt.cjs", import.meta.url));
/** How long the writer keeps stdin open: well past the deadline. */
const HELD_MS = 20_000;
/**
 * The deadline, then the reply's write and the exit: 0.3 s past the deadline here at a load of 7
 * (5.3 s in all), with a node start before it; 5 s of room, CI machines being up to 2x slower
 * and loaded. Far below HELD_MS, which a hook held by its stdin waits out.
 */
const BOUND_MS = HOOK_DEADLINE_MS + 5_000;

beforeAll(() => ensureBuilt(), 120_000);

function project() {
  const root = tempDir();
  const cwd = join(root, "p");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  writeFileSync(join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(cwd, "AGENTS.md"), "PROJ\n");
  const input = JSON.stringify({
    session_id: "s-held-open",
    cwd,
    hook_event_name: "PostToolUse",
    tool_name: "Read",
    tool_input: { file_path: join(cwd, "AGENTS.md") },
    tool_response: {},
  });
  const env = { ...process.env, HOME: join(root, "home"), XDG_CACHE_HOME: join(root, "cache") };
  return { root, cwd, input, env };
}

/** Runs the built hook with `stdin`, resolves with its status and how long it took. */
function hookRun(
  stdin: "pipe" | number,
  p: ReturnType<typeof project>,
  write: (child: ReturnType<typeof spawn>) => void,
) {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, "hook", "claude-code"], {
    cwd: p.cwd,
    env: p.env,
    stdio: [stdin, "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  write(child);
  return new Promise<{ status: number | null; ms: number; stdout: string; stderr: string }>(
    (done) => {
      child.on("exit", (status) =>
        done({ status, ms: performance.now() - started, stdout, stderr }),
      );
    },
  );
}

describe.skipIf(process.platform === "win32")(
  "hostile input: the hook's stdin held open past its deadline",
  () => {
    it("a socket (an agent's spawn) and a pipe (a shell's |): the hook ends at its deadline", async () => {
      const p = project();
      // A socket pair, as Node's spawn gives a child's stdin: the JSON written, never ended.
      let heldSocket: NodeJS.Timeout | undefined;
      const socket = hookRun("pipe", p, (child) => {
        child.stdin?.write(p.input);
        heldSocket = setTimeout(() => child.stdin?.end(), HELD_MS);
      });
      // A pipe, as `printf … | sysprompt hook` gives: its writer holds it open.
      const fifo = join(p.root, "fifo");
      execFileSync("mkfifo", [fifo]);
      // The child's end is a blocking one, as a shell's pipe is (the first open only lets the writer's through).
      const opener = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY);
      const reader = openSync(fifo, constants.O_RDONLY);
      closeSync(opener);
      writeSync(writer, p.input);
      const pipe = hookRun(reader, p, () => undefined);
      closeSync(reader);
      const heldPipe = setTimeout(() => closeSync(writer), HELD_MS);
      try {
        for (const run of await Promise.all([socket, pipe])) {
          expect(run.status).toBe(0);
          expect(run.stdout).toBe("");
          expect(run.stderr).toBe(
            `sysprompt hook: took more than ${HOOK_DEADLINE_MS} ms: nothing added\n`,
          );
          expect(run.ms).toBeLessThan(BOUND_MS);
        }
      } finally {
        clearTimeout(heldSocket);
        clearTimeout(heldPipe);
      }
    }, 45_000);
  },
);
