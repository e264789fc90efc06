import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";

// A mistyped flag or command is answered with the mistake, the one usage line
// of the command it was given to and where the rest is, on stderr, exit 2: not
// the whole help, which buries the one line that matters.

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

describe("a usage error", () => {
  const cases: [string[], string][] = [
    [
      ["render", "--bogus"],
      "error: unknown option '--bogus'\nUsage: sysprompt render [options]\nSee `sysprompt render --help`.\n",
    ],
    [
      ["check", "--strikt"],
      "error: unknown option '--strikt'\n(Did you mean --strict?)\nUsage: sysprompt check [options]\nSee `sysprompt check --help`.\n",
    ],
    [
      ["expand"],
      "error: missing required argument 'text'\nUsage: sysprompt expand [options] <text>\nSee `sysprompt expand --help`.\n",
    ],
    [
      ["render", "--cwd"],
      "error: option '--cwd <dir>' argument missing\nUsage: sysprompt render [options]\nSee `sysprompt render --help`.\n",
    ],
    [
      ["snapshot", "a", "b"],
      "error: too many arguments for 'snapshot'. Expected 1 argument but got 2.\nUsage: sysprompt snapshot [options] [dir]\nSee `sysprompt snapshot --help`.\n",
    ],
    [
      ["rendr"],
      "error: unknown command 'rendr'\n(Did you mean render?)\nUsage: sysprompt [options] [command]\nSee `sysprompt --help`.\n",
    ],
    [
      ["--verbose"],
      "error: unknown option '--verbose'\nUsage: sysprompt [options] [command]\nSee `sysprompt --help`.\n",
    ],
  ];
  for (const [argv, stderr] of cases) {
    it(`\`sysprompt ${argv.join(" ")}\` prints the error, the usage line and "see --help"; exit 2`, async () => {
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
