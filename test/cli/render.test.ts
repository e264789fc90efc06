import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import type { RenderResult } from "../../src/types.js";
import {
  copyScenario,
  cwdSection,
  DATE_SECTION,
  DEFAULT_RULES_SECTION,
  DEFAULT_TOOLS_SECTION,
  ENVIRONMENT_SECTION,
  GENERAL_RULES,
  NOW,
  PREAMBLE,
  pinned,
  SHELL_RULE,
  tempDir,
} from "../api/_helpers.js";
import { contextSection } from "../gather/_context-section.js";
import { cli, pinMachine, usageHint } from "./_run.js";

pinMachine();

const projectContext = (root: string) =>
  contextSection([[`${root}/project/AGENTS.md`, "Use pnpm, not npm."]]);

const unknownTool = (name: string) =>
  `info [tool-unknown] tool "${name}" has no description (none in tools.md or toolSnippets), so the tools section cannot say what it does; check the spelling, or describe it (--tool ${name}=text, toolSnippets)\n`;

const TEAM = "<team>\nTeam: platform.\n</team>";

const userCwd = (root: string) =>
  `<cwd>\nCurrent working directory: ${root}/project\nUser note: keep scratch files in /tmp.\n</cwd>`;

const layered = () => copyScenario("cli", "project-with-layers");

