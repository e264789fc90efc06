import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";

async function help(argv: string[]): Promise<{ code: number; out: string }> {
  let out = "";
  const code = await run(argv, {
    stdout: (text) => {
      out += text;
    },
    stderr: (text) => {
      out += text;
    },
    cwd: "/",
    env: {},
  });
  return { code, out };
}

describe("--help", () => {
  it("every command's help ends with at least one example", async () => {
    const { out: top } = await help(["--help"]);
    const commands = [...top.matchAll(/^ {2}([a-z]+)\b/gm)]
      .map((m) => m[1] as string)
      .filter((c) => c !== "help");
    expect(commands.length).toBeGreaterThanOrEqual(9);
    for (const command of commands) {
      const { code, out } = await help([command, "--help"]);
      expect([command, code, /\nExample:\n {2}\$ sysprompt /.test(out)]).toEqual([
        command,
        0,
        true,
      ]);
    }
  });
});
