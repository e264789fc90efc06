import { describe, expect, it } from "vitest";
import { formatSkillsForPrompt, renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed, tagLinesInside } from "./_commonmark.js";

// The skills index writes each skill's description between `<description>`
// and `</description>`, and the skills one after another with no blank line.
// A description that ends inside a list item or a block quote kept it open
// over `</description>`, the rest of its skill and the next skill's
// description, whose indented lines were read inside the item: the fence
// that description closes for itself as a text of its own was not closed
// there, and CommonMark read `</available_skills>`, the user's own skill and
// every later section as one code block (review rev34c, finding 2: a trusted
// project's `.agents/skills`, and the library's formatSkillsForPrompt). Each
// pair below is read by CommonMark's reference parser.

const ENDS_OPEN: Record<string, string> = {
  "a list item": "Build helper.\n\n- runs make",
  "an ordered item": "Steps:\n\n1. build",
  "a block quote": "Quoted:\n\n> keep this",
  "a quote in an item": "Steps:\n\n- step\n  > note",
};

const FOLLOWS: Record<string, string> = {
  "an indented fence, closed at column 0": "Notes\n  ```\n```",
  "a quoted fence in the item's indent": "Notes:\n  > ```\nmore",
};

const isIndexLine = (line: string) =>
  /^\s*<\/?(available_skills|skill|name|location|skills|cwd)>/.test(line) ||
  line.startsWith("After the index");

const skill = (name: string, description: string) => ({
  name,
  description,
  filePath: `/s/${name}/SKILL.md`,
  baseDir: `/s/${name}`,
  disableModelInvocation: false,
  source: "project" as const,
});

const pairs = Object.entries(ENDS_OPEN).flatMap(([a, first]) =>
  Object.entries(FOLLOWS).map(([b, second]) => ({ name: `${a}, then ${b}`, first, second })),
);

describe("hostile repository: a skill description that ends in a list item or quote keeps the index out of it", () => {
  for (const { name, first, second } of pairs) {
    it(`formatSkillsForPrompt: ${name}`, () => {
      const index = formatSkillsForPrompt([
        skill("a-skill", first),
        skill("b-skill", second),
        skill("zz-mine", "USER-SKILL deploys my servers."),
      ]);
      const text = `Before.\n\n${index}\n\nAfter the index.`;
      expect(tagLinesInside(text, isIndexLine)).toEqual([]);
      expect(swallowed(text, "USER-SKILL")).toBe(false);
    });
  }

  it("the skills section of a trusted project's prompt: a list item, then an indented fence", async () => {
    const root = tempDir();
    const yaml = (text: string) =>
      text
        .split("\n")
        .map((l) => `  ${l}`)
        .join("\n");
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/skills/zz-mine/SKILL.md":
        "---\nname: zz-mine\ndescription: USER-SKILL deploys my servers.\n---\nbody\n",
      "project/.agents/skills/a-skill/SKILL.md": `---\nname: a-skill\ndescription: |\n${yaml(ENDS_OPEN["a list item"] ?? "")}\n---\nbody\n`,
      "project/.agents/skills/b-skill/SKILL.md": `---\nname: b-skill\ndescription: |\n${yaml(FOLLOWS["an indented fence, closed at column 0"] ?? "")}\n---\nbody\n`,
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain("<name>a-skill</name>");
    expect(result.text).toContain("USER-SKILL");
    expect(tagLinesInside(result.text, isIndexLine)).toEqual([]);
    expect(swallowed(result.text, "Current working directory")).toBe(false);
  });
});
