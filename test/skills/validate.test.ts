import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { backslashesMarked } from "../../src/_text.js";
import {
  formatSkillsForPrompt,
  loadSkills,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  nameProblems,
  parseSkill,
} from "../../src/skills/index.js";
import { FIXTURES } from "./_helpers.js";

describe("nameProblems", () => {
  test.each([
    ["pdf-tools", []],
    ["a".repeat(MAX_NAME_LENGTH), []],
    ["a".repeat(MAX_NAME_LENGTH + 1), ["name is 65 characters, over the 64-character limit"]],
    ["PDF", ['name "PDF" should use only lowercase letters a-z, digits 0-9 and hyphens']],
    ["-pdf", ['name "-pdf" should not start or end with a hyphen']],
    ["pdf-", ['name "pdf-" should not start or end with a hyphen']],
    ["pdf--tools", ['name "pdf--tools" should not contain consecutive hyphens']],
  ])("%s", (name, problems) => {
    expect(nameProblems(name)).toEqual(problems);
  });
});

describe("parseSkill", () => {
  test("unknown fields are fine; only the boolean true hides a skill", () => {
    const text = [
      "---",
      "name: tidy",
      "description: Tidy things.",
      "license: Apache-2.0",
      "allowed-tools: Read Grep",
      "metadata:",
      "  nested: { deep: [1, 2] }",
      "disable-model-invocation: yes",
      "---",
      "Body",
    ].join("\n");
    expect(parseSkill(text, "/s/tidy/SKILL.md", "user")).toEqual({
      skill: {
        name: "tidy",
        description: "Tidy things.",
        filePath: "/s/tidy/SKILL.md",
        baseDir: "/s/tidy",
        disableModelInvocation: false,
        source: "user",
      },
      diagnostics: [],
    });
  });

  test("a description of exactly the limit is fine; one more character warns", () => {
    const at = (length: number) =>
      parseSkill(`---\ndescription: ${"d".repeat(length)}\n---\n`, "/s/long/SKILL.md", "project")
        .diagnostics;
    expect(at(MAX_DESCRIPTION_LENGTH)).toEqual([]);
    expect(at(MAX_DESCRIPTION_LENGTH + 1)).toEqual([
      {
        level: "warning",
        code: "skill-description-too-long",
        message: "description is 1025 characters, over the 1024-character limit",
        path: "/s/long/SKILL.md",
        line: 2,
        column: 1,
      },
    ]);
  });

  test("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (body) => {
        for (const text of [body, `---\n${body}\n---\n`, `---\ndescription: ${body}\n---\n`]) {
          const { skill, diagnostics } = parseSkill(text, "/s/x/SKILL.md", "user");
          expect(skill === null || skill.description.trim() !== "").toBe(true);
          expect(Array.isArray(diagnostics)).toBe(true);
        }
      }),
    );
  });
});

test("invalid YAML (an unquoted `: `) is read line by line: the skill loads, warned at the bad line", async () => {
  const root = join(FIXTURES, "invalid-yaml-located");
  const file = join(root, "bad-indent/SKILL.md");
  expect(
    await loadSkills({
      cwd: root,
      agentDir: root,
      home: root,
      paths: [root],
      includeDefaults: false,
    }),
  ).toEqual({
    skills: [
      {
        name: "bad-indent",
        description: "a: b",
        filePath: file,
        baseDir: join(root, "bad-indent"),
        disableModelInvocation: false,
        source: "option",
      },
    ],
    diagnostics: [
      {
        level: "warning",
        code: "frontmatter-not-yaml",
        message:
          'frontmatter is not valid YAML (Nested mappings are not allowed in compact mappings); read line by line as "key: value", the way other agents\' readers take it; quote the value to make it YAML',
        path: file,
        line: 3,
        column: 14,
      },
    ],
  });
});

test("formatted values round-trip through XML unescaping", () => {
  const unescapeXml = (s: string) =>
    s
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&quot;", '"')
      .replaceAll("&apos;", "'")
      .replaceAll("&amp;", "&");
  fc.assert(
    fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), (name, description, dir) => {
      const out = formatSkillsForPrompt(
        [
          {
            name,
            description,
            filePath: `/${dir}/SKILL.md`,
            baseDir: `/${dir}`,
            disableModelInvocation: false,
            source: "user",
          },
        ],
        "read",
      );
      const inner = (tag: string) => {
        const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(out);
        return match?.[1] ?? "";
      };
      expect(inner("name")).not.toMatch(/[<>"']/);
      // A name and a path are one-line texts: a literal `\u` in them is marked (`\u005cu`), as
      // every name in the prompt is (backslashesMarked); a description is kept as written.
      expect(unescapeXml(inner("name"))).toBe(backslashesMarked(name));
      expect(unescapeXml(inner("description"))).toBe(description);
      expect(unescapeXml(inner("location"))).toBe(backslashesMarked(`/${dir}/SKILL.md`));
    }),
  );
});
