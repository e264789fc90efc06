import { describe, expect, it } from "vitest";
import { cli, collisionsAndBadFilesStderr, copyScenario } from "./_helpers.js";

const SCENARIO = "commands-from-both-layers";

/** `sysprompt expand --agent-dir <root>/agent …` in the scenario's project. */
async function expand(root: string, ...args: string[]) {
  return cli(root, ["expand", "--agent-dir", "ROOT/agent", ...args]);
}

describe("sysprompt expand", () => {
  it("expands a user template, arguments parsed and substituted", async () => {
    const root = copyScenario(SCENARIO);
    expect(await expand(root, `/review src/a.ts "error handling"`)).toEqual({
      code: 0,
      stdout:
        "Review src/a.ts with a focus on error handling.\nEverything you were given: src/a.ts error handling\n",
      stderr: "",
    });
  });

  it("uses a template's default when an argument is missing", async () => {
    const root = copyScenario(SCENARIO);
    expect(await expand(root, "/review src/a.ts")).toEqual({
      code: 0,
      stdout: "Review src/a.ts with a focus on correctness.\nEverything you were given: src/a.ts\n",
      stderr: "",
    });
  });

  it("expands a project template: its text as the template ends it, whatever the input ends with", async () => {
    const root = copyScenario(SCENARIO);
    expect(await expand(root, "/fix   it crashes\non empty input\n")).toEqual({
      code: 0,
      stdout:
        "Fix the bug described here, and add a test that fails without the fix: it crashes on empty input\n",
      stderr: "",
    });
  });

  it("expands /skill:name with the skill's body, then the rest as the user's request", async () => {
    const root = copyScenario(SCENARIO);
    const file = `${root}/project/.pi/skills/pdf/SKILL.md`;
    expect(await expand(root, "/skill:pdf fill in the W-9\nwith my data")).toEqual({
      code: 0,
      stdout: [
        `<skill name="pdf" location="${file}">`,
        `The user asked to apply the skill "pdf" (${file}).`,
        `Paths written inside it are relative to its folder: ${root}/project/.pi/skills/pdf`,
        "",
        "# PDF forms",
        "",
        "Run `scripts/fill.py` with the form and a JSON file of values.",
        "",
        "</skill>",
        "",
        "The user's request:",
        "fill in the W-9",
        "with my data",
      ].join("\n"),
      stderr: "",
    });
  });

  it("expands a hidden skill too: hidden only keeps it out of the prompt", async () => {
    const root = copyScenario(SCENARIO);
    const file = `${root}/agent/skills/secret/SKILL.md`;
    expect(await expand(root, "/skill:secret")).toEqual({
      code: 0,
      stdout: [
        `<skill name="secret" location="${file}">`,
        `The user asked to apply the skill "secret" (${file}).`,
        `Paths written inside it are relative to its folder: ${root}/agent/skills/secret`,
        "",
        "Follow `runbook.md` step by step.",
        "",
        "</skill>",
      ].join("\n"),
      stderr: "",
    });
  });

  it.each([
    ["an unknown skill", "/skill:pfd do it", 'no skill is called "pfd"; did you mean /skill:pdf?'],
    [
      "an unknown template",
      "/reveiw do it",
      'no prompt template or skill is called "reveiw"; did you mean /review?',
    ],
    [
      "a skill named without skill:",
      "/pdf",
      'no prompt template or skill is called "pdf"; did you mean /skill:pdf?',
    ],
    [
      "a name like none",
      "/nothere x",
      'no prompt template or skill is called "nothere"; `sysprompt list` shows the names there are',
    ],
  ])(
    "is a usage error for %s: exit 2, nothing on stdout, the near matches on stderr",
    async (_, text, message) => {
      const root = copyScenario(SCENARIO);
      const stderr = `sysprompt: ${message}\nUsage: sysprompt expand [options] <text>; see \`sysprompt expand --help\`.\n`;
      expect(await expand(root, text)).toEqual({ code: 2, stdout: "", stderr });
      expect(await expand(root, text, "--strict")).toEqual({ code: 2, stdout: "", stderr });
    },
  );

  it.each([
    ["plain text", "please review src/a.ts"],
    ["a path", "/usr/bin/env node"],
    ["a slash not at the start", "see /review"],
    ["a lone slash", "/ review"],
  ])("prints %s unchanged", async (_, text) => {
    const root = copyScenario(SCENARIO);
    expect(await expand(root, text)).toEqual({ code: 0, stdout: text, stderr: "" });
  });

  it("resolves --cwd against the current folder", async () => {
    const root = copyScenario(SCENARIO);
    const outcome = await cli(root, [
      "expand",
      "--cwd",
      "../project",
      "--agent-dir",
      "ROOT/agent",
      "/fix x",
    ]);
    expect(outcome).toEqual({
      code: 0,
      stdout: "Fix the bug described here, and add a test that fails without the fix: x\n",
      stderr: "",
    });
  });

  it("takes the agent dir from $SYSPROMPT_AGENT_DIR when --agent-dir is not given", async () => {
    const root = copyScenario(SCENARIO);
    expect(
      await cli(root, ["expand", "/review a.ts"], { SYSPROMPT_AGENT_DIR: `${root}/agent` }),
    ).toEqual({
      code: 0,
      stdout: "Review a.ts with a focus on correctness.\nEverything you were given: a.ts\n",
      stderr: "",
    });
  });

  it("prints the loaders' diagnostics on stderr, after the expansion on stdout", async () => {
    const root = copyScenario("list-reports-collisions-and-bad-files");
    expect(await expand(root, "/review src/x.ts")).toEqual({
      code: 0,
      stdout: "Project review of src/x.ts\n",
      stderr: collisionsAndBadFilesStderr(root),
    });
  });

  it("is a usage error without text", async () => {
    const root = copyScenario(SCENARIO);
    const outcome = await expand(root);
    expect([outcome.code, outcome.stdout]).toEqual([2, ""]);
    expect(outcome.stderr.startsWith("sysprompt: missing required argument 'text'\n")).toBe(true);
  });
});
