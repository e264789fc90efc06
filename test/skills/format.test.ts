import { describe, expect, test } from "vitest";
import { selectSkillsTool } from "../../src/gather/guidelines/index.js";
import { formatSkillsForPrompt, type Skill } from "../../src/skills/index.js";
import { skillAt } from "./_helpers.js";

const skills: Skill[] = [
  skillAt("/work/skills/pdf/SKILL.md", "pdf", "Read & fill PDF forms.", "project"),
  skillAt(
    "/home/u/.agents/skills/hidden/SKILL.md",
    "hidden",
    "Only by /skill:hidden.",
    "user",
    true,
  ),
  skillAt(
    `/work/skills/<odd> "quoted" 'dir'/SKILL.md`,
    "tags-<b>",
    "Line one\nline two with </description> & 'quotes' and \"more\"",
    "option",
  ),
];

const READ_HEADER = [
  "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
  "When the task in front of you matches a skill's description, open the file at its location with the read tool before you begin, and follow what it says.",
  "Paths written inside a skill are relative to the folder that holds its file.",
].join("\n");

const LIST = [
  "<available_skills>",
  // Yours (a path you named) before the project's, whatever the order given (rev50c F5).
  "  <skill>",
  "    <name>tags-&lt;b&gt;</name>",
  "    <description>Line one\nline two with &lt;/description&gt; &amp; &apos;quotes&apos; and &quot;more&quot;\n\n</description>",
  "    <location>/work/skills/&lt;odd&gt; &quot;quoted&quot; &apos;dir&apos;/SKILL.md</location>",
  "  </skill>",
  "  <skill>",
  "    <name>pdf</name>",
  "    <description>Read &amp; fill PDF forms.</description>",
  "    <location>/work/skills/pdf/SKILL.md</location>",
  "  </skill>",
  "</available_skills>",
].join("\n");

describe("formatSkillsForPrompt", () => {
  test("read: header, then every visible skill escaped, yours first, hidden skills left out", () => {
    expect(formatSkillsForPrompt(skills, "read")).toBe(`${READ_HEADER}\n\n${LIST}`);
  });

  test("bash: the header says to print the file through bash", () => {
    expect(formatSkillsForPrompt(skills, "bash")).toBe(
      [
        "Skills are folders of instructions for particular kinds of work. Each one below has a description of when it applies.",
        "When the task in front of you matches a skill's description, print the file at its location through bash (for example `cat <location>`) before you begin, and follow what it says.",
        "Paths written inside a skill are relative to the folder that holds its file.",
        "",
        LIST,
      ].join("\n"),
    );
  });

  test("empty when the tool is none, there are no skills, or every skill is hidden", () => {
    expect(formatSkillsForPrompt(skills, "none")).toBe("");
    expect(formatSkillsForPrompt([], "read")).toBe("");
    expect(formatSkillsForPrompt([skills[1] as Skill], "read")).toBe("");
  });

  test("an entity already in a value is escaped again, not passed through", () => {
    const s = skillAt("/s/SKILL.md", "amp", "use &amp; here", "user");
    expect(formatSkillsForPrompt([s], "read")).toBe(
      `${READ_HEADER}\n\n<available_skills>\n  <skill>\n    <name>amp</name>\n    <description>use &amp;amp; here</description>\n    <location>/s/SKILL.md</location>\n  </skill>\n</available_skills>`,
    );
  });
});

describe("selectSkillsTool", () => {
  test.each([
    [["read", "bash", "edit"], "read"],
    [["bash", "read"], "read"],
    [["bash", "edit"], "bash"],
    [["edit", "write"], null],
    [[], null],
  ])("%j → %s", (tools, expected) => {
    expect(selectSkillsTool(tools)).toBe(expected);
  });
});
