import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev56d F4: `export --out` refused the five presets' agent files (`.mcp.json`) but wrote
// the prompt over the same kind of file of the other agents whose rules sysprompt reads, and of
// the editors beside them: `.cursor/mcp.json`, `.kiro/hooks/x.kiro.hook`, `.vscode/tasks.json`,
// `.github/workflows/ci.yml`, exit 0. Their folders are configuration now, save the rule files
// sysprompt reads there (and an instructions file at the top).

describe("hostile-export-out-other-agent-config: --out refuses the other agents' and editors' configuration (slow tier: CLI runs)", () => {
  it("export --out .cursor/mcp.json and .vscode/tasks.json: exit 2, the file kept; a rule file is written", async () => {
    const root = tempDir();
    for (const dir of ["p/.git", "p/.cursor/rules", "p/.vscode", "home", "agent"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    const MINE = '{ "mcpServers": {} }\n';
    for (const file of [".cursor/mcp.json", ".vscode/tasks.json"]) {
      writeFileSync(join(root, "p", file), MINE);
      const out = await cli(root, join(root, "p"), [
        "export",
        "--agent",
        "claude-code",
        "--out",
        file,
      ]);
      expect([file, out.code]).toEqual([file, 2]);
      expect(out.stderr).toMatch(/(Cursor|VS Code)'s configuration \(\.(cursor|vscode)\//);
      expect(readFileSync(join(root, "p", file), "utf8")).toBe(MINE);
    }
    const kiro = await cli(root, join(root, "p"), ["render", "-o", ".kiro/hooks/x.kiro.hook"]);
    expect(kiro.code).toBe(2);
    expect(existsSync(join(root, "p/.kiro/hooks/x.kiro.hook"))).toBe(false);
    const rule = await cli(root, join(root, "p"), ["render", "-o", ".cursor/rules/prompt.mdc"]);
    expect([rule.code, rule.stderr]).toEqual([0, expect.any(String)]);
    expect(existsSync(join(root, "p/.cursor/rules/prompt.mdc"))).toBe(true);
  });
});
