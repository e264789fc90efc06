import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, namedPaths, parseHookInput } from "../../src/hook/input.js";
import { hookReply } from "../../src/hook/reply.js";

// The inputs as each agent documents them (fields it sends that the hook does not read included).
const CLAUDE_READ = {
  session_id: "abc123",
  transcript_path: "/home/u/.claude/projects/p/abc123.jsonl",
  cwd: "/work/p",
  permission_mode: "default",
  hook_event_name: "PostToolUse",
  tool_name: "Read",
  tool_input: { file_path: "/work/p/pkg/sub/x.ts" },
  tool_response: { type: "text", file: { filePath: "/work/p/pkg/sub/x.ts", content: "x" } },
  tool_use_id: "toolu_01",
};
// codex-rs/hooks/schema/generated/post-tool-use.command.input.schema.json: every field required.
const CODEX_BASH = {
  session_id: "019a-thread",
  turn_id: "turn-1",
  transcript_path: null,
  cwd: "/work/p",
  hook_event_name: "PostToolUse",
  model: "gpt-5",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: "cat pkg/sub/x.ts" },
  tool_response: "x\n",
  tool_use_id: "call_1",
};
// docs/hooks/reference.md of gemini-cli: the base fields, then tool_name, tool_input, tool_response.
const GEMINI_READ = {
  session_id: "g-1",
  transcript_path: "/home/u/.gemini/tmp/chats/g-1.json",
  cwd: "/work/p",
  hook_event_name: "AfterTool",
  timestamp: "2026-12-03T10:00:00.000Z",
  tool_name: "read_file",
  tool_input: { file_path: "pkg/sub/x.ts" },
  tool_response: { llmContent: "x", returnDisplay: "" },
};

describe("parseHookInput", () => {
  it("refuses input nested past MAX_JSON_DEPTH at once, before JSON.parse (megabytes of [[[ took seconds)", () => {
    const deep = `${"[".repeat(2_000_000)}${"]".repeat(2_000_000)}`;
    const started = process.hrtime.bigint();
    expect(parseHookInput("claude-code", deep)).toEqual({
      problem: `the hook input nests deeper than ${MAX_JSON_DEPTH} levels`,
    });
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1000);
    // Brackets inside strings (a tool response quoting code) are not nesting.
    const quoted = { ...CLAUDE_READ, tool_response: { text: "[".repeat(10_000) } };
    expect(parseHookInput("claude-code", JSON.stringify(quoted))).toMatchObject({
      call: { tool: "Read" },
    });
    const escaped = { ...CLAUDE_READ, tool_response: { text: '\\"[[[' } };
    expect(parseHookInput("claude-code", JSON.stringify(escaped))).toMatchObject({
      call: { tool: "Read" },
    });
  });

  it("reads each agent's documented input into one call", () => {
    expect(parseHookInput("claude-code", JSON.stringify(CLAUDE_READ))).toEqual({
      call: {
        sessionId: "abc123",
        cwd: "/work/p",
        tool: "Read",
        input: { file_path: "/work/p/pkg/sub/x.ts" },
      },
    });
    expect(parseHookInput("codex", JSON.stringify(CODEX_BASH))).toEqual({
      call: {
        sessionId: "019a-thread",
        cwd: "/work/p",
        tool: "Bash",
        input: { command: "cat pkg/sub/x.ts" },
      },
    });
    expect(parseHookInput("gemini-cli", JSON.stringify(GEMINI_READ))).toEqual({
      call: {
        sessionId: "g-1",
        cwd: "/work/p",
        tool: "read_file",
        input: { file_path: "pkg/sub/x.ts" },
        // Gemini CLI appends the hook's text to this: the reply closes what it leaves open.
        resultText: "x",
      },
    });
  });

  it("says why there is no call: not JSON, not an object, another event, a missing field", () => {
    const problem = (agent: "claude-code" | "gemini-cli", value: unknown) => {
      const out = parseHookInput(agent, typeof value === "string" ? value : JSON.stringify(value));
      return "problem" in out ? out.problem : "no problem";
    };
    expect(problem("claude-code", "{")).toBe("the hook input is not JSON");
    expect(problem("claude-code", "")).toBe("the hook input is not JSON");
    expect(problem("claude-code", [1])).toBe("the hook input is not a JSON object");
    expect(problem("claude-code", null)).toBe("the hook input is not a JSON object");
    expect(problem("claude-code", { ...CLAUDE_READ, hook_event_name: "PreToolUse" })).toBe(
      'the hook input is for "PreToolUse", not PostToolUse: run `sysprompt hook claude-code` from PostToolUse only',
    );
    expect(problem("gemini-cli", CLAUDE_READ)).toBe(
      'the hook input is for "PostToolUse", not AfterTool: run `sysprompt hook gemini-cli` from AfterTool only',
    );
    expect(problem("claude-code", { ...CLAUDE_READ, session_id: "" })).toBe(
      "the hook input has no session_id",
    );
    expect(problem("claude-code", { ...CLAUDE_READ, session_id: "x".repeat(257) })).toBe(
      "the hook input has no session_id",
    );
    expect(problem("claude-code", { ...CLAUDE_READ, cwd: "relative" })).toBe(
      "the hook input has no absolute cwd",
    );
    expect(problem("claude-code", { ...CLAUDE_READ, cwd: "/a\u0000b" })).toBe(
      "the hook input has no absolute cwd",
    );
    expect(problem("claude-code", { ...CLAUDE_READ, tool_name: 7 })).toBe(
      "the hook input has no tool_name",
    );
  });

  it("takes an input without hook_event_name, and a tool_input that is not an object as empty", () => {
    const { hook_event_name: _, ...bare } = CLAUDE_READ;
    expect(parseHookInput("claude-code", JSON.stringify({ ...bare, tool_input: "x" }))).toEqual({
      call: { sessionId: "abc123", cwd: "/work/p", tool: "Read", input: {} },
    });
  });
});

