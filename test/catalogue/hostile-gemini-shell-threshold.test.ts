import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { geminiCut, geminiShellKept } from "../../src/hook/gemini-cut.js";
import { runHook } from "../../src/hook/run.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { GEMINI_CUT, geminiProject, geminiSends } from "./_gemini.js";

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
      tool === "run_shell_command"
        ? { command: "cat pkg/sub/x.ts" }
        : { file_path: "pkg/sub/x.ts" },
    tool_response: { llmContent, returnDisplay: "" },
  });

function setup(
  nested: string,
  settings = '{ "tools": { "truncateToolOutputThreshold": 2000 } }\n',
) {
  return geminiProject({
    "p/.gemini/settings.json": settings,
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

  it("the lowest threshold set counts, never above 40,000; 0 or less sets nothing, a FIFO is the smallest cut", async () => {
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
      "p/.gemini/settings.json": threshold(false),
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
    // A FIFO is never opened: what it sets cannot be judged, so the smallest cut is taken.
    expect(await geminiCut(join(fifo, "p"), { env: {}, home: join(fifo, "home") })).toMatchObject({
      kept: 0,
      unjudged: expect.stringMatching(/settings\.json/),
    });
  });

  // Review rev42b F2 (medium, low end): Gemini CLI 0.61 expands environment
  // variables in every settings string, keeps a value that fails its
  // validation as it is and takes Math.min of it (JavaScript's coercion), and
  // reads a file of any size. The hook took only a number or a numeric
  // string from at most 64 KiB, assumed 40,000 for the rest, and gave your
  // glob rule, kept as given, where Gemini CLI cut at 2,000 (or at 1).
  it.each([
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Gemini CLI's own `${VAR:-default}`, not a template.
    ["${UNSET:-2000}", '"${SYSPROMPT_NOT_SET_42:-2000}"'],
    ["$SHLVL", '"$SHLVL"'],
    ["[2000]", "[2000]"],
    ["true (1)", "true"],
    ["a string that is no number", '"2k"'],
    ["an object", '{ "n": 2000 }'],
    ["2000 after a 70 KB comment", `2000 /*${"x".repeat(70_000)}*/`],
  ])("a threshold of %s lowers the cut, or is taken as the smallest", async (_name, value) => {
    const { cwd, where } = setup(
      `# sub\n\n${"Prefer small functions and clear names.\n".repeat(80)}`,
      `{ "tools": { "truncateToolOutputThreshold": ${value} } }\n`,
    );
    const output = `Output: ${"line of build output\n".repeat(100)}`;
    const shell = await runHook("gemini-cli", call(cwd, "run_shell_command", output), where);
    expect(shell.reply).toBe("{}\n");
    expect(shell.note).toMatch(/cut past (2000|1) characters|cannot be judged/);
    const next = await runHook("gemini-cli", call(cwd, "read_file", "x\n"), where);
    expect(next.reply).toContain("USER-GLOB-RULE");
  });

  it("a settings file past 1 MiB is not read, and taken as the smallest cut", async () => {
    const { cwd, where } = setup(
      "NESTED: no default exports.\n",
      `{ "tools": { "truncateToolOutputThreshold": 2000 } }${" ".repeat(1024 * 1024)}`,
    );
    const shell = await runHook("gemini-cli", call(cwd, "run_shell_command", "ok\n"), where);
    expect(shell.reply).toBe("{}\n");
    expect(shell.note).toMatch(/cannot be judged .*longer than 1048576 bytes/);
  });

  it("coerces a threshold as Gemini CLI's Math.min does", async () => {
    const base = tempDir();
    const cwd = join(base, "p");
    const where = { env: {}, home: join(base, "home") };
    const cut = async (value: string) => {
      writeFiles(base, {
        "p/.gemini/settings.json": `{ "tools": { "truncateToolOutputThreshold": ${value} } }`,
      });
      return (await geminiCut(cwd, where)).kept;
    };
    expect(await cut('" 2500 "')).toBe(2500);
    expect(await cut('"0x7d0"')).toBe(2000);
    expect(await cut('[["1500"]]')).toBe(1500);
    expect(await cut("true")).toBe(1);
    expect(await cut("false")).toBe(40_000);
    expect(await cut("[]")).toBe(40_000);
    expect(await cut("null")).toBe(40_000);
    expect(await cut('"$ 12"')).toBe(0);
    expect(await cut("[1, 2]")).toBe(0);
    expect(await cut('{ "toString": 1 }')).toBe(0);
    expect(await cut('"price: $5"')).toBe(0);
  });
});

// Review rev42b F3 (low): with `experimental.contextManagement` on, Gemini
// CLI 0.61 distills every tool's result but read_file's and
// read_many_files's past 40,000 characters, the hook's text appended (the
// model keeps a fifth of some 30,000 characters' head and four fifths' tail).
// Only a shell command's result was counted: a 66 KB nested AGENTS.md given
// after an edit lost the middle, your glob rule with it, kept as given.
describe("hostile repository: Gemini CLI's context management distills other tools' results", () => {
  const big = `# sub\n\n${"Prefer small functions and clear names, and keep modules focused.\n".repeat(900)}`;
  const cm = '{ "experimental": { "contextManagement": true } }\n';
  it("an edit's result and the text fit in 40,000 characters, the text held to 9,500", async () => {
    const { cwd, where } = setup(big, cm);
    const result = `Found 300 matches\n${"pkg/sub/x.ts:1: export const x=1;\n".repeat(300)}`;
    const { reply } = await runHook("gemini-cli", call(cwd, "replace", result), where);
    const sent = geminiSends(result, reply, false);
    expect(sent.length).toBeLessThanOrEqual(GEMINI_CUT);
    expect(sent).toContain("USER-GLOB-RULE");
  });

  it("a result that leaves no room gets nothing, and the files come with a later call", async () => {
    const { cwd, where } = setup("NESTED: no default exports.\n", cm);
    const result = "y".repeat(39_990);
    const edit = await runHook("gemini-cli", call(cwd, "replace", result), where);
    expect(edit.reply).toBe("{}\n");
    expect(edit.note).toMatch(/distill past 40000 characters/);
    const next = await runHook("gemini-cli", call(cwd, "read_file", "x\n"), where);
    expect(next.reply).toContain("USER-GLOB-RULE");
  });

  it("read_file, which it never distills, still gets the text whole", async () => {
    const { cwd, where } = setup(big, '{ "experimental": { "generalistProfile": "false" } }');
    const { reply } = await runHook("gemini-cli", call(cwd, "read_file", "x\n"), where);
    expect(reply).toContain("USER-GLOB-RULE");
    expect(reply.length).toBeGreaterThan(GEMINI_CUT);
  });
});
