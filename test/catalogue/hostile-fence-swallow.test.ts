import { describe, expect, it } from "vitest";
import { openFenceAtEnd } from "../../src/_fence.js";
import { formatSkillsForPrompt, renderSystemPrompt } from "../../src/index.js";
import { formatTouched } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// A fenced code block runs until its closing fence, or to the end of the
// document. A repository's text that opens one and never closes it turned
// everything the prompt said after it into code: the element's closing tag,
// the rule files, the working directory, the tree, the date. An untrusted
// project needs only an AGENTS.md or a rule file ending inside a fence, a
// file cut at its cap between a fence and its closer, or a file named "```"
// beside the others in the workspace tree (its line starts with two spaces,
// a fence's indent). Each such text now ends with a closing line of its own,
// before the element closes (and before a cut's marker, read as text).

describe("hostile repository: no fence a repository opens runs past its element", () => {
  it("an AGENTS.md, a rule file and a tree name that open a fence close it inside their element", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "# Build\n\n```sh\nnpm test",
      "project/.cursorrules": "Style:\n\n~~~~ text\nfour tildes, never closed\n",
      "project/```": "",
      "project/src/index.ts": "",
    });
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: false, workspaceTree: true }),
    );
    for (const s of result.sections)
      expect([s.name, openFenceAtEnd(s.text)]).toEqual([s.name, undefined]);
    expect(openFenceAtEnd(result.text)).toBeUndefined();
    expect(result.text).toContain("```sh\nnpm test\n```\n\n</repository_instructions>");
    expect(result.text).toContain("four tildes, never closed\n~~~~\n\n</rule>");
    const tree = result.sections.find((s) => s.name === "workspace_tree")?.text ?? "";
    // The name opens none (rev56c F8), and no closer is needed; its run of two after the escaped
    // backtick may pair with words printed after the tree: each is `&#96;` (rev70a F8).
    expect(tree).toMatch(/\n {2}&#96;&#96;&#96; {2}0B {2}[^\n]*\n[^`]*<\/workspace_tree>$/);
  });

  it("a file cut at its cap inside a fence: the fence is closed before the cut's marker", async () => {
    const root = tempDir();
    const code = Array.from({ length: 400 }, (_, i) => `echo line ${i}`).join("\n");
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": `# Scripts\n\n\`\`\`sh\n${code}\n\`\`\`\n\nAfter the block.\n`,
      "project/.cursorrules": `Rule:\n\n\`\`\`sh\n${code}\n\`\`\`\n`,
    });
    const result = await renderSystemPrompt(
      pinned(root, { projectTrusted: false, maxContextBytes: 2048 }),
    );
    for (const s of result.sections)
      expect([s.name, openFenceAtEnd(s.text)]).toEqual([s.name, undefined]);
    const cuts = result.text.match(
      /\n```\n\[… [^\n]* more of this file left out: [^\n]*\]\n\n<\/(repository_instructions|rule)>/g,
    );
    expect(cuts).toHaveLength(2);
  });

  it("a trusted project's skill description that opens a fence closes it inside <description>", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/skills/sk/SKILL.md":
        "---\nname: sk\ndescription: |\n  Use it.\n  ```\n  # NEW SECTION\n---\nBody.\n",
    });
    const result = await renderSystemPrompt(pinned(root));
    const skills = result.sections.find((s) => s.name === "skills")?.text ?? "";
    expect(skills).toContain("<description>Use it.\n```\n# NEW SECTION\n```\n\n</description>");
    // formatSkillsForPrompt (pi's index) writes the same text.
    const index = formatSkillsForPrompt([
      {
        name: "sk",
        description: "Use it.\n```\n# NEW SECTION",
        filePath: "/s/SKILL.md",
        baseDir: "/s",
        disableModelInvocation: false,
        source: "project",
      },
    ]);
    expect(index).toContain("<description>Use it.\n```\n# NEW SECTION\n```\n\n</description>");
    for (const s of result.sections)
      expect([s.name, openFenceAtEnd(s.text)]).toEqual([s.name, undefined]);
  });

  it("a file given on touch that leaves a fence open is closed inside its <instructions> element", () => {
    const text = formatTouched(
      [{ path: "/p/pkg/AGENTS.md", content: "Run:\n\n```\nmake", kind: "context" }],
      "/p",
    );
    expect(text).toContain(
      '<instructions path="pkg/AGENTS.md">\nRun:\n\n```\nmake\n```\n\n</instructions>',
    );
    expect(openFenceAtEnd(text)).toBeUndefined();
  });
});
