import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, collisionsAndBadFilesStderr, copyScenario } from "./_helpers.js";

describe("sysprompt list", () => {
  it("prints templates (argument hints, descriptions, sources) and skills, hidden ones marked", async () => {
    const root = copyScenario("commands-from-both-layers");
    expect(await cli(root, ["list", "--agent-dir", "ROOT/agent"])).toEqual({
      code: 0,
      stdout: [
        "Templates",
        `  /fix                    Fix the bug described here, and add a test that fails withou...  project ${root}/project/.pi/prompts/fix.md`,
        `  /review <file> [focus]  Review a file for one concern                                    user ${root}/agent/prompts/review.md`,
        "",
        "Skills",
        `  pdf              Fill in and read PDF forms.                       project ${root}/project/.pi/skills/pdf/SKILL.md`,
        `  secret (hidden)  Rotate the deploy keys. Only when asked by name.  user ${root}/agent/skills/secret/SKILL.md`,
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("--json prints the loaded templates, skills and diagnostics", async () => {
    const root = copyScenario("commands-from-both-layers");
    const outcome = await cli(root, ["list", "--json", "--agent-dir", "ROOT/agent"]);
    expect([outcome.code, outcome.stderr]).toEqual([0, ""]);
    expect(outcome.stdout.endsWith("}\n")).toBe(true);
    expect(JSON.parse(outcome.stdout)).toEqual({
      templates: [
        {
          name: "fix",
          description: "Fix the bug described here, and add a test that fails withou...",
          content:
            "Fix the bug described here, and add a test that fails without the fix: $ARGUMENTS\n",
          filePath: `${root}/project/.pi/prompts/fix.md`,
          source: "project",
        },
        {
          name: "review",
          description: "Review a file for one concern",
          argumentHint: "<file> [focus]",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: `${2:-…}` is the template's own placeholder.
          content: "Review $1 with a focus on ${2:-correctness}.\nEverything you were given: $@\n",
          filePath: `${root}/agent/prompts/review.md`,
          source: "user",
        },
      ],
      skills: [
        {
          name: "pdf",
          description: "Fill in and read PDF forms.",
          filePath: `${root}/project/.pi/skills/pdf/SKILL.md`,
          baseDir: `${root}/project/.pi/skills/pdf`,
          disableModelInvocation: false,
          source: "project",
        },
        {
          name: "secret",
          description: "Rotate the deploy keys. Only when asked by name.",
          filePath: `${root}/agent/skills/secret/SKILL.md`,
          baseDir: `${root}/agent/skills/secret`,
          disableModelInvocation: true,
          source: "user",
        },
      ],
      rules: [],
      diagnostics: [],
    });
  });

  it("shows collision winners, long descriptions cut, and every problem on stderr", async () => {
    const root = copyScenario("list-reports-collisions-and-bad-files");
    expect(await cli(root, ["list", "--agent-dir", "ROOT/agent"])).toEqual({
      code: 0,
      stdout: [
        "Templates",
        `  /review <path>  The project's review  project ${root}/project/.pi/prompts/review.md`,
        "",
        "Skills",
        `  Bad_Name  A long description that goes on and on about what this skill does, well past ...  project ${root}/project/.pi/skills/Bad_Name/SKILL.md`,
        `  lint      The project's linter.                                                             project ${root}/project/.pi/skills/lint/SKILL.md`,
        "",
      ].join("\n"),
      stderr: collisionsAndBadFilesStderr(root),
    });
  });

  it("--json carries the diagnostics in the object and leaves stderr empty", async () => {
    const root = copyScenario("list-reports-collisions-and-bad-files");
    const outcome = await cli(root, ["list", "--json", "--agent-dir", "ROOT/agent"]);
    expect([outcome.code, outcome.stderr]).toEqual([0, ""]);
    const parsed = JSON.parse(outcome.stdout) as {
      templates: { name: string; source: string }[];
      skills: { name: string; source: string }[];
      diagnostics: unknown[];
    };
    expect(parsed.templates.map((t) => [t.name, t.source])).toEqual([["review", "project"]]);
    expect(parsed.skills.map((s) => [s.name, s.source])).toEqual([
      ["Bad_Name", "project"],
      ["lint", "project"],
    ]);
    expect(parsed.diagnostics).toEqual([
      {
        level: "warning",
        code: "frontmatter-not-mapping",
        message: "prompt template skipped: frontmatter must be a YAML mapping of keys to values",
        path: `${root}/project/.pi/prompts/broken.md`,
        line: 2,
        column: 1,
      },
      {
        level: "warning",
        code: "user-text-left-out",
        message: `your prompt template "/review" (${root}/agent/prompts/review.md) is left out: the project's ${root}/project/.pi/prompts/review.md of the same name takes its place (a trusted project's template of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
        path: `${root}/project/.pi/prompts/review.md`,
      },
      {
        level: "warning",
        code: "skill-name-invalid",
        message: `name "Bad_Name" should use only lowercase letters a-z, digits 0-9 and hyphens`,
        path: `${root}/project/.pi/skills/Bad_Name/SKILL.md`,
      },
      {
        level: "error",
        code: "skill-description-required",
        message: "description is required; skill not loaded",
        path: `${root}/project/.pi/skills/no-description/SKILL.md`,
      },
      {
        level: "warning",
        code: "user-text-left-out",
        message: `your skill "lint" (${root}/agent/skills/lint/SKILL.md) is left out: the project's ${root}/project/.pi/skills/lint/SKILL.md of the same name takes its place (a trusted project's skill of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
        path: `${root}/project/.pi/skills/lint/SKILL.md`,
      },
    ]);
  });

  it("prints (none) for empty lists", async () => {
    const root = copyScenario("skills-section-hidden-only");
    expect(await cli(root, ["list", "--agent-dir", "ROOT/project"])).toEqual({
      code: 0,
      stdout: "Templates\n  (none)\n\nSkills\n  (none)\n",
      stderr: "",
    });
  });
});

describe("where list and expand look for the user layer", () => {
  const SCENARIO = "agent-dir-from-flag-env-or-home";

  it("defaults to <home>/.pi/agent and finds <home>/.agents/skills", async () => {
    const root = copyScenario(SCENARIO);
    expect(await cli(root, ["list"])).toEqual({
      code: 0,
      stdout: [
        "Templates",
        `  /which  From ~/.pi/agent  user ${root}/home/.pi/agent/prompts/which.md`,
        "",
        "Skills",
        `  home-skill  Found in ~/.agents/skills.  user ${root}/home/.agents/skills/home-skill/SKILL.md`,
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("an empty $SYSPROMPT_AGENT_DIR counts as unset", async () => {
    const root = copyScenario(SCENARIO);
    expect(await cli(root, ["expand", "/which"], { SYSPROMPT_AGENT_DIR: "" })).toEqual({
      code: 0,
      stdout: "home\n",
      stderr: "",
    });
  });

  it("$SYSPROMPT_AGENT_DIR (absolute) beats the default", async () => {
    const root = copyScenario(SCENARIO);
    const env = { SYSPROMPT_AGENT_DIR: join(root, "env-agent") };
    expect(await cli(root, ["expand", "/which"], env)).toEqual({
      code: 0,
      stdout: "env\n",
      stderr: "",
    });
  });

  it("--agent-dir beats $SYSPROMPT_AGENT_DIR, and ~ in it means the home folder", async () => {
    const root = copyScenario(SCENARIO);
    const env = { SYSPROMPT_AGENT_DIR: join(root, "env-agent") };
    expect(await cli(root, ["expand", "--agent-dir", "ROOT/flag-agent", "/which"], env)).toEqual({
      code: 0,
      stdout: "flag\n",
      stderr: "",
    });
    expect(await cli(root, ["expand", "--agent-dir", "~/.pi/agent", "/which"], env)).toEqual({
      code: 0,
      stdout: "home\n",
      stderr: "",
    });
  });
});
