import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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

  it("claude-code: Claude Code's tools and name; what it reads itself is left out, and nothing else", async () => {
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
        "- Bash: Run a shell command in the working directory and see its output (also how to search files).",
        "- Read: Read a file, or part of a long one; also images, PDFs and notebooks.",
        "- Edit: Change a file by replacing an exact piece of its text.",
        "- Write: Create a file or overwrite one with new contents.",
        "- Agent: Hand a self-contained task to a subagent with its own context.",
        "- Skill: Load one of the skills Claude Code lists, by name.",
        "- ToolSearch: Load a deferred tool (WebFetch, WebSearch and the others Claude Code names) before calling it.",
      ].join("\n"),
    );
    // app/ has no CLAUDE.md, so Claude Code reads its AGENTS.md itself; the root's CLAUDE.md too.
    expect(prepared.data.contextFiles).toEqual([]);
    expect(result.text).not.toContain("Tabs, not spaces.");
    expect(result.diagnostics).toContainEqual({
      level: "info",
      code: "context-agent-loads",
      message: "left out: claude-code loads CLAUDE.md in this folder itself",
      path: join(root, "project/CLAUDE.md"),
    });
    expect(result.diagnostics).toContainEqual({
      level: "info",
      code: "context-agent-loads",
      message: "left out: claude-code loads AGENTS.md in this folder itself",
      path: join(root, "project/app/AGENTS.md"),
    });
    // The date, the working folder and the environment are Claude Code's own.
    expect(result.sections.map((s) => s.name)).not.toContain("date");
    expect(result.sections.map((s) => s.name)).not.toContain("cwd");
    expect(result.sections.map((s) => s.name)).not.toContain("environment");
    expect(result.text).not.toContain("2026-01-15");
    expect(prepared.preset).toMatchObject({
      name: "claude-code",
      sources: [{ layer: "builtin", path: join(BUILTIN, "agents/claude-code.yaml") }],
      agentName: "Claude Code",
      tools: ["Bash", "Read", "Edit", "Write", "Agent", "Skill", "ToolSearch"],
      toolSet: null,
      agentSends: ["cwd", "environment", "date"],
      verifiedWith: "2.1.332",
      contextFilesLeftOut: [join(root, "project/CLAUDE.md"), join(root, "project/app/AGENTS.md")],
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

  it("claude-code: an AGENTS.md beside a CLAUDE.md stays, unless the CLAUDE.md imports it", async () => {
    const root = tempDir();
    write(root, {
      "project/.git/HEAD": "x\n",
      "project/AGENTS.md": "Root agents notes.\n",
      "project/CLAUDE.md": "Root Claude notes.\n",
      "project/app/AGENTS.md": "App agents notes.\n",
      "project/app/CLAUDE.md": "App Claude notes.\n\n@AGENTS.md\n",
      "project/app/web/AGENTS.md": "Web agents notes.\n",
      "project/app/web/CLAUDE.local.md": "Web local notes.\n",
    });
    const prepared = await preparePrompt(
      pinned(root, { cwd: join(root, "project/app/web"), agent: "claude-code" }),
    );
    const result = renderPrepared(prepared);
    // Claude Code reads no AGENTS.md where a CLAUDE.md (or CLAUDE.local.md) is: the prompt has
    // the root's and web's; app's CLAUDE.md imports its own, so that one is Claude Code's.
    expect(prepared.data.contextFiles.map((f) => f.path)).toEqual([
      join(root, "project/AGENTS.md"),
      join(root, "project/app/web/AGENTS.md"),
    ]);
    expect(result.diagnostics).toContainEqual({
      level: "info",
      code: "context-agent-loads",
      message:
        "left out: claude-code loads CLAUDE.md in this folder itself, and CLAUDE.md imports this file",
      path: join(root, "project/app/AGENTS.md"),
    });
    expect(result.diagnostics).toContainEqual({
      level: "info",
      code: "context-agent-skips",
      message: "kept: claude-code loads CLAUDE.local.md in this folder itself, but not this file",
      path: join(root, "project/app/web/AGENTS.md"),
    });
    // The CLAUDE.md beside a kept AGENTS.md is Claude Code's, not "shadowed".
    expect(result.diagnostics.filter((d) => d.code === "context-shadowed")).toEqual([]);
    // The prompt says which files come from Claude Code, and does not claim they are in it.
    expect(result.text).toContain(
      "those that apply here are in this prompt, listed in it with their paths, or sent to you by Claude Code itself (CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, AGENTS.md, .claude/rules).",
    );
    expect(result.text).not.toContain("already in this prompt");
  });

  it("claude-code: a CLAUDE.md that links out of the project is not read for its imports", async () => {
    const root = tempDir();
    write(root, {
      "project/.git/HEAD": "x\n",
      "project/AGENTS.md": "Root agents notes.\n",
      "elsewhere/CLAUDE.md": "@../project/AGENTS.md\n",
    });
    symlinkSync(join(root, "elsewhere/CLAUDE.md"), join(root, "project/CLAUDE.md"));
    const prepared = await preparePrompt(pinned(root, { agent: "claude-code" }));
    // Claude Code reads the link's CLAUDE.md; sysprompt keeps AGENTS.md rather than trust
    // what a file outside the project imports.
    expect(prepared.data.contextFiles.map((f) => f.path)).toEqual([
      join(root, "project/AGENTS.md"),
    ]);
  });

  it("codex leaves out AGENTS.md folders but keeps a folder that only has CLAUDE.md; its tools follow the model", async () => {
    const root = tempDir();
    write(root, {
      "project/.git/HEAD": "x\n",
      "project/AGENTS.md": "Root agents notes.\n",
      "project/app/CLAUDE.md": "App Claude notes.\n",
    });
    const options = pinned(root, { cwd: join(root, "project/app"), agent: "codex" });
    const prepared = await preparePrompt(options);
    expect(prepared.data.contextFiles.map((f) => f.path)).toEqual([
      join(root, "project/app/CLAUDE.md"),
    ]);
    expect(prepared.data.agentName).toBe("Codex");
    expect(prepared.data.tools).toEqual([
      "exec_command",
      "write_stdin",
      "apply_patch",
      "view_image",
      "web_search",
    ]);
    const codeMode = await preparePrompt({ ...options, model: "gpt-6-sol" });
    expect(codeMode.data.tools).toEqual(["exec", "wait"]);
    expect(codeMode.preset?.toolSet).toBe(0);
    expect((await preparePrompt({ ...options, model: "gpt-5.5" })).data.tools).toContain(
      "apply_patch",
    );
  });

  it("gemini-cli: --agent-mode picks the approval mode's tools; default keeps the plain ones, an unknown mode is refused", async () => {
    const root = tempDir();
    const base = pinned(root, { agent: "gemini-cli" });
    const tools = async (agentMode?: string) =>
      (await preparePrompt(agentMode ? { ...base, agentMode } : base)).data.tools;
    expect(await tools()).toEqual([
      "read_file",
      "list_directory",
      "glob",
      "grep_search",
      "google_web_search",
    ]);
    expect(await tools("yolo")).toContain("run_shell_command");
    expect(await tools("auto_edit")).toContain("write_file");
    expect(await tools("auto_edit")).not.toContain("run_shell_command");
    expect(await tools("plan")).toContain("exit_plan_mode");
    expect(await tools("default")).toEqual(await tools());
    // Before review rev50d F8 an unknown mode silently kept the plain tools.
    await expect(tools("nonsense")).rejects.toThrow(/agent-mode: no mode "nonsense"/);
  });

  it("opencode: GPT models get apply_patch instead of edit and write", async () => {
    const root = tempDir();
    const base = pinned(root, { agent: "opencode" });
    const plain = (await preparePrompt(base)).data.tools;
    expect(plain).toContain("edit");
    const gpt = (await preparePrompt({ ...base, model: "openai/gpt-5.5" })).data.tools;
    expect(gpt).toContain("apply_patch");
    expect(gpt).not.toContain("edit");
    expect(gpt).not.toContain("write");
  });

  it("a preset's toolSets, agentSends and loadsItself entries are checked and reported at their line", async () => {
    const root = tempDir();
    write(root, {
      "agent/agents/mine.yaml": [
        "tools:",
        "  a: The a tool.",
        "toolSets:",
        "  - tools:",
        "      b: The b tool.",
        "agentSends: [Date]",
        "loadsItself:",
        "  contextFiles: [../AGENTS.md]",
        "  imports: yes please",
        "",
      ].join("\n"),
    });
    const result = await renderSystemPrompt(pinned(root, { agent: "mine" }));
    const problems = result.diagnostics
      .filter((d) => d.code === "preset-invalid")
      .map((d) => [d.line, d.message]);
    expect(problems).toEqual([
      [4, "toolSets: entry 1: needs models or modes (or both)"],
      [6, "agentSends: must be a list of section names such as [date, cwd]"],
      [
        8,
        "loadsItself.contextFiles: must be a list whose entries are file names (CLAUDE.md, .claude/CLAUDE.md) or lists of them",
      ],
      [8, "loadsItself.imports: must be true or false"],
    ]);
    // What was valid still counts.
    expect((await preparePrompt(pinned(root, { agent: "mine" }))).data.tools).toEqual(["a"]);
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
    const { checkProject } = await import("../../src/author/check/check.js");
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

describe("chooseToolSet", () => {
  it("the first set whose models match and whose modes name the mode; a set with both needs both", async () => {
    const { chooseToolSet } = await import("../../src/agents/apply.js");
    const preset: Parameters<typeof chooseToolSet>[0] = {
      toolSets: [
        { models: ["gpt-6*"], modes: ["yolo"], tools: { a: "A." } },
        { models: ["gpt-6*"], tools: { b: "B." } },
        { modes: ["yolo"], tools: { c: "C." } },
      ],
    };
    expect(chooseToolSet(preset, "gpt-6-sol", "yolo")).toBe(0);
    expect(chooseToolSet(preset, "gpt-6-sol", undefined)).toBe(1);
    expect(chooseToolSet(preset, "gpt-5.5", "yolo")).toBe(2);
    expect(chooseToolSet(preset, undefined, "yolo")).toBe(2);
    expect(chooseToolSet(preset, "gpt-5.5", "plan")).toBe(null);
    expect(chooseToolSet({ toolSets: [] }, "gpt-6-sol", "yolo")).toBe(null);
  });
});