describe("namedPaths", () => {
  it("takes each agent's file arguments by its own names", () => {
    expect(namedPaths("claude-code", "Edit", { file_path: "a.ts", old_string: "x" })).toEqual({
      files: ["a.ts"],
    });
    expect(namedPaths("claude-code", "NotebookEdit", { notebook_path: "n.ipynb" })).toEqual({
      files: ["n.ipynb"],
    });
    expect(namedPaths("claude-code", "Grep", { pattern: "x", path: "src" })).toEqual({
      files: ["src"],
    });
    // Glob without a path searches cwd, whose files the prompt has.
    expect(namedPaths("claude-code", "Glob", { pattern: "**/*.ts" })).toEqual({ files: [] });
    expect(namedPaths("gemini-cli", "read_file", { absolute_path: "/p/a.ts" })).toEqual({
      files: ["/p/a.ts"],
    });
    expect(namedPaths("gemini-cli", "list_directory", { dir_path: "pkg" })).toEqual({
      files: ["pkg"],
    });
    expect(
      namedPaths("gemini-cli", "read_many_files", { include: ["a.ts", "src/**/*.ts", 3, ""] }),
    ).toEqual({ files: ["a.ts"] });
    expect(namedPaths("opencode", "read", { filePath: "/p/a.ts" })).toEqual({ files: ["/p/a.ts"] });
  });

  it("takes shell commands with their working folder, and patches", () => {
    expect(namedPaths("codex", "Bash", { command: "cat a.ts" })).toEqual({
      files: [],
      shell: { command: "cat a.ts" },
    });
    expect(namedPaths("codex", "Bash", { command: ["bash", "-lc", "cat a.ts"] })).toEqual({
      files: [],
      shell: { command: "cat a.ts" },
    });
    expect(namedPaths("codex", "Bash", { command: ["cat", "a.ts"] })).toEqual({
      files: [],
      shell: { command: "cat a.ts" },
    });
    expect(
      namedPaths("gemini-cli", "run_shell_command", { command: "ls", dir_path: "pkg" }),
    ).toEqual({ files: [], shell: { command: "ls", workdir: "pkg" } });
    expect(namedPaths("opencode", "bash", { command: "ls", workdir: "/p" })).toEqual({
      files: [],
      shell: { command: "ls", workdir: "/p" },
    });
    const patch = "*** Begin Patch\n*** Update File: a.ts\n*** End Patch\n";
    expect(namedPaths("codex", "apply_patch", { command: patch })).toEqual({ files: [], patch });
    expect(namedPaths("opencode", "patch", { patchText: patch })).toEqual({ files: [], patch });
  });

  it("takes nothing from tools it does not know, another agent's names or bad arguments", () => {
    expect(namedPaths("claude-code", "WebFetch", { url: "https://x" })).toEqual({ files: [] });
    expect(namedPaths("claude-code", "read_file", { file_path: "a" })).toEqual({ files: [] });
    expect(namedPaths("codex", "Read", { file_path: "a" })).toEqual({ files: [] });
    expect(namedPaths("claude-code", "Read", { file_path: 3 })).toEqual({ files: [] });
    expect(namedPaths("claude-code", "Read", null)).toEqual({ files: [] });
    expect(namedPaths("claude-code", "Bash", { command: "  " })).toEqual({ files: [] });
    expect(namedPaths("claude-code", "toString", {})).toEqual({ files: [] });
  });
});

describe("hookReply", () => {
  it("adds the text as additionalContext of the agent's event; nothing is the empty reply it accepts", () => {
    expect(JSON.parse(hookReply("claude-code", "A\n<b>"))).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "A\n<b>" },
    });
    expect(JSON.parse(hookReply("codex", "A"))).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "A" },
    });
    expect(JSON.parse(hookReply("gemini-cli", "A"))).toEqual({
      hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "A" },
    });
    expect(hookReply("claude-code", undefined)).toBe("");
    expect(hookReply("codex", "")).toBe("");
    expect(hookReply("gemini-cli", undefined)).toBe("{}\n");
  });
});
