import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type Node, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import type { RenderResult } from "../../src/types.js";
import { BUILTIN, pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { budgetProject } from "../budget/_project.js";

// Review rev82c O1. A section is written `<tag>\n…\n</tag>`; for CommonMark,
// `</tag>` alone on its line starts an HTML block (kind 7) only where it does
// not continue a paragraph (kind 7 cannot interrupt one). A builtin section
// whose body holds a blank line and ends in paragraph text (skills, ending
// `</available_skills>`, no tag to CommonMark; the skills' budget note; the
// rules' project rules list; the appended prompt) had its end tag inside
// that paragraph: in a commonmark.js -> HTML view an HTML parser ignores an
// end tag in a `<p>`, so every later section was inside `<skills>`. Each end
// tag CommonMark reads as a tag now stands as an HTML block of its own.

/** The agents the CLI knows: the builtin presets. */
const AGENTS = readdirSync(join(BUILTIN, "agents"))
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => f.slice(0, -".yaml".length))
  .sort();

/** True when CommonMark reads `</name>` alone on its line (after a blank one) as an HTML block. */
function isHtmlTag(name: string): boolean {
  return new Parser().parse(`</${name}>`).firstChild?.type === "html_block";
}

/**
 * Each section whose end tag CommonMark would read as a tag, and the
 * top-level block commonmark.js puts that end tag's line in (`html_block`
 * when it is raw HTML, not a paragraph's or list's text).
 */
function endTagBlocks(result: Pick<RenderResult, "text" | "sections">): string[] {
  const { text } = result;
  const blocks: Node[] = [];
  const doc = new Parser().parse(text);
  for (let n = doc.firstChild; n !== null; n = n.next) blocks.push(n);
  const out: string[] = [];
  let offset = 0;
  for (const section of result.sections) {
    if (section.text === "") continue;
    const at = text.indexOf(section.text, offset);
    expect(at, section.name).toBeGreaterThanOrEqual(0);
    offset = at + section.text.length;
    const tag = /^<([A-Za-z][\w.-]*)>\n[\s\S]*\n<\/\1>$/.exec(section.text)?.[1];
    if (tag === undefined || !isHtmlTag(tag)) continue;
    const line = text.slice(0, offset).split("\n").length;
    const block = blocks.find((b) => b.sourcepos[0][0] <= line && b.sourcepos[1][0] >= line);
    out.push(`</${tag}> ${block?.type ?? "none"}`);
  }
  return out;
}

function expectEndTagsHtml(result: Pick<RenderResult, "text" | "sections">, least: number) {
  const found = endTagBlocks(result);
  expect(found.length).toBeGreaterThanOrEqual(least);
  expect(found.filter((f) => !f.endsWith(" html_block"))).toEqual([]);
}

/** A project with something for every builtin section: AGENTS.md, rule files, skills, an appended prompt. */
function project(): string {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "# Project\n\nRun npm test before every commit.\n",
    "project/.claude/rules/testing.md": "Tests live next to the code.\n",
    "project/.cursor/rules/style.mdc": "---\nalwaysApply: true\n---\nTwo spaces.\n",
    "project/src/index.ts": "export {};\n",
    "project/.pi/skills/pdf/SKILL.md":
      "---\nname: pdf\ndescription: Extract text and tables from PDF files.\n---\nSteps.\n",
    "project/.pi/skills/changelog/SKILL.md":
      "---\nname: changelog\ndescription: Write the changelog entry for a release.\n---\nSteps.\n",
    "agent/AGENTS.md": "# Mine\n\nAnswer briefly.\n",
  });
  return root;
}

describe("every section's end tag is an HTML block for CommonMark (review rev82c O1)", () => {
  it.each(AGENTS)("the builtin prompt of agent %s", async (agent) => {
    const root = project();
    const result = await renderSystemPrompt(
      pinned(root, {
        agent,
        projectTrusted: true,
        workspaceTree: true,
        docs: "Docs live in docs/.\n\nThe API is in docs/api.md.",
        appendSystemPrompt: "Appended first paragraph.\n\nAppended last paragraph.",
        promptGuidelines: ["Keep diffs small."],
      }),
    );
    expectEndTagsHtml(result, 3);
  });

  it("a budget that cuts the skill descriptions (the skills section ends with its note)", async () => {
    const root = tempDir();
    budgetProject(root);
    const result = await renderSystemPrompt(
      pinned(root, { workspaceTree: true, maxPromptTokens: 1184 }),
    );
    expect(result.text).toContain("Skill descriptions are left out");
    expectEndTagsHtml(result, 3);
  });

  it("the sections after skills are not inside the skills element in the HTML view", async () => {
    const root = project();
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    const text = result.text;
    const skillsEnd = text.indexOf("</skills>");
    expect(skillsEnd).toBeGreaterThan(0);
    // The line before `</skills>` is blank: the end tag is not a paragraph's text.
    expect(text.slice(skillsEnd - 2, skillsEnd)).toBe("\n\n");
    expect(text).toContain("</available_skills>\n\n</skills>");
  });

  it("a section that already ends in an HTML block or one line keeps its bytes", async () => {
    const root = project();
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    for (const name of ["tools", "cwd", "environment", "date"]) {
      const section = result.sections.find((s) => s.name === name);
      expect(section?.text, name).toMatch(new RegExp(`[^\\n]\\n</${name}>$`));
    }
  });
});