describe("sysprompt render", () => {
  it("prints the prompt, byte for byte (no newline added into a pipe); no diagnostics, exit 0", async () => {
    const root = layered();
    expect(await cli(root, ["render"])).toEqual({
      code: 0,
      stdout: `${[
        PREAMBLE,
        DEFAULT_TOOLS_SECTION,
        DEFAULT_RULES_SECTION,
        TEAM,
        projectContext(root),
        userCwd(root),
        ENVIRONMENT_SECTION,
        DATE_SECTION,
      ].join("\n\n")}`,
      stderr: "",
    });
  });

  it("--json prints exactly the RenderResult of the same options", async () => {
    const root = layered();
    const { code, stdout, stderr } = await cli(root, ["render", "--json"]);
    const printed = JSON.parse(stdout) as RenderResult;
    const expected = await renderSystemPrompt(
      pinned(root, { home: join(root, "home"), machine: { platform: "linux", arch: "x64" } }),
    );
    const noMs = (r: RenderResult) => ({ ...r, steps: r.steps.map((s) => ({ ...s, ms: 0 })) });
    expect([code, stderr]).toEqual([0, ""]);
    expect(Object.keys(printed)).toEqual(["text", "blocks", "sections", "diagnostics", "steps"]);
    expect(noMs(printed)).toEqual(noMs(expected));
    expect(stdout).toBe(`${JSON.stringify(printed, null, 2)}\n`);
  });

  it("--section NAME prints only that section", async () => {
    expect(await cli(layered(), ["render", "--section", "team"])).toEqual({
      code: 0,
      stdout: TEAM,
      stderr: "",
    });
  });

  it("an unknown --section is exit 2 and names the sections there are", async () => {
    expect(await cli(layered(), ["render", "--section", "nope"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: no section "nope" in this prompt; it has: preamble, tools, rules, team, project_context, cwd, environment, date\n${usageHint("render")}`,
    });
  });

  it("an unknown flag is exit 2 with the error and the usage line on stderr", async () => {
    expect(await cli(layered(), ["render", "--bogus"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: unknown option '--bogus'\n${usageHint("render")}`,
    });
  });

  it("--system-prompt naming a folder is exit 2", async () => {
    expect(await cli(layered(), ["render", "--system-prompt", "./prompts-folder"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --system-prompt: "./prompts-folder" exists but is not a file; pass a text file or the prompt text itself\n${usageHint("render")}`,
    });
  });

  it("--system-prompt / --append-system-prompt naming a missing file is exit 2, not the prompt", async () => {
    const root = layered();
    for (const flag of ["--system-prompt", "--append-system-prompt"]) {
      expect(await cli(root, ["render", flag, "./prompts/sytem.md"])).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: ${flag}: "./prompts/sytem.md" looks like a file name but there is no file at ${root}/project/prompts/sytem.md; fix the path, or, to use the value as text, give it a line break (text with a line break is never read as a path)\n${usageHint("render")}`,
      });
    }
  });

  it("--now that is not a date is exit 2", async () => {
    const message = (value: string) =>
      `--now: "${value}" is not an ISO 8601 date or time; pass one such as 2026-01-31 or 2026-01-31T12:00:00Z (a time without an offset is UTC)`;
    const cases = ["bad", "15/01/2026", "2026-02-30"].map((v) => [v, message(v)] as const);
    for (const [bad, message] of cases) {
      expect(await cli(layered(), ["render", "--now", bad], false)).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: ${message}\n${usageHint("render")}`,
      });
    }
  });

  it("--tools picks and orders tools; --tool name=text adds or replaces a description", async () => {
    const { code, stdout } = await cli(layered(), [
      "render",
      "--tools",
      "grep, read,deploy",
      "--tool",
      "deploy=Deploy to staging.",
      "--tool",
      "read=Read a file = with equals kept.",
      "--section",
      "tools",
    ]);
    expect([code, stdout]).toEqual([
      0,
      "<tools>\nTools you can call:\n- grep: Search file contents for a pattern, honouring .gitignore.\n- read: Read a file = with equals kept.\n- deploy: Deploy to staging.\n</tools>",
    ]);
  });

  it("--tools with a name nothing describes: an info diagnostic, not a silent drop", async () => {
    expect(await cli(layered(), ["render", "--tools", "read,grpe", "--section", "tools"])).toEqual({
      code: 0,
      stdout:
        "<tools>\nTools you can call:\n- read: Read a file's contents; long files can be read in parts.\n</tools>",
      stderr: unknownTool("grpe"),
    });
  });

  it("--cwd that does not exist or is a file, and an --agent-dir that does not exist, are exit 2", async () => {
    const root = layered();
    const agentMissing = join(root, "no-agent");
    const cases: [string[], string][] = [
      [
        ["--cwd", "nowhere"],
        `cwd: there is no folder at ${root}/project/nowhere; pass the project's folder`,
      ],
      [
        ["--cwd", "../agent/sections/cwd.md"],
        `cwd: not a folder at ${root}/agent/sections/cwd.md; pass the project's folder`,
      ],
      [
        ["--agent-dir", agentMissing],
        `agentDir: there is no folder at ${agentMissing}; pass an existing folder, or leave it out for $SYSPROMPT_AGENT_DIR or ~/.pi/agent`,
      ],
    ];
    for (const [flags, message] of cases) {
      for (const command of ["render", "sections", "list", "expand"]) {
        const args = command === "expand" ? [command, ...flags, "/x"] : [command, ...flags];
        expect(await cli(root, args, false)).toEqual({
          code: 2,
          stdout: "",
          stderr: `sysprompt: ${message}\n${usageHint(command, command === "expand" ? "[options] <text>" : "[options]")}`,
        });
      }
    }
  });

  it("relative --cwd and --agent-dir are relative to where the command runs, not to each other", async () => {
    const root = layered();
    const elsewhere = tempDir();
    mkdirSync(join(elsewhere, "project"));
    const { code, stdout } = await cli(
      root,
      [
        "render",
        "--cwd",
        join(elsewhere, "project"),
        "--agent-dir",
        "../agent",
        "--now",
        NOW,
        "--section",
        "cwd",
      ],
      false,
    );
    expect([code, stdout]).toEqual([0, userCwd(join(elsewhere))]);
  });

  it("--tool without = is exit 2", async () => {
    expect(await cli(layered(), ["render", "--tool", "deploy"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: --tool expects name=description, got "deploy"\n${usageHint("render")}`,
    });
  });

  it("--tools constructor renders (it used to crash)", async () => {
    expect(
      await cli(layered(), ["render", "--tools", "constructor", "--section", "tools"]),
    ).toEqual({
      code: 0,
      stdout: "<tools>\nTools you can call: constructor.\n</tools>",
      stderr: unknownTool("constructor"),
    });
  });

  it("--guideline adds rules after the tool rules; --model is stated in the environment", async () => {
    const root = layered();
    const rules = await cli(root, [
      "render",
      "--guideline",
      "Answer briefly.",
      "--section",
      "rules",
    ]);
    expect(rules.stdout).toBe(
      `<rules>\nRules:\n${[SHELL_RULE, "Answer briefly.", ...GENERAL_RULES].map((r) => `- ${r}`).join("\n")}\n</rules>`,
    );
    const env = await cli(root, ["render", "--model", "model-x", "--section", "environment"]);
    expect(env.stdout).toBe(
      "<environment>\n- Operating system: Linux\n- Architecture: x64\n- Model: model-x\n</environment>",
    );
  });

  it("--system-prompt text and repeated --append-system-prompt", async () => {
    const root = layered();
    const { code, stdout } = await cli(root, [
      "render",
      "--system-prompt",
      "You are terse.",
      "--append-system-prompt",
      "One.",
      "--append-system-prompt",
      "Two.",
      "--no-context-files",
    ]);
    expect([code, stdout]).toEqual([
      0,
      `${[
        "You are terse.",
        "<addendum>\nOne.\n\nTwo.\n\n</addendum>",
        TEAM,
        userCwd(root),
        ENVIRONMENT_SECTION,
        DATE_SECTION,
      ].join("\n\n")}`,
    ]);
  });

  it("--untrusted drops the project's sections (context files stay) and says so on stderr", async () => {
    const root = layered();
    expect(await cli(root, ["render", "--untrusted"])).toEqual({
      code: 0,
      stdout: `${[
        PREAMBLE,
        DEFAULT_TOOLS_SECTION,
        DEFAULT_RULES_SECTION,
        projectContext(root),
        userCwd(root),
        ENVIRONMENT_SECTION,
        DATE_SECTION,
      ].join("\n\n")}`,
      stderr: `info [project-untrusted] project is not trusted: ${root}/project/.pi (SYSTEM, APPEND, sections, skills) skipped; context files still load\n`,
    });
  });

  it("--no-context-files leaves out project_context", async () => {
    const root = layered();
    const { code, stdout } = await cli(root, ["render", "--no-context-files"]);
    expect([code, stdout]).toEqual([
      0,
      `${[
        PREAMBLE,
        DEFAULT_TOOLS_SECTION,
        DEFAULT_RULES_SECTION,
        TEAM,
        userCwd(root),
        ENVIRONMENT_SECTION,
        DATE_SECTION,
      ].join("\n\n")}`,
    ]);
  });

  it("--cwd renders another folder; a broken override prints the builtin section and a located diagnostic, exit 0", async () => {
    const root = copyScenario("cli", "bad-override");
    const elsewhere = copyScenario("cli", "project-with-layers");
    const result = await cli(elsewhere, [
      "render",
      "--cwd",
      join(root, "project"),
      "--section",
      "tools",
    ]);
    expect(result).toEqual({
      code: 0,
      stdout: DEFAULT_TOOLS_SECTION,
      stderr: `error ${root}/project/.pi/sections/tools.md:5:1 [template] Block "each" is never closed: expected {{/each}}; the builtin version is used instead\n`,
    });
    expect(cwdSection(join(root, "project"))).toBe(
      `<cwd>\nCurrent working directory: ${root}/project\n</cwd>`,
    );
  });
});

describe("the home folder given to the CLI", () => {
  it("is where the default agent dir and ~/.agents/skills are read from, not the real home", async () => {
    const root = copyScenario("cli", "home-from-io");
    const section = async (name: string) =>
      (await cli(root, ["render", "--now", "2026-01-15T10:00:00Z", "--section", name], false))
        .stdout;
    expect([await section("team"), await section("skills")]).toEqual([
      "<team>\nFrom the default agent dir under the given home.\n</team>",
      [
        "<skills>",
        "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
        "When the task in front of you matches a skill's description, open the file at its location with the read tool before you begin, and follow what it says.",
        "Paths written inside a skill are relative to the folder that holds its file.",
        "",
        "<available_skills>",
        "  <skill>",
        "    <name>release-notes</name>",
        "    <description>Write release notes from the git log.</description>",
        `    <location>${root}/home/.agents/skills/release-notes/SKILL.md</location>`,
        "  </skill>",
        "</available_skills>",
        "",
        "</skills>",
      ].join("\n"),
    ]);
  });
});
