import { describe, expect, it } from "vitest";
import { RULE_FORMATS } from "../../src/gather/rules/index.js";
import { AGENT_FOLDERS, agentFileOf, CONFIG_FOLDERS } from "../../src/hook/snippet.js";

// Review rev56d F4: `export --out` refused the five presets' agent files (`.mcp.json`) but wrote
// the prompt over the same kind of file of the other agents whose rules sysprompt reads, and of
// the editors beside them: `.cursor/mcp.json`, `.kiro/hooks/x.kiro.hook`, `.vscode/tasks.json`,
// `.github/workflows/ci.yml`, exit 0. Their folders are configuration now, save the rule files
// sysprompt reads there (and an instructions file at the top).

const CONFIGURATION = [
  ".cursor/mcp.json",
  ".cursor/hooks.json",
  ".windsurf/hooks.json",
  ".roo/mcp.json",
  ".amazonq/mcp.json",
  ".kiro/hooks/x.kiro.hook",
  ".kiro/settings/mcp.json",
  ".continue/config.yaml",
  ".vscode/tasks.json",
  ".vscode/settings.json",
  ".vscode/launch.json",
  ".idea/workspace.xml",
  ".zed/tasks.json",
  ".github/workflows/ci.yml",
  ".clinerules/hooks/PreToolUse",
  ".codeium/windsurf/mcp_config.json",
  // A rule folder's name is no pass out of it, nor into another folder of the lists.
  ".cursor/rules/../mcp.json",
  ".cursor/rules/x.json",
  ".windsurf/rules/sub/a.md",
  ".github/instructions/a.md",
  ".vscode/.cursor/rules/a.mdc",
  ".cursor/rules/.vscode/a.md",
];

const TEXT = [
  ".cursor/rules/a.mdc",
  ".cursor/rules/sub/b.md",
  ".windsurf/rules/a.md",
  ".clinerules/a.md",
  ".cline/rules/a.md",
  ".github/copilot-instructions.md",
  ".github/instructions/x/a.instructions.md",
  ".kiro/steering/a.md",
  ".roo/rules/anything",
  ".roo/rules-code/x.md",
  ".continue/rules/a.md",
  ".continue/prompts/p.md",
  ".vscode/prompt.md",
];

describe("hostile-export-out-other-agent-config: --out refuses the other agents' and editors' configuration", () => {
  it("a file in their folders is configuration, save the rule files sysprompt reads there", () => {
    for (const path of CONFIGURATION) expect(agentFileOf(`/p/${path}`), path).toBeDefined();
    for (const path of TEXT) expect(agentFileOf(`/p/${path}`), path).toBeUndefined();
  });

  it("every folder a rule format is read in is an agent's or a configuration folder", () => {
    const listed = new Set(
      [...Object.values(AGENT_FOLDERS), ...Object.values(CONFIG_FOLDERS)].flat(),
    );
    const tops = RULE_FORMATS.flatMap((f) => f.locations)
      .map((l) => l.rel.split("/"))
      .filter((names) => names.length > 1 || names[0] === ".clinerules" || names[0] === ".roo")
      .map((names) => names[0]);
    for (const top of tops) expect(listed.has(top ?? ""), top).toBe(true);
  });
});
