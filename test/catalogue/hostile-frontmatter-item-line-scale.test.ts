import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../src/_frontmatter.js";
import { simpleBlock } from "../../src/gather/rules/_fields.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev68b F2: a SKILL.md (or prompt template) whose frontmatter YAML refuses is read line
// by line, and its `- item` regex `^[ \t]+-[ \t]*(.*)$` backtracked over the blanks after `-`
// when a U+2028 ends the line (`.` stops there, `$` fails, each split of the blanks is tried):
// ` -` + 30,000 blanks + U+2028 + `x` cost 1.15 s of a render, 32,000 blanks 5.2 s. The item
// now starts at a character no blank can take: one pass. Here 32,000 blanks, about what the
// 32 KiB frontmatter cap allows (1-5 s before); the bound is many times the idle figure (a few ms).
const item = (blanks: string) => ` -${blanks}\u2028x`;
const skill = (line: string) =>
  `---\nname: s\ndescription: d\nallowed-tools:\n${line}\nbad: "unclosed\n---\nbody\n`;

describe("hostile repository: a frontmatter list item line is read in linear time", () => {
  for (const [what, blanks] of [
    ["spaces", " ".repeat(32_000)],
    ["tabs", "\t".repeat(32_000)],
  ] as const) {
    it(`a skill's lenient frontmatter, \`-\` + 32,000 ${what} + U+2028: under 0.25 s, the line no item`, async () => {
      const { cpuMs, value } = await cpuTimed(() =>
        parseFrontmatter(skill(item(blanks)), "SKILL.md", { lenient: true }),
      );
      expect(cpuMs).toBeLessThan(250);
      expect(value.diagnostics.map((d) => d.code)).toEqual(["frontmatter-not-yaml"]);
      // A line holding a line break JavaScript sees is no item: the list is empty, as before.
      expect(value.data).toMatchObject({ name: "s", description: "d", "allowed-tools": null });
    });
  }

  it("items read as before: blanks after `-` dropped, an empty item kept", () => {
    const parsed = parseFrontmatter(skill(" - read\n  -\tbash  \n -"), "SKILL.md", {
      lenient: true,
    });
    expect(parsed.data["allowed-tools"]).toEqual(["read", "bash", ""]);
  });

  it("a rule's simple block (capped at 4,096 characters) takes the same line in bounded time", async () => {
    const text = `---\nglobs:\n${item(" ".repeat(4000))}\n---\nbody\n`;
    const { cpuMs, value } = await cpuTimed(() => simpleBlock(text));
    expect(cpuMs).toBeLessThan(500);
    expect(value).toBeUndefined();
  });
});
