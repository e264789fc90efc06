import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { formatSkillsForPrompt, loadSkills, type SkillsTool } from "../../src/skills/index.js";
import { copyScenario, pinned } from "./_helpers.js";

const SCENARIO = "skills-section-matches-format";

/**
 * The body of the rendered `skills` section, without its `<skills>` tag lines and the blank
 * line written before `</skills>` when the body ends in a paragraph (review rev82c O1).
 */
function sectionBody(text: string): string {
  expect(text.startsWith("<skills>\n")).toBe(true);
  expect(text.endsWith("\n</skills>")).toBe(true);
  return text.slice("<skills>\n".length, -"\n</skills>".length).replace(/\n$/, "");
}

async function skillsSection(root: string, tools: string[], projectTrusted = true) {
  const result = await renderSystemPrompt(pinned(root, { tools, projectTrusted }));
  return result.sections.find((section) => section.name === "skills");
}

async function loaded(root: string, projectTrusted = true) {
  const { skills } = await loadSkills({
    cwd: join(root, "project"),
    agentDir: join(root, "agent"),
    home: join(root, "home"),
    projectTrusted,
  });
  return skills;
}

describe("the skills section", () => {
  it("lists every visible skill, escaped, yours first, with the read instruction", async () => {
    const root = copyScenario(SCENARIO);
    const section = await skillsSection(root, ["read", "bash", "edit", "write"]);
    expect(section?.source).toEqual({
      layer: "builtin",
      path: expect.stringMatching(/prompts[/\\]sections[/\\]skills\.md$/),
    });
    expect(section?.text).toBe(
      [
        "<skills>",
        "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
        "When the task in front of you matches a skill's description, open the file at its location with the read tool before you begin, and follow what it says.",
        "Paths written inside a skill are relative to the folder that holds its file.",
        "",
        "<available_skills>",
        // Yours first, then the project's (rev50c F5).
        "  <skill>",
        "    <name>git-help</name>",
        "    <description>Untangle git history.</description>",
        `    <location>${root}/home/.agents/skills/git-help/SKILL.md</location>`,
        "  </skill>",
        "  <skill>",
        "    <name>pdf</name>",
        "    <description>Fill in &amp; read PDF forms (&quot;AcroForm&quot; &lt;fields&gt;).</description>",
        `    <location>${root}/project/.pi/skills/pdf/SKILL.md</location>`,
        "  </skill>",
        "  <skill>",
        "    <name>r&amp;d&apos;s notes</name>",
        "    <description>Keep research notes.",
        "Two lines, with &apos;quotes&apos; &amp; &lt;/description&gt; inside.",
        "",
        "</description>",
        `    <location>${root}/project/.pi/skills/r&amp;d&apos;s notes/SKILL.md</location>`,
        "  </skill>",
        "  <skill>",
        "    <name>deploy</name>",
        "    <description>Deploy the service to staging.</description>",
        `    <location>${root}/project/.agents/skills/deploy/SKILL.md</location>`,
        "  </skill>",
        "</available_skills>",
        "</skills>",
      ].join("\n"),
    );
  });

  // The template repeats formatSkillsForPrompt's wording so prompt authors can
  // edit it; this keeps the two from drifting apart.
  it.each<[SkillsTool, string[]]>([
    ["read", ["read", "bash", "edit", "write"]],
    ["read", ["bash", "read"]],
    ["bash", ["bash", "edit"]],
  ])(
    "its body is formatSkillsForPrompt(skills, %j) byte for byte (tools %j)",
    async (tool, tools) => {
      const root = copyScenario(SCENARIO);
      const skills = await loaded(root);
      expect(skills.map((s) => [s.name, s.disableModelInvocation])).toEqual([
        ["pdf", false],
        ["r&d's notes", false],
        ["deploy", false],
        ["hidden-ops", true],
        ["git-help", false],
      ]);
      const section = await skillsSection(root, tools);
      expect(sectionBody(section?.text ?? "")).toBe(formatSkillsForPrompt(skills, tool));
    },
  );

  it("stays identical to the formatter for descriptions with trailing spaces, blank runs and fences", async () => {
    const root = copyScenario("skills-section-whitespace");
    const skills = await loaded(root);
    expect(skills.map((s) => s.description)).toEqual([
      "Shows code:\n```\nx  \n\n\n```\ndone",
      "First paragraph.   \n\n\n\nSecond paragraph.",
    ]);
    for (const [tool, tools] of [
      ["read", ["read"]],
      ["bash", ["bash"]],
    ] as const) {
      const section = await skillsSection(root, [...tools]);
      expect(sectionBody(section?.text ?? "")).toBe(formatSkillsForPrompt(skills, tool));
    }
    expect(formatSkillsForPrompt(skills, "read").split("<available_skills>\n")[1]).toBe(
      [
        "  <skill>",
        "    <name>fenced</name>",
        // After `</description>` alone on a line (an HTML block up to a blank line), the
        // blank lines in the fence would end that block and its closer open a fence:
        // the description starts after a blank line of its own.
        "    <description>",
        "",
        "Shows code:",
        "```",
        "x  ",
        "",
        "",
        "```",
        "done",
        "",
        "</description>",
        `    <location>${root}/agent/skills/fenced/SKILL.md</location>`,
        "  </skill>",
        "  <skill>",
        "    <name>spaced</name>",
        "    <description>First paragraph.",
        "",
        "Second paragraph.",
        "",
        "</description>",
        `    <location>${root}/agent/skills/spaced/SKILL.md</location>`,
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("skips the project's skills when the project is not trusted, still matching the formatter", async () => {
    const root = copyScenario(SCENARIO);
    // A checkout: without a .git, a project beside the home folder in a folder of the
    // user's own may be a tarball holding that home, whose skills are then not yours.
    mkdirSync(join(root, "project", ".git"));
    const skills = await loaded(root, false);
    expect(skills.map((s) => s.name)).toEqual(["hidden-ops", "git-help"]);
    const section = await skillsSection(root, ["read"], false);
    expect(sectionBody(section?.text ?? "")).toBe(formatSkillsForPrompt(skills, "read"));
    expect(sectionBody(section?.text ?? "")).toBe(
      [
        "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
        "When the task in front of you matches a skill's description, open the file at its location with the read tool before you begin, and follow what it says.",
        "Paths written inside a skill are relative to the folder that holds its file.",
        "",
        "<available_skills>",
        "  <skill>",
        "    <name>git-help</name>",
        "    <description>Untangle git history.</description>",
        `    <location>${root}/home/.agents/skills/git-help/SKILL.md</location>`,
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
  });

  it("is left out, and skills are not loaded, when neither read nor bash is selected", async () => {
    const root = copyScenario(SCENARIO);
    const result = await renderSystemPrompt(pinned(root, { tools: ["edit", "write"] }));
    expect(result.sections.map((s) => s.name)).not.toContain("skills");
    expect(result.text).not.toContain("<available_skills>");
    expect(result.steps.find((s) => s.name === "skills")?.status).toBe("skipped");
  });

  it("is left out when every skill is hidden", async () => {
    const root = copyScenario("skills-section-hidden-only");
    expect((await loaded(root)).map((s) => s.name)).toEqual(["release"]);
    const result = await renderSystemPrompt(pinned(root, { tools: ["read", "bash"] }));
    expect(result.sections.map((s) => s.name)).toEqual([
      "preamble",
      "tools",
      "rules",
      "cwd",
      "environment",
      "date",
    ]);
    expect(result.diagnostics).toEqual([]);
  });
});
