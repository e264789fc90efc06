import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { splitShell } from "../../src/touch/shell-paths.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// The hook reads the paths a shell command names (Claude Code's and
// Codex's Bash, Gemini CLI's run_shell_command): the command is the
// model's, and a repository steers the model (a long string it asks to
// echo, a blob in a file it asks to pass on). The split built each word a
// character at a time, with no bound: a 20 MB word took the hook 21 s and
// 774 MB, synchronously, so its own 5 s timer could not fire; 5 million
// quoted pieces ('a'a'a…) 6.7 s, escaped quotes 8.5 s. A word stops growing
// past PATH_MAX (it is no path), and a command is read to its first 256 KiB.

/**
 * Far above the 0.1 to 0.3 s of CPU these take now (JSON.parse of 20 MB included), below the
 * 4.9 to 21 s before. CPU time (see cpuTimed): on the clock, at a load of 9, the 20 MB word
 * took 2.3 s, most of it building and parsing the 20 MB of JSON while waiting for a core.
 */
const BOUND_MS = 3000;

function project() {
  const base = tempDir();
  const cwd = join(base, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(join(cwd, "pkg"), { recursive: true });
  writeFileSync(join(cwd, "pkg", "AGENTS.md"), "Pkg rules.\n");
  writeFileSync(join(cwd, "pkg", "x.ts"), "");
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  return { cwd, home, env: { XDG_CACHE_HOME: join(base, "cache") } };
}

function bash(cwd: string, command: string, session: string) {
  return JSON.stringify({
    session_id: session,
    cwd,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command },
  });
}

describe("hostile repository: a shell command the hook reads its paths from", () => {
  it.each([
    ["a 20 MB word", "/".repeat(20_000_000)],
    ["5 million quoted pieces", "'a".repeat(5_000_000)],
    ["5 million escaped quotes in double quotes", '"\\'.repeat(5_000_000)],
  ])(
    "%s is answered at once, with nothing added",
    async (_name, command) => {
      const p = project();
      const input = bash(p.cwd, command, "s");
      const {
        value: out,
        cpuMs,
        wallMs,
      } = await cpuTimed(() => runHook("codex", input, { env: p.env, home: p.home }));
      expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(BOUND_MS);
      expect(out).toEqual({ reply: "" });
    },
    60_000,
  );

  it("a long word is no path; the paths beside it are still read", async () => {
    const p = project();
    const command = `cat ${"/x".repeat(3000)} pkg/x.ts`;
    expect(splitShell(command).map((w) => [w.text.length, w.special])).toEqual([
      [3, false],
      [4096, true],
      [8, false],
    ]);
    const out = await runHook("codex", bash(p.cwd, command, "t"), {
      env: p.env,
      home: p.home,
    });
    // Codex's reply is JSON: the element's text is in a JSON string.
    expect(out.reply).toContain('<instructions path=\\"pkg/AGENTS.md\\">\\nPkg rules.');
  });
});
