import { describe, expect, it } from "vitest";
import { cli, copyScenario } from "./_helpers.js";

const SCENARIO = "untrusted-project-skipped";

function skippedStderr(root: string): string {
  return [
    `info ${root}/project/.pi/prompts [project-untrusted] project prompt templates skipped: the project is not trusted`,
    `info ${root}/project/.pi/skills [project-untrusted] project skills skipped because the project is not trusted`,
    `info ${root}/project/.agents/skills [project-untrusted] project skills skipped because the project is not trusted`,
    "",
  ].join("\n");
}

describe("--untrusted", () => {
  it("list: trusted, the project's templates and skills (.pi and .agents) are listed", async () => {
    const root = copyScenario(SCENARIO);
    expect(await cli(root, ["list", "--agent-dir", "ROOT/agent"])).toEqual({
      code: 0,
      stdout: [
        "Templates",
        `  /project-only  Only in the project: $1  project ${root}/project/.pi/prompts/project-only.md`,
        `  /shared        The project version: $@  project ${root}/project/.pi/prompts/shared.md`,
        "",
        "Skills",
        `  project-skill  A project skill.        project ${root}/project/.pi/skills/project-skill/SKILL.md`,
        `  agents-skill   A skill under .agents.  project ${root}/project/.agents/skills/agents-skill/SKILL.md`,
        `  user-skill     A user skill.           user ${root}/agent/skills/user-skill/SKILL.md`,
        "",
      ].join("\n"),
      stderr: `warning ${root}/project/.pi/prompts/shared.md [user-text-left-out] your prompt template "/shared" (${root}/agent/prompts/shared.md) is left out: the project's ${root}/project/.pi/prompts/shared.md of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back\n`,
    });
  });

  it("list: untrusted, only the user's templates and skills, and a note per skipped folder", async () => {
    const root = copyScenario(SCENARIO);
    expect(await cli(root, ["list", "--untrusted", "--agent-dir", "ROOT/agent"])).toEqual({
      code: 0,
      stdout: [
        "Templates",
        `  /shared  The user version: $@  user ${root}/agent/prompts/shared.md`,
        "",
        "Skills",
        `  user-skill  A user skill.  user ${root}/agent/skills/user-skill/SKILL.md`,
        "",
      ].join("\n"),
      stderr: skippedStderr(root),
    });
  });

  it("list --json: untrusted, the skipped folders are info diagnostics", async () => {
    const root = copyScenario(SCENARIO);
    const outcome = await cli(root, ["list", "--json", "--untrusted", "--agent-dir", "ROOT/agent"]);
    expect([outcome.code, outcome.stderr]).toEqual([0, ""]);
    expect(JSON.parse(outcome.stdout)).toEqual({
      templates: [
        {
          name: "shared",
          description: "The user version: $@",
          content: "The user version: $@\n",
          filePath: `${root}/agent/prompts/shared.md`,
          source: "user",
        },
      ],
      skills: [
        {
          name: "user-skill",
          description: "A user skill.",
          filePath: `${root}/agent/skills/user-skill/SKILL.md`,
          baseDir: `${root}/agent/skills/user-skill`,
          disableModelInvocation: false,
          source: "user",
        },
      ],
      rules: [],
      diagnostics: [
        {
          level: "info",
          code: "project-untrusted",
          message: "project prompt templates skipped: the project is not trusted",
          path: `${root}/project/.pi/prompts`,
        },
        {
          level: "info",
          code: "project-untrusted",
          message: "project skills skipped because the project is not trusted",
          path: `${root}/project/.pi/skills`,
        },
        {
          level: "info",
          code: "project-untrusted",
          message: "project skills skipped because the project is not trusted",
          path: `${root}/project/.agents/skills`,
        },
      ],
    });
  });

  it("expand: a name both define is the project's when trusted, the user's when not", async () => {
    const root = copyScenario(SCENARIO);
    expect(await cli(root, ["expand", "--agent-dir", "ROOT/agent", "/shared a b"])).toEqual({
      code: 0,
      stdout: "The project version: a b\n",
      stderr: `warning ${root}/project/.pi/prompts/shared.md [user-text-left-out] your prompt template "/shared" (${root}/agent/prompts/shared.md) is left out: the project's ${root}/project/.pi/prompts/shared.md of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back\n`,
    });
    expect(
      await cli(root, ["expand", "--untrusted", "--agent-dir", "ROOT/agent", "/shared a b"]),
    ).toEqual({
      code: 0,
      stdout: "The user version: a b\n",
      stderr: skippedStderr(root),
    });
  });

  it.each([
    [
      "a project-only template",
      "/project-only x",
      'no prompt template or skill is called "project-only"',
    ],
    ["a project skill", "/skill:project-skill x", 'no skill is called "project-skill"'],
    ["a .agents skill", "/skill:agents-skill x", 'no skill is called "agents-skill"'],
  ])(
    "expand: %s is not expanded: the name is unknown (exit 2), after the note on what was skipped",
    async (_, text, unknown) => {
      const root = copyScenario(SCENARIO);
      expect(await cli(root, ["expand", "--untrusted", "--agent-dir", "ROOT/agent", text])).toEqual(
        {
          code: 2,
          stdout: "",
          stderr: `${skippedStderr(root)}sysprompt: ${unknown}; \`sysprompt list\` shows the names there are\nUsage: sysprompt expand [options] <text>; see \`sysprompt expand --help\`.\n`,
        },
      );
    },
  );

  it("expand: the user's skills still expand", async () => {
    const root = copyScenario(SCENARIO);
    const file = `${root}/agent/skills/user-skill/SKILL.md`;
    expect(
      await cli(root, [
        "expand",
        "--untrusted",
        "--agent-dir",
        "ROOT/agent",
        "/skill:user-skill go",
      ]),
    ).toEqual({
      code: 0,
      stdout: [
        `<skill name="user-skill" location="${file}">`,
        `The user asked to apply the skill "user-skill" (${file}).`,
        `Paths written inside it are relative to its folder: ${root}/agent/skills/user-skill`,
        "",
        "User skill body.",
        "",
        "</skill>",
        "",
        "The user's request:",
        "go",
      ].join("\n"),
      stderr: skippedStderr(root),
    });
  });
});
