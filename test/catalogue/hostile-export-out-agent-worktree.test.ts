import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev47a F3: `export --out` took `.claude`/`.codex` anywhere on the path for the agent's
// folder, so every --out inside a Claude Code worktree (`claude --worktree feat` makes
// `<repo>/.claude/worktrees/feat/`) or a Codex app worktree (`~/.codex/worktrees/<id>/<project>/`)
// was refused as "claude-code's own configuration", exit 2. A checkout there is a project of its
// own: judged from its top, its own `.claude/settings.json` and `.mcp.json` are still refused.

const MINE = '{ "yours": true }\n';

function setup() {
  const root = tempDir();
  const claude = "p/.claude/worktrees/feat";
  const codex = "home/.codex/worktrees/ab12/proj";
  for (const dir of ["p/.git", `${claude}/.claude`, `${codex}/.codex`, "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  // What git worktree add writes: a `.git` file naming the admin folder.
  writeFileSync(join(root, claude, ".git"), "gitdir: ../../../.git/worktrees/feat\n");
  writeFileSync(join(root, codex, ".git"), "gitdir: /src/proj/.git/worktrees/proj\n");
  for (const file of [
    `${claude}/.claude/settings.json`,
    `${claude}/.mcp.json`,
    `${codex}/.codex/config.toml`,
    "home/.codex/config.toml",
  ]) {
    writeFileSync(join(root, file), MINE);
  }
  return { root, claude: join(root, claude), codex: join(root, codex) };
}

describe("hostile-export-out-agent-worktree: export --out inside an agent's worktree", () => {
  it.each([
    ["claude", "claude-code", "build/system-prompt.md"],
    ["claude", "claude-code", "prompt.md"],
    ["claude", "claude-code", "docs/agent/prompt.md"],
    ["codex", "codex", "build/instructions.md"],
    ["codex", "codex", "instructions.md"],
  ] as const)("a %s worktree: --agent %s --out %s is written", async (tree, agent, out) => {
    const t = setup();
    const result = await cli(t.root, t[tree], ["export", "--agent", agent, "--out", out]);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("wrote")]);
    expect(existsSync(join(t[tree], out))).toBe(true);
  });

  it.each([
    ["claude", ".claude/settings.json", "claude-code's own settings file"],
    ["claude", ".mcp.json", "claude-code's own settings file (.mcp.json)"],
    ["claude", ".claude/commands/x.md", "claude-code's own configuration (.claude/commands/x.md"],
    ["codex", ".codex/config.toml", "codex's own settings file (.codex/config.toml)"],
    ["codex", "../../../config.toml", "codex's own settings file (.codex/config.toml)"],
    ["codex", "../../../auth.json", "codex's own configuration"],
  ] as const)("held: in a %s worktree, --out %s is refused", async (tree, out, said) => {
    const t = setup();
    const result = await cli(t.root, t[tree], ["export", "--agent", "codex", "--out", out]);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toContain(said);
    if (existsSync(join(t[tree], out))) expect(readFileSync(join(t[tree], out), "utf8")).toBe(MINE);
  });
});
