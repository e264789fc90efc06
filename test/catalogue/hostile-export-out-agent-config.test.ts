import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// `export --agent codex --out ~/.codex/config.toml` (the file the printed setting line says to
// edit; a README could say so) replaced codex's configuration with the prompt, exit 0, no word,
// though docs/trust.md says export writes "never another agent's configuration". An --out that
// is an agent's own settings file (the ones `export --hooks` names, pi's settings.json) is now
// refused, exit 2, the file untouched; there is no --force, a prompt never being such a file.

const MINE = 'model = "gpt-x"   # your settings\n';

function setup() {
  const root = tempDir();
  for (const dir of ["p/.git", "home/.claude", "home/.codex", "dotfiles/gemini", "agent"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  // Your ~/.gemini is a link into your dotfiles: its file is refused by its real path too.
  symlinkSync(join(root, "dotfiles/gemini"), join(root, "home/.gemini"));
  for (const file of [
    "home/.claude/settings.json",
    "home/.codex/config.toml",
    "dotfiles/gemini/settings.json",
    "p/opencode.json",
    "agent/settings.json",
  ]) {
    writeFileSync(join(root, file), MINE);
  }
  return root;
}

const exportTo = (root: string, agent: string, out: string) =>
  cli(root, join(root, "p"), ["export", "--agent", agent, "--out", out]);

describe("hostile-export-out-agent-config: export --out onto an agent's own settings", () => {
  it.each([
    [
      "codex",
      "~/.codex/config.toml",
      "home/.codex/config.toml",
      "codex's own settings file (.codex/config.toml)",
    ],
    [
      "claude-code",
      "~/.claude/settings.json",
      "home/.claude/settings.json",
      "claude-code's own settings file (.claude/settings.json)",
    ],
    [
      "gemini-cli",
      "../dotfiles/gemini/settings.json",
      "dotfiles/gemini/settings.json",
      "gemini-cli's own settings file (.gemini/settings.json)",
    ],
    [
      "opencode",
      "opencode.json",
      "p/opencode.json",
      "opencode's own settings file (opencode.json)",
    ],
    ["codex", "../agent/settings.json", "agent/settings.json", "pi's own settings file"],
  ])("--agent %s --out %s: refused, exit 2, the file kept", async (agent, out, file, said) => {
    const root = setup();
    const result = await exportTo(root, agent, out);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toContain(said);
    expect(readFileSync(join(root, file), "utf8")).toBe(MINE);
  });

  // Review rev46a F2: the list missed agent files the writer then replaced, exit 0. Refused now
  // by name, and by one rule: a file in an agent's folder that is not an instructions file at its top.
  it.each([
    ["claude-code", ".claude/settings.local.json", "p/.claude/settings.local.json"],
    ["claude-code", "~/.claude.json", "home/.claude.json"],
    ["claude-code", ".mcp.json", "p/.mcp.json"],
    ["claude-code", ".claude/commands/x.md", "p/.claude/commands/x.md"],
    ["opencode", "opencode.jsonc", "p/opencode.jsonc"],
    ["opencode", ".opencode/plugins/x.ts", "p/.opencode/plugins/x.ts"],
    ["opencode", ".opencode/plugin/x.js", "p/.opencode/plugin/x.js"],
    ["opencode", "~/.config/opencode/plugins/other.js", "home/.config/opencode/plugins/other.js"],
    ["opencode", "~/.config/opencode/opencode.jsonc", "home/.config/opencode/opencode.jsonc"],
    ["gemini-cli", ".gemini/extra.json", "p/.gemini/extra.json"],
    ["codex", "~/.codex/auth.json", "home/.codex/auth.json"],
    ["pi", "../agent/models.json", "agent/models.json"],
    ["pi", "../agent/extensions/x.ts", "agent/extensions/x.ts"],
  ])("%s's %s: refused, exit 2, the file kept", async (agent, out, file) => {
    const root = setup();
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), MINE);
    const result = await exportTo(root, "codex", out);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toContain(`${agent}'s own`);
    expect(readFileSync(join(root, file), "utf8")).toBe(MINE);
  });

  it.each([
    "../dotfiles/gemini/system.md",
    "~/.codex/instructions.md",
    ".claude/CLAUDE.md",
    ".pi/SYSTEM.md",
  ])("held: the instructions file %s at the top of an agent's folder is written", async (out) => {
    const root = setup();
    const result = await exportTo(root, "codex", out);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("wrote")]);
  });

  it("held: pi's agent dir's APPEND_SYSTEM.md is no configuration; it is pi's instructions file, so --force writes it with a WARNING (rev92d F2, rev101d F2)", async () => {
    const root = setup();
    const argv = ["export", "--agent", "codex", "--out", "../agent/APPEND_SYSTEM.md"];
    const refused = await cli(root, join(root, "p"), argv);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      expect.stringContaining("is pi's own instructions file in your agent dir"),
    ]);
    const result = await cli(root, join(root, "p"), [...argv, "--force"]);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("WARNING")]);
  });

  it("held: a file of its own beside them is written", async () => {
    const root = setup();
    const result = await exportTo(root, "claude-code", "~/.claude/system-prompt.md");
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining("wrote")]);
    expect(existsSync(join(root, "home/.claude/system-prompt.md"))).toBe(true);
  });
});
