import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev47a F6, both ways. Still written over: files agents read as configuration by their
// name outside their folders: Gemini CLI's `.env` (the nearest one from the working folder up,
// and `~/.env`, become its environment and its tools') and `.geminiignore`; Claude Code's
// `.worktreeinclude` and plugin manifests (`.claude-plugin/`); Codex's plugin marketplaces
// (`.agents/plugins/`). Refused although they are prompt text: the prompt folders in agents'
// folders (opencode's `prompts/` of `{file:./prompts/x.txt}`, Codex's custom prompts, pi's
// templates, Claude Code's output styles), where nothing runs and nothing is set; yours (in your
// home folder, your agent dir) only with --force (rev105e F2, rev107d F2).

const MINE = "GEMINI_API_KEY=yours\n";

function setup() {
  const root = tempDir();
  for (const dir of ["p/.git", "p/sub", "home", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  return root;
}

const exportTo = (root: string, out: string) =>
  cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);

describe("hostile-export-out-agent-names: files agents read by name, and their prompt folders", () => {
  it.each([
    ["gemini-cli", ".env", "p/.env"],
    ["gemini-cli", "sub/.env", "p/sub/.env"],
    ["gemini-cli", "~/.env", "home/.env"],
    ["gemini-cli", ".geminiignore", "p/.geminiignore"],
    ["claude-code", ".worktreeinclude", "p/.worktreeinclude"],
    ["claude-code", ".claude-plugin/plugin.json", "p/.claude-plugin/plugin.json"],
    ["codex", ".agents/plugins/marketplace.json", "p/.agents/plugins/marketplace.json"],
  ])("%s's %s: refused, exit 2, the file kept", async (agent, out, file) => {
    const root = setup();
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), MINE);
    const result = await exportTo(root, out);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toContain(`${agent}'s own`);
    expect(readFileSync(join(root, file), "utf8")).toBe(MINE);
  });

  // In your home folder (and your agent dir) a prompt folder is yours: a trusted project's prompt
  // is written there only with --force and a warning (review rev105e F2, rev107d F2).
  it.each([
    ["~/.config/opencode/prompts/build.txt", "home/.config/opencode/prompts/build.txt", true],
    [".opencode/prompts/plan.txt", "p/.opencode/prompts/plan.txt", false],
    ["~/.codex/prompts/review.md", "home/.codex/prompts/review.md", true],
    ["../agent/prompts/x.md", "agent/prompts/x.md", true],
    [".pi/prompts/x.md", "p/.pi/prompts/x.md", false],
    ["~/.claude/output-styles/mine.md", "home/.claude/output-styles/mine.md", true],
  ])("the prompt file %s is written (yours: with --force)", async (out, file, yours) => {
    const root = setup();
    if (yours) {
      const refused = await exportTo(root, out);
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining("pass --force")]);
      expect(existsSync(join(root, file))).toBe(false);
    }
    const result = await cli(root, join(root, "p"), [
      "export",
      "--agent",
      "codex",
      "--out",
      out,
      ...(yours ? ["--force"] : []),
    ]);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("wrote")]);
    expect(result.stderr.includes("WARNING")).toBe(yours);
    expect(existsSync(join(root, file))).toBe(true);
  });

  it.each([
    ["~/.config/opencode/prompts/../plugins/x.js", "home/.config/opencode/plugins/x.js"],
    [".codex/prompts/.opencode/plugins/x.js", "p/.codex/prompts/.opencode/plugins/x.js"],
    [".claude/commands/x.md", "p/.claude/commands/x.md"],
    [".gemini/commands/x.toml", "p/.gemini/commands/x.toml"],
    [".opencode/command/x.md", "p/.opencode/command/x.md"],
  ])("held: %s (no prompt folder's file) is refused", async (out, file) => {
    const root = setup();
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), MINE);
    const result = await exportTo(root, out);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(readFileSync(join(root, file), "utf8")).toBe(MINE);
  });
});
