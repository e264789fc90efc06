import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev79h F3 (medium): a tool call's path arguments were resolved before
// any length was looked at. A Claude Code `Read` whose file_path was 30 MB of
// `a/` (under the hook's 32 MiB input cap) took 4.7 s user + 1.4 s sys and
// 1.8 GB, synchronously, past the hook's 5 s, with no note; a Codex `workdir`
// of 30 MB 3 s and 1 GB; 64 listed paths of 480 KB (Gemini CLI
// `read_many_files`) 3.3 s and 1.1 GB. Every path argument (file_path, the
// listed paths, workdir, cwd) longer than PATH_MAX (4096) is now left out
// before it is resolved, and that is said in the hook's note.

/** Far above the 0.3 s of CPU this takes now (the JSON parse of 30 MB), below the 4.7 s before. */
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
  return { cwd, where: { home, env: { XDG_CACHE_HOME: join(base, "cache") } } };
}

const call = (cwd: string, tool: string, input: object, event = "PostToolUse") =>
  JSON.stringify({
    session_id: `s-${Math.random()}`,
    cwd,
    hook_event_name: event,
    tool_name: tool,
    tool_input: input,
  });

const SAID = /a path of this call not looked at: longer than 4096 characters/;

describe("hostile repository: a path argument longer than PATH_MAX", () => {
  it("a 30 MB file_path is answered at once, with a note", async () => {
    const p = project();
    const input = call(p.cwd, "Read", { file_path: `${p.cwd}/${"a/".repeat(15_000_000)}f` });
    const {
      value: out,
      cpuMs,
      wallMs,
    } = await cpuTimed(() => runHook("claude-code", input, p.where));
    expect(cpuMs, `CPU time (${wallMs} ms on the clock)`).toBeLessThan(BOUND_MS);
    expect(out.note).toMatch(SAID);
  }, 60_000);

  it("an 8 KB file_path, a Codex workdir and Gemini CLI's listed paths are said; a short one beside them is read", async () => {
    const p = project();
    const long = `${p.cwd}/${"a/".repeat(4_000)}f`;
    const read = await runHook("claude-code", call(p.cwd, "Read", { file_path: long }), p.where);
    expect(read.note).toMatch(SAID);
    const shell = await runHook(
      "codex",
      call(p.cwd, "Bash", { command: "cat pkg/x.ts", workdir: long }),
      p.where,
    );
    expect(shell.note).toMatch(SAID);
    expect(shell.reply).not.toContain("Pkg rules.");
    const many = await runHook(
      "gemini-cli",
      call(p.cwd, "read_many_files", { paths: [long, long, "pkg/x.ts"] }, "AfterTool"),
      p.where,
    );
    expect(many.note).toMatch(/2 paths of this call not looked at: longer than 4096 characters/);
    expect(many.reply).toContain("Pkg rules.");
  });

  it("a cwd longer than PATH_MAX is refused, said", async () => {
    const p = project();
    const cwd = `${p.cwd}/${"a/".repeat(4_000)}`;
    const out = await runHook("claude-code", call(cwd, "Read", { file_path: "x" }), p.where);
    expect(out.note).toMatch(
      /cwd is \d+ characters long, and no folder's path is longer than 4096/,
    );
  });
});
