import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { preparePrompt, renderPrepared } from "../../src/render-system-prompt.js";
import { SyspromptError } from "../../src/types.js";
import { BUILTIN, pinned, tempDir } from "../api/_helpers.js";

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

function section(text: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(text);
  return m?.[1];
}

describe("agent presets", () => {
  it("pi named renders the prompt without an agent, the preamble's name aside (pi's, as its extension sends it)", async () => {
    const root = tempDir();
    write(root, {
      "project/AGENTS.md": "Run the tests.\n",
      "project/CLAUDE.md": "Claude notes.\n",
    });
    const plain = await renderSystemPrompt(pinned(root));
    const pi = await renderSystemPrompt(pinned(root, { agent: "pi" }));
    expect(pi.text).toBe(
      plain.text.replace("You are a coding agent.", "You are a coding agent running inside pi."),
    );
    expect(pi.text).not.toBe(plain.text);
    expect(pi.diagnostics).toEqual(plain.diagnostics);
  });

  it("claude-code: Claude Code's tools and name, and no CLAUDE.md or .claude/rules it loads itself", async () => {
    const root = tempDir();
    write(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/CLAUDE.md": "Claude notes.\n",
      "project/.claude/rules/style.md": "Tabs, not spaces.\n",
      "project/app/AGENTS.md": "App agents notes.\n",
    });
    const prepared = await preparePrompt(
      pinned(root, { cwd: join(root, "project/app"), agent: "claude-code" }),
    );
    const result = renderPrepared(prepared);
    expect(result.text.startsWith("You are Claude Code. ")).toBe(true);
    expect(section(result.text, "tools")).toBe(
      [
        "Tools you can call:",
        "- Bash: Run a shell command in the working directory and see its output.",
        "- Read: Read a file, or part of a long one; also images, PDFs and notebooks.",
        "- Edit: Change a file by replacing an exact piece of its text.",
        "- Write: Create a file or overwrite one with new contents.",
        "- Glob: Find files whose paths match a glob pattern.",
        "- Grep: Search file contents for a regular expression (ripgrep).",
        "- WebFetch: Fetch a web page and read its content.",
        "- WebSearch: Search the web.",
        "- TodoWrite: Keep a task list for the current piece of work.",
        "- Agent: Hand a self-contained task to a subagent with its own context.",
      ].join("\n"),
    );
    // The folder Claude Code reads CLAUDE.md in is left out; AGENTS.md, which it does not read, stays.
    expect(prepared.data.contextFiles.map((f) => f.path)).toEqual([
      join(root, "project/app/AGENTS.md"),
    ]);
    expect(result.text).not.toContain("Tabs, not spaces.");
    expect(result.diagnostics).toContainEqual({
      level: "info",
      code: "context-agent-loads",
      message: "left out: claude-code loads CLAUDE.md in this folder itself",
      path: join(root, "project/CLAUDE.md"),
    });
    expect(prepared.preset).toEqual({
      name: "claude-code",
      sources: [{ layer: "builtin", path: join(BUILTIN, "agents/claude-code.yaml") }],
      agentName: "Claude Code",
      tools: [
        "Bash",
        "Read",
        "Edit",
        "Write",
        "Glob",
        "Grep",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "Agent",
      ],
      described: [
        "Bash",
        "Read",
        "Edit",
        "Write",
        "Glob",
        "Grep",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "Agent",
      ],
      contextFilesLeftOut: [join(root, "project/CLAUDE.md")],
      ruleSourcesLeftOut: ["claude"],
      export: {
        file: "system-prompt.md",
        where: "the claude command line",
        setting: "claude --system-prompt-file {path}",
        quote: "shell",
      },
    });
  });

  it("codex leaves out AGENTS.md folders but keeps a folder that only has CLAUDE.md", async () => {
    const root = tempDir();
    write(root, {
      "project/.git/HEAD": "x\n",
      "project/AGENTS.md": "Root agents notes.\n",
      "project/app/CLAUDE.md": "App Claude notes.\n",
    });
    const prepared = await preparePrompt(
      pinned(root, { cwd: join(root, "project/app"), agent: "codex" }),
    );
    expect(prepared.data.contextFiles.map((f) => f.path)).toEqual([
      join(root, "project/app/CLAUDE.md"),
    ]);
    expect(prepared.data.agentName).toBe("Codex");
    expect(prepared.data.tools).toEqual(["shell", "apply_patch", "update_plan", "view_image"]);
  });

  it("gemini-cli does not read GEMINI.md; the agent dir's own AGENTS.md always loads", async () => {
    const root = tempDir();
    write(root, {
      "project/GEMINI.md": "Gemini notes.\n",
      "agent/AGENTS.md": "User notes.\n",
    });
    const result = await renderSystemPrompt(pinned(root, { agent: "gemini-cli" }));
    expect(result.text).not.toContain("Gemini notes.");
    expect(result.text).toContain("User notes.");
  });

  it("explicit options beat the preset: tools, agentName, toolSnippets", async () => {
    const root = tempDir();
    const prepared = await preparePrompt(
      pinned(root, {
        agent: "codex",
        tools: ["shell", "apply_patch"],
        agentName: "Robo",
        toolSnippets: { shell: "Our shell." },
      }),
    );
    expect(prepared.data.agentName).toBe("Robo");
    expect(prepared.data.toolSnippets).toEqual([
      { name: "shell", description: "Our shell." },
      {
        name: "apply_patch",
        description: "Create, change or delete files by applying a patch in Codex's patch format.",
      },
    ]);
    expect(prepared.preset?.agentName).toBeNull();
    expect(prepared.preset?.tools).toBeNull();
  });

  it("an unknown agent is the caller's mistake, with the near names", async () => {
    const root = tempDir();
    await expect(renderSystemPrompt(pinned(root, { agent: "codx" }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        'agent: no preset named "codx"; did you mean "codex"? The presets are: claude-code, codex, gemini-cli, opencode, pi (a new one is a file agents/<name>.yaml in the agent dir or the project\'s .pi/)',
      ),
    );
  });
});

