import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";

// The slow tier (vitest.config.ts): 15 runs of the built CLI, five at a time. The lock these
// calls share is tested in-process in concurrent.test.ts.

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
