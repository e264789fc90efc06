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

  it("has the same shape for every command sysprompt --help lists, from commander or after parsing", async () => {
    const help = (await cli(["--help"])).stdout;
    // "  name [options] <arg>   what it does": each command's name and usage, as help shows them.
    const commands = [
      ...help.slice(help.indexOf("Commands:")).matchAll(/^ {2}([a-z]+) (.+?) {2,}/gm),
    ]
      .map((m) => [m[1] ?? "", m[2] ?? ""] as const)
      .filter(([name]) => name !== "help");
    expect(commands.map(([name]) => name)).toEqual([
      "render",
      "sections",
      "explain",
      "watch",
      "export",
      "hook",
      "expand",
      "list",
      "check",
      "eject",
      "snapshot",
      "serve",
    ]);
    for (const [name, usage] of commands) {
      // hook's usage shows no [options] in the list, but its own usage line does.
      const own = name === "hook" ? "[options] <agent>" : usage;
      expect(await cli([name, "x", "--bogus"])).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: unknown option '--bogus'\n${hint(name, own)}`,
      });
    }
    // Mistakes a command finds itself, after commander: the same two lines.
    const found: [string[], string, string][] = [
      [["hook", "nope"], "hook", "[options] <agent>"],
      [["watch", "--cwd", "/", "--out", "x.md"], "watch", "[options]"],
      [["snapshot", "/nonexistent-for-usage-tests"], "snapshot", "[options] [dir]"],
      [["export", "--cwd", "/", "--no-config"], "export", "[options]"],
      [["eject", "--cwd", "/"], "eject", "[options] [names...]"],
      [["explain", "--cwd", "/nonexistent-for-usage-tests"], "explain", "[options]"],
    ];
    for (const [argv, name, usage] of found) {
      const out = await cli(argv);
      expect([out.code, out.stdout, out.stderr.split("\n").length]).toEqual([2, "", 3]);
      expect(out.stderr.startsWith("sysprompt: ")).toBe(true);
      expect(out.stderr.endsWith(hint(name, usage))).toBe(true);
    }
  });

  it("leaves --help whole, on stdout, exit 0", async () => {
    const { code, stdout, stderr } = await cli(["render", "--help"]);
    expect([code, stderr]).toEqual([0, ""]);
    expect(
      stdout.startsWith("Usage: sysprompt render [options]\n\nprint the system prompt\n"),
    ).toBe(true);
    expect(stdout).toContain("--system-prompt <text|file>");
  });
});