describe("preset layers", () => {
  it("a user preset replaces the keys it sets; a project one (trusted) beats it; a new name adds a preset", async () => {
    const root = tempDir();
    write(root, {
      "agent/agents/codex.yaml": "agentName: Codex (ours)\n",
      "project/.pi/agents/codex.yaml": "tools:\n  shell: Run it.\n",
      "project/.pi/agents/robot.yaml": "agentName: Robot\ntools:\n  go: Go.\n",
    });
    const codex = await preparePrompt(pinned(root, { agent: "codex" }));
    expect(codex.data.agentName).toBe("Codex (ours)");
    expect(codex.data.toolSnippets).toEqual([{ name: "shell", description: "Run it." }]);
    expect(codex.preset?.sources.map((s) => s.layer)).toEqual(["builtin", "user", "project"]);
    const robot = await preparePrompt(pinned(root, { agent: "robot" }));
    expect(robot.data.agentName).toBe("Robot");
    expect(robot.data.tools).toEqual(["go"]);
  });

  it("an untrusted project's presets are not read", async () => {
    const root = tempDir();
    write(root, {
      "project/.pi/agents/codex.yaml": "agentName: Evil\n",
      "project/.pi/agents/robot.yaml": "agentName: Robot\n",
    });
    const codex = await preparePrompt(pinned(root, { agent: "codex", projectTrusted: false }));
    expect(codex.data.agentName).toBe("Codex");
    await expect(
      renderSystemPrompt(pinned(root, { agent: "robot", projectTrusted: false })),
    ).rejects.toThrow(/no preset named "robot"/);
  });

  it("a user pi.yaml changes the default render", async () => {
    const root = tempDir();
    write(root, { "agent/agents/pi.yaml": "agentName: pi\n" });
    const result = await renderSystemPrompt(pinned(root));
    expect(result.text.startsWith("You are pi. ")).toBe(true);
  });
});

describe("the shell rule knows other agents' tool names", () => {
  it("a shell with no search tool gets it (Codex's shell); one with search tools does not", async () => {
    const { buildRules, SHELL_SEARCH_RULE } = await import(
      "../../src/gather/guidelines/guidelines.js"
    );
    expect(buildRules({ tools: ["shell", "apply_patch"] })).toEqual([SHELL_SEARCH_RULE]);
    expect(buildRules({ tools: ["run_shell_command", "grep_search", "glob"] })).toEqual([]);
    expect(buildRules({ tools: ["Bash", "Glob"] })).toEqual([]);
    expect(buildRules({ tools: ["bash", "list"] })).toEqual([]);
  });
});

describe("check", () => {
  it("reports every broken preset file of every layer; the builtin presets have no problem", async () => {
    const { checkProject } = await import("../../src/author/check.js");
    const root = tempDir();
    write(root, {
      "agent/agents/mine.yaml": "agentName: [\n",
      "project/.pi/agents/codex.yaml": "tool:\n  x: y\n",
    });
    const report = await checkProject({
      cwd: join(root, "project"),
      agentDir: join(root, "agent"),
      home: join(root, "home"),
      env: {},
    });
    expect(report.diagnostics.filter((d) => d.code === "preset-invalid")).toEqual([
      {
        level: "error",
        code: "preset-invalid",
        message:
          "not valid YAML (Flow sequence in block collection must be sufficiently indented and end with a ]); the preset file is ignored",
        path: join(root, "agent/agents/mine.yaml"),
        line: 2,
      },
      {
        level: "warning",
        code: "preset-invalid",
        message: 'unknown key "tool", ignored; did you mean "tools"?',
        path: join(root, "project/.pi/agents/codex.yaml"),
        line: 1,
      },
    ]);
    const clean = await checkProject({ cwd: tempDir(), home: join(root, "home"), env: {} });
    expect(clean.diagnostics.filter((d) => d.path?.includes("/agents/"))).toEqual([]);
  });
});
