import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN, tempDir } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

function project(): string {
  const root = tempDir();
  mkdirSync(join(root, "project/.git"), { recursive: true });
  writeFileSync(join(root, "project/CLAUDE.md"), "Claude notes.\n");
  mkdirSync(join(root, "project/.claude/rules"), { recursive: true });
  writeFileSync(join(root, "project/.claude/rules/style.md"), "Tabs.\n");
  return root;
}

const CLAUDE_LINES = [
  `agent preset: claude-code (builtin ${BUILTIN}agents/claude-code.yaml)`,
  "  verified with: claude-code 2.1.332",
  "  preamble name: Claude Code",
  "  tools: Bash, Read, Edit, Write, Agent, Skill, ToolSearch",
  "  left out: sections cwd, environment, date (claude-code sends them itself)",
  "  left out: CLAUDE.md (claude-code loads it itself)",
  "  not read: rule sources claude (claude-code loads them itself)",
];

const CLAUDE_TOOLS = ["Bash", "Read", "Edit", "Write", "Agent", "Skill", "ToolSearch"];

describe("--agent", () => {
  it("explain says which preset is in use and what it changed", async () => {
    const root = project();
    const { code, stdout } = await cli(root, ["explain", "--agent", "claude-code"]);
    expect(code).toBe(0);
    const lines = stdout.split("\n");
    const at = lines.indexOf(CLAUDE_LINES[0] ?? "");
    expect(lines.slice(at, at + CLAUDE_LINES.length + 1)).toEqual([...CLAUDE_LINES, ""]);
    expect(stdout).toContain("context files: 0 loaded");
  });

  it("explain --json carries the preset report", async () => {
    const root = project();
    const { stdout } = await cli(root, ["explain", "--json", "--agent", "claude-code"]);
    expect(JSON.parse(stdout).preset).toEqual({
      name: "claude-code",
      sources: [{ layer: "builtin", path: `${BUILTIN}agents/claude-code.yaml` }],
      agentName: "Claude Code",
      tools: CLAUDE_TOOLS,
      described: CLAUDE_TOOLS,
      toolSet: null,
      agentSends: ["cwd", "environment", "date"],
      verifiedWith: "2.1.332",
      contextFilesLeftOut: [join(root, "project/CLAUDE.md")],
      ruleSourcesLeftOut: ["claude"],
      export: {
        file: "system-prompt.md",
        where:
          "the claude command line, when you start it in this project (the file holds this project's prompt)",
        setting: "claude --system-prompt-file {path}",
        quote: "shell",
      },
    });
  });

  it("sections prints the same lines after the table", async () => {
    const root = project();
    const { code, stdout } = await cli(root, ["sections", "--agent", "claude-code"]);
    expect(code).toBe(0);
    const paths = CLAUDE_LINES.map((l) =>
      l.replace("CLAUDE.md (", `${join(root, "project/CLAUDE.md")} (`),
    );
    expect(stdout.endsWith(`\n\n${paths.join("\n")}\n`)).toBe(true);
  });

  it("without --agent nothing about a preset is printed", async () => {
    const root = project();
    const { stdout } = await cli(root, ["explain"]);
    expect(stdout).not.toContain("agent preset");
  });

  it("an unknown agent exits 2 with the near names", async () => {
    const root = project();
    expect(await cli(root, ["render", "--agent", "claud-code"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: agent: no preset named "claud-code"; did you mean "claude-code"? The presets are: claude-code, codex, gemini-cli, opencode, pi (a new one is a file agents/<name>.yaml in the agent dir or the project's .pi/)\n${usageHint("render")}`,
    });
  });
});
