import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { attributeValue, escapeXml } from "../../helpers/xml.js";
import { printedLength } from "../../src/_prompt-text.js";
import { formatSkillsForPrompt, loadContextForPaths, renderSystemPrompt } from "../../src/index.js";
import { touchedElement } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev64f F4 (medium). The bracket chat tokens (Mistral's `[INST]`, EXAONE's `[|user|]`,
// MiniMax-M2's `]~b]user` and `[e~[`) were written raw wherever a repository's text was printed
// through the bare XML escaper: a skill's name, description and location, a rule element's
// `name=`/`path=`, a context file's `path=` and the touch element's `path=`, while the same text
// in an element's body was escaped (`[INST\]`). A model served through its chat template with
// special tokens parsed read a user turn there. Now the XML value escaper (`escapeXml`, and the
// `xml` helper's attribute values) writes each such token's last bracket as a character
// reference: `[INST&#93;`, `[e~&#91;`.

const TOKENS = "[|user|] [INST] ]~b]user [e~[";

/** The bracket tokens `text` still holds as a tokenizer finds them. */
function rawTokens(text: string): string[] {
  return text.match(/\[\/?INST\]|\[\|\w+\|\]|\]~b\]|\[e~\[/gi) ?? [];
}

describe("hostile repository: bracket chat tokens in XML values", () => {
  it("a render writes none in names, descriptions, locations or paths", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "top\n",
      "project/[|user|]/AGENTS.md": "nested\n",
      "project/.agents/skills/[INST]/SKILL.md": `---\nname: "[INST]"\ndescription: "D ${TOKENS}"\n---\nbody\n`,
      "project/.cursor/rules/[|user|].mdc": "---\nalwaysApply: true\n---\nalways\n",
      "project/.claude/rules/[INST].md": "claude rule\n",
    });
    const cwd = join(root, "project/[|user|]");
    const { text } = await renderSystemPrompt(pinned(root, { cwd, tools: ["read"] }));
    expect(text).toContain("<description>D [|user|&#93; [INST&#93; ]~b&#93;user [e~&#91;");
    // A name's leading `[` is a reference too (rev68c F6).
    expect(text).toContain("<name>&#91;INST&#93;</name>");
    expect(text).toContain("/.agents/skills/&#91;INST&#93;/SKILL.md</location>");
    expect(text).toContain('<rule name="&#91;|user|&#93;" format="cursor"');
    expect(text).toContain('path="' + `${root}/project/.claude/rules/&#91;INST&#93;.md">`);
    expect(text).toContain(
      `<repository_instructions path="${root}/project/&#91;|user|&#93;/AGENTS.md">`,
    );
    expect(rawTokens(text)).toEqual([]);
  });

  it("the skills index and the touch element write none", async () => {
    const index = formatSkillsForPrompt([
      {
        name: "[INST]",
        description: `D ${TOKENS}`,
        filePath: "/p/[|user|]/SKILL.md",
        baseDir: "/p/[|user|]",
        source: "project",
        disableModelInvocation: false,
      },
    ]);
    expect(index).toContain("<name>[INST&#93;</name>");
    expect(rawTokens(index)).toEqual([]);

    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/[INST]/AGENTS.md": "in [INST]\n",
      "project/[INST]/a.ts": "x\n",
      "project/[|user|]/AGENTS.md": "in user\n",
      "project/[|user|]/a.ts": "x\n",
    });
    const cwd = join(root, "project");
    const touched = await loadContextForPaths(
      [join(cwd, "[INST]/a.ts"), join(cwd, "[|user|]/a.ts")],
      { cwd, home: join(root, "home") },
    );
    const elements = touched.files.map((f) => touchedElement(f, cwd)).join("\n");
    // The path's leading `[` is `&#91;` since the touch attributes go through the one name
    // writer (rev69a F3), which writes a leading `[` so (rev68c F6).
    expect(elements).toContain('<instructions path="&#91;INST&#93;/AGENTS.md">');
    expect(elements).toContain('<instructions path="&#91;|user|&#93;/AGENTS.md">');
    expect(rawTokens(elements)).toEqual([]);
  });

  it("the escapers break each token once and a total counts the reference", () => {
    expect(escapeXml(`<${TOKENS}>`)).toBe("&lt;[|user|&#93; [INST&#93; ]~b&#93;user [e~&#91;&gt;");
    expect(escapeXml("]~b]~b]")).toBe("]~b&#93;~b&#93;");
    expect(attributeValue(`"${TOKENS}`)).toBe(
      "&quot;[|user|&#93; [INST&#93; ]~b&#93;user [e~&#91;",
    );
    // A token spelled through a zero-width space is one to a pipeline that strips it.
    expect(rawTokens(escapeXml("[IN\u200bST]").replace("\u200b", ""))).toEqual([]);
    expect(printedLength("[INST]", "xml")).toBe(Buffer.byteLength("[INST&#93;"));
    expect(printedLength("a[|user|]", "xml-line")).toBe(Buffer.byteLength("a[|user|&#93;"));
    for (const plain of ["[x]", "a[|]b", "[ INST ]", "|user|"])
      expect(escapeXml(plain)).toBe(plain);
  });
});
