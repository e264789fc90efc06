import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";

// Every usage error (exit 2), whether commander finds it (a mistyped flag or
// command) or a command does after parsing (a bad value, a missing folder),
// prints the same two lines on stderr: the mistake, then the command's usage
// and where its help is. Not the whole help, which buries the one line that
// matters; nothing on stdout.

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    cwd: "/nonexistent-for-usage-tests",
    env: {},
  });
  return { code, stdout, stderr };
}

const hint = (command: string, usage = "[options]") =>
  `Usage: sysprompt ${command}${command ? " " : ""}${usage}; see \`sysprompt ${command}${command ? " " : ""}--help\`.\n`;

describe("a usage error", () => {
  const cases: [string[], string][] = [
    [["render", "--bogus"], `sysprompt: unknown option '--bogus'\n${hint("render")}`],
    [
      ["check", "--strikt"],
      `sysprompt: unknown option '--strikt' (did you mean --strict?)\n${hint("check")}`,
    ],
    [
      ["expand"],
      `sysprompt: missing required argument 'text'\n${hint("expand", "[options] <text>")}`,
    ],
    [["render", "--cwd"], `sysprompt: option '--cwd <dir>' argument missing\n${hint("render")}`],
    [
      ["snapshot", "a", "b"],
      `sysprompt: too many arguments for 'snapshot'. Expected 1 argument but got 2.\n${hint("snapshot", "[options] [dir]")}`,
    ],
    [
      ["rendr"],
      `sysprompt: unknown command 'rendr' (did you mean render?)\n${hint("", "[options] [command]")}`,
    ],
    [["--verbose"], `sysprompt: unknown option '--verbose'\n${hint("", "[options] [command]")}`],
    // Found by the command after parsing: the same shape.
    [
      ["render", "--cwd", "/", "--deadline", "soon"],
      `sysprompt: --deadline expects a whole number of milliseconds, 0 or more, such as 5000, got "soon"\n${hint("render")}`,
    ],
    [
      ["sections", "--cwd", "/nonexistent-for-usage-tests/x"],
      `sysprompt: cwd: there is no folder at /nonexistent-for-usage-tests/x; pass the project's folder\n${hint("sections")}`,
    ],
    [
      ["render", "--cwd", "/", "--format", "html"],
      `sysprompt: --format: unknown format "html"; use text, anthropic or openai\n${hint("render")}`,
    ],
    [
      ["serve", "--cwd", "/", "--port", "http"],
      `sysprompt: --port expects a number from 0 to 65535, got "http"\n${hint("serve")}`,
    ],
  ];
  for (const [argv, stderr] of cases) {
    it(`\`sysprompt ${argv.join(" ")}\` prints the mistake and one hint line; exit 2`, async () => {
      expect(await cli(argv)).toEqual({ code: 2, stdout: "", stderr });
    });
  }

  it("leaves --help whole, on stdout, exit 0", async () => {
    const { code, stdout, stderr } = await cli(["render", "--help"]);
    expect([code, stderr]).toEqual([0, ""]);
    expect(
      stdout.startsWith("Usage: sysprompt render [options]\n\nprint the system prompt\n"),
    ).toBe(true);
    expect(stdout).toContain("--system-prompt <text|file>");
  });
});
