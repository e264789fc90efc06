import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiShellKept } from "../../src/hook/gemini-cut.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { geminiProject } from "./_gemini.js";

// Gemini CLI cuts a shell command's result, the hook's text appended, past
// `tools.truncateToolOutputThreshold` of its settings (40,000 by default; your
// ~/.gemini/settings.json or a trusted project's .gemini/settings.json may set
// it lower). The hook assumed 40,000: with 2,000 set, your glob rule fell in
// the part cut out and was kept as given for the session (review rev41c F2,
// medium/low). The hook now reads the threshold where Gemini CLI does and
// takes the lowest one set, never above 40,000.

const call = (cwd: string, tool: string, llmContent: string) =>
  JSON.stringify({
    session_id: "s-threshold",
    cwd,
    hook_event_name: "AfterTool",
    tool_name: tool,
    tool_input:
      tool === "read_file" ? { file_path: "pkg/sub/x.ts" } : { command: "cat pkg/sub/x.ts" },
    tool_response: { llmContent, returnDisplay: "" },
  });

function setup(nested: string) {
  return geminiProject({
    "p/.gemini/settings.json": '{ "tools": { "truncateToolOutputThreshold": 2000 } }\n',
    "p/pkg/sub/AGENTS.md": nested,
    "p/pkg/sub/x.ts": "export const x = 1;\n",
  });
}

describe("hostile repository: Gemini CLI's settings lower the cut of a shell command's output", () => {
  it("a text that a 2,000-character cut would reach is not given after a shell command, and comes with a later call", async () => {
    const { cwd, where } = setup(
      `# sub\n\n${"Prefer small functions and clear names.\n".repeat(80)}`,
    );
    const shell = await runHook("gemini-cli", call(cwd, "run_shell_command", "ok\n"), where);
    expect(shell.reply).toBe("{}\n");
    expect(shell.note).toMatch(/Gemini CLI would cut past 2000 characters/);
    const next = await runHook("gemini-cli", call(cwd, "read_file", "x\n"), where);
    expect(next.reply).toContain("USER-GLOB-RULE");
  });

  it("a text that fits in the 2,000 characters is given whole", async () => {
    const { cwd, where } = setup("NESTED: no default exports.\n");
    const output = "ok\n";
    const { reply } = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    const context = JSON.parse(reply).hookSpecificOutput.additionalContext as string;
    const sent = `${output}\n\n<hook_context>${context.replace(/[<>]/g, "&lt;")}</hook_context>`;
    expect(sent.length).toBeLessThanOrEqual(2000);
    expect(sent).toContain("USER-GLOB-RULE");
  });

  it("the lowest threshold set counts, never above 40,000; 0 or less, a FIFO or a bad file set nothing", async () => {
    const base = tempDir();
    const cwd = join(base, "p");
    const home = join(base, "home");
    const env = { GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(base, "etc", "settings.json") };
    const kept = () => geminiShellKept(cwd, { env, home });
    const threshold = (value: unknown) =>
      `// comment\n{ "tools": { "truncateToolOutputThreshold": ${JSON.stringify(value)} } }`;
    writeFiles(base, { "p/.gemini/settings.json": threshold(100_000) });
    expect(await kept()).toBe(40_000);
    writeFiles(base, { "home/.gemini/settings.json": threshold(3000) });
    expect(await kept()).toBe(3000);
    writeFiles(base, { "p/.gemini/settings.json": threshold("2500") });
    expect(await kept()).toBe(2500);
    writeFiles(base, { "etc/settings.json": threshold(1500) });
    expect(await kept()).toBe(1500);
    writeFiles(base, {
      "etc/settings.json": threshold(0),
      "home/.gemini/settings.json": threshold(-1),
      "p/.gemini/settings.json": "{ not json",
    });
    expect(await kept()).toBe(40_000);
    writeFiles(base, { "etc/system-defaults.json": threshold(1200) });
    expect(await kept()).toBe(1200);
    // GEMINI_CLI_HOME is Gemini CLI's home for ~/.gemini.
    writeFiles(base, { "other/.gemini/settings.json": threshold(900) });
    expect(
      await geminiShellKept(cwd, { env: { ...env, GEMINI_CLI_HOME: join(base, "other") }, home }),
    ).toBe(900);
    const fifo = tempDir();
    writeFiles(fifo, { "p/.gemini/x": "" });
    execFileSync("mkfifo", [join(fifo, "p", ".gemini", "settings.json")]);
    expect(await geminiShellKept(join(fifo, "p"), { env: {}, home: join(fifo, "home") })).toBe(
      40_000,
    );
  });
});
