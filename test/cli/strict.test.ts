import { describe, expect, it } from "vitest";
import { copyScenario, DEFAULT_TOOLS_SECTION } from "../api/_helpers.js";
import {
  collisionsAndBadFilesStderr,
  copyScenario as copyResources,
  cli as resourcesCli,
} from "../resources/_helpers.js";
import { cli, pinMachine } from "./_run.js";

pinMachine();

const templateError = (root: string) =>
  `error ${root}/project/.pi/sections/tools.md:5:1 [template] Block "each" is never closed: expected {{/each}}; the builtin version is used instead\n`;

describe("exit codes: 0 with diagnostics on stderr; 1 under --strict when an error was reported", () => {
  it("render prints the prompt either way; --strict turns an error diagnostic into exit 1", async () => {
    const root = copyScenario("cli", "bad-override");
    const args = ["render", "--section", "tools"];
    const expected = { stdout: DEFAULT_TOOLS_SECTION, stderr: templateError(root) };
    expect(await cli(root, args)).toEqual({ code: 0, ...expected });
    expect(await cli(root, [...args, "--strict"])).toEqual({ code: 1, ...expected });
    expect((await cli(root, ["render", "--json", "--strict"])).code).toBe(1);
  });

  it("render --strict without errors is 0, warnings and infos included", async () => {
    const root = copyScenario("cli", "project-with-layers");
    const outcome = await cli(root, ["render", "--strict", "--tools", "read,grpe", "--untrusted"]);
    expect([outcome.code, outcome.stderr.split("\n").map((l) => l.split(" ")[0])]).toEqual([
      0,
      ["info", "info", ""],
    ]);
  });

  it("sections reports the templates' render errors too, and --strict exits 1", async () => {
    const root = copyScenario("cli", "bad-override");
    const plain = await cli(root, ["sections"]);
    expect([plain.code, plain.stderr]).toEqual([0, templateError(root)]);
    const strict = await cli(root, ["sections", "--strict"]);
    expect([strict.code, strict.stdout, strict.stderr]).toEqual([1, plain.stdout, plain.stderr]);
  });

  it("list and expand: --strict exits 1 when a template or skill had an error", async () => {
    const root = copyResources("list-reports-collisions-and-bad-files");
    for (const command of [["list"], ["list", "--json"], ["expand", "/review a.ts"]]) {
      const args = [...command, "--agent-dir", "ROOT/agent"];
      const plain = await resourcesCli(root, args);
      const strict = await resourcesCli(root, [...args, "--strict"]);
      expect([plain.code, strict.code, strict.stdout]).toEqual([0, 1, plain.stdout]);
      if (!command.includes("--json"))
        expect(strict.stderr).toBe(collisionsAndBadFilesStderr(root));
    }
  });
});
