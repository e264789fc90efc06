import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RenderedSection } from "../../src/types.js";
import { builtinSection, copyScenario, cwdSection } from "../api/_helpers.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

const scenario = () => copyScenario("cli", "section-reasons");

const notesError = (root: string) =>
  `error ${root}/project/.pi/sections/notes.md:5:1 [template] Block "each" is never closed: expected {{/each}}; the section is left out\n`;

describe("render --section NAME when the section is not in the prompt says why", () => {
  it("failed: its diagnostics, then the reason; exit 1 (nothing on stdout), --strict or not", async () => {
    const root = scenario();
    const stderr = `${notesError(root)}sysprompt: section "notes" failed to render (see the error above) and no version below it took its place, so it is left out\n`;
    expect(await cli(root, ["render", "--section", "notes"])).toEqual({
      code: 1,
      stdout: "",
      stderr,
    });
    expect(await cli(root, ["render", "--section", "notes", "--strict"])).toEqual({
      code: 1,
      stdout: "",
      stderr,
    });
  });

  it("disabled, rendered empty, replaced by a custom base prompt: exit 1, nothing on stdout", async () => {
    const root = scenario();
    expect(await cli(root, ["render", "--section", "environment"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `sysprompt: section "environment" is disabled (enabled: false; file ${root}/project/.pi/sections/environment.md), so it is left out\n`,
    });
    expect(await cli(root, ["render", "--section", "empty"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `sysprompt: section "empty" rendered empty with this data (file ${root}/project/.pi/sections/empty.md), so it is left out\n`,
    });
    expect(
      await cli(root, ["render", "--section", "rules", "--system-prompt", "Be terse."]),
    ).toEqual({
      code: 1,
      stdout: "",
      stderr: `sysprompt: section "rules" is a base section, replaced by the custom base prompt (option), so it is left out\n`,
    });
  });

  it("an unknown name is still exit 2, naming the sections there are", async () => {
    expect(await cli(scenario(), ["render", "--section", "nope"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: no section "nope" in this prompt; it has: preamble, tools, rules, cwd, date\n${usageHint("render")}`,
    });
  });

  it("stderr carries only the diagnostics of that section", async () => {
    const root = scenario();
    expect(await cli(root, ["render", "--section", "cwd"])).toEqual({
      code: 0,
      stdout: cwdSection(join(root, "project")),
      stderr: "",
    });
  });
});

describe("render --json --section NAME", () => {
  it("prints that section's object", async () => {
    const root = scenario();
    const { code, stdout, stderr } = await cli(root, ["render", "--json", "--section", "cwd"]);
    expect([code, stderr]).toEqual([0, ""]);
    expect(JSON.parse(stdout)).toEqual({
      name: "cwd",
      text: cwdSection(join(root, "project")),
      source: { layer: "builtin", path: builtinSection("cwd") },
    } satisfies RenderedSection);
    expect(stdout).toBe(`${JSON.stringify(JSON.parse(stdout), null, 2)}\n`);
  });

  it("prints null for a section that is not in the prompt, with the reason on stderr; exit 1", async () => {
    const root = scenario();
    expect(await cli(root, ["render", "--json", "--section", "notes"])).toEqual({
      code: 1,
      stdout: "null\n",
      stderr: `${notesError(root)}sysprompt: section "notes" failed to render (see the error above) and no version below it took its place, so it is left out\n`,
    });
  });
});
