import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHook } from "../../src/hook/run.js";
import { readSession, sessionLocation } from "../../src/hook/state.js";
import { sessionContextFor } from "../../src/session/touch.js";
import { tempDir } from "../api/_helpers.js";

// Context on touch before any render (the hook, opencode's plugin, a pi
// session's contextFor before its first render) traces the rule files
// itself, and did so with no deadline: a render stops its rules step at the
// deadline, this did not. cwd 40 folders deep, each with nine rules folders
// linked to one folder of 1,999 rule files, took the trace 63 s (560,000
// files found), where `render --deadline 500` took 1.4 s; the hook's process
// is ended by its timer, but opencode's, or pi's, went on working. The trace
// now stops at the options' deadline, with a touch-deadline warning.

const DEPTH = 16;
const LOCATIONS = [
  ".cursor/rules",
  ".windsurf/rules",
  ".clinerules",
  ".roo/rules",
  ".continue/rules",
  ".kiro/steering",
  ".github/instructions",
  ".claude/rules",
];
/** Far above 200 ms plus one folder's listing on a loaded machine, far below the whole trace. */
const BOUND_MS = 3000;

function deepProject() {
  const base = tempDir();
  const root = join(base, "repo");
  const big = join(root, ".big");
  mkdirSync(join(root, ".git"), { recursive: true });
  mkdirSync(big, { recursive: true });
  for (let i = 0; i < 1999; i++) {
    writeFileSync(join(big, `r${String(i).padStart(4, "0")}.md`), '---\nglobs: "*.zz"\n---\nR\n');
  }
  let dir = root;
  for (let d = 0; d < DEPTH; d++) {
    dir = join(dir, `d${d}`);
    for (const rel of LOCATIONS) {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      symlinkSync(big, join(dir, rel));
    }
  }
  writeFileSync(join(dir, "x.ts"), "");
  const home = join(base, "home");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(base, "agent"), { recursive: true });
  return { base, cwd: dir, home };
}

describe("hostile repository: rule files that take long to find, on touch before a render", () => {
  it("a session's contextFor stops finding them at its deadline, and says so", async () => {
    const p = deepProject();
    const started = performance.now();
    const got = await sessionContextFor(
      [join(p.cwd, "x.ts")],
      { cwd: p.cwd, home: p.home, agentDir: join(p.base, "agent"), deadlineMs: 200 },
      new Map(),
      { delivered: new Set(), overrides: {}, wrappers: undefined },
    );
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(got.diagnostics.map((d) => d.code)).toContain("touch-deadline");
  }, 120_000);

  it("the hook stops at your deadline, and keeps no snapshot from rules cut short", async () => {
    const p = deepProject();
    const agentDir = join(p.base, "agent");
    writeFileSync(join(agentDir, "sysprompt.yaml"), "deadline: 200\n");
    const env = { XDG_CACHE_HOME: join(p.base, "cache"), SYSPROMPT_AGENT_DIR: agentDir };
    const input = JSON.stringify({
      session_id: "s-1",
      cwd: p.cwd,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "cat x.ts" },
    });
    const started = performance.now();
    const out = await runHook("codex", input, { env, home: p.home });
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
    expect(out.note).toMatch(/deadline passed before the rule files were found/);
    const location = sessionLocation("codex", "s-1", { agentDir, env, home: p.home });
    expect(readSession(location).snapshot).toBeUndefined();
  }, 120_000);
});
