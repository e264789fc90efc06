import { describe, expect, it } from "vitest";
import { renderSystemPrompt, type SystemPromptOptions } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// Review rev47c F1 (medium). A repository's text that leaves nothing open
// was printed as it was, so a text whose LAST line is its own closing fence
// (an AGENTS.md ending with a fenced example: "```\nnpm test\n```") got the
// words your template writes after it on that line: "```</file>",
// "``` (end of appended).", "```. Work on it first." close nothing, and the
// fence the repository closed itself made your later sections one code
// block. No hostile intent needed. Now such a text (its last line a bare
// fence run, setext underline or thematic break, alone on its line) ends
// with a line break, as a closer added to it does.

const USER_RULE = "IMPORTANT-USER-RULE: never push to main.";
const NEEDLES = [USER_RULE, "USER-AGENTS-MARKER", "USER-LATER-SECTION"];
const LATER = `---\norder: 990\n---\nUSER-LATER-SECTION: the last words.\n`;

async function render(files: Record<string, string>, extra: SystemPromptOptions = {}) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "USER-AGENTS-MARKER: answer in French.\n",
    "agent/sections/zzlater.md": LATER,
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true, configFiles: true, ...extra }));
}

function expectNothingSwallowed(text: string, needles: string[]) {
  for (const needle of needles) expect(swallowed(text, needle), needle).toBe(false);
}

const CLOSED = [
  "Run the tests:\n\n```\nnpm test\n```\n",
  "Run the tests:\n\n~~~\nnpm test\n~~~\n",
  "Run the tests:\n\n```\nnpm test\n``````",
  "Run the tests:\n\n> ```\n> npm test\n> ```",
  "- Run the tests:\n\n  ```\n  npm test\n  ```",
];

describe("hostile repository: a text ending with its own closing fence, your words after it on the line", () => {
  it.each(CLOSED)("an untrusted AGENTS.md %j printed `{{content}}</file>`", async (agents) => {
    const result = await render(
      {
        "agent/sections/project_context.md":
          '{{#list contextFiles join="\\n\\n"}}<file path="{{path}}">\n{{content}}</file>{{/list}}\n',
        "agent/sections/usec.md": `---\norder: 70\n---\n${USER_RULE}\n`,
        "project/AGENTS.md": agents,
      },
      { projectTrusted: false },
    );
    expect(result.text).toContain("npm test");
    expectNothingSwallowed(result.text, [...NEEDLES, "</project_context>"]);
  });

  it("an untrusted AGENTS.md in your `{{#xml}}` element, your words after it inside", async () => {
    const result = await render(
      {
        "agent/sections/project_context.md":
          '{{#list contextFiles join="\\n\\n"}}{{#xml "file"}}{{content}} (end of file){{/xml}}{{/list}}\n',
        "agent/sections/usec.md": `---\norder: 70\n---\n${USER_RULE}\n`,
        "project/AGENTS.md": CLOSED[0] ?? "",
      },
      { projectTrusted: false },
    );
    expect(result.text).toContain("npm test");
    expectNothingSwallowed(result.text, [...NEEDLES, "(end of file)"]);
  });

  const appended = `---\norder: 5\n---\nAppended: {{appendPrompt}} (end of appended).\n\n${USER_RULE}\n`;
  it.each([
    [
      "a repository file named by --append-system-prompt, untrusted",
      false,
      "project/docs/notes.md",
    ],
    ["a trusted project's .pi/APPEND_SYSTEM.md", true, "project/.pi/APPEND_SYSTEM.md"],
    ["your own APPEND_SYSTEM.md", true, "agent/APPEND_SYSTEM.md"],
  ])("%s, printed mid-line as `appendPrompt`", async (_what, trusted, file) => {
    const named = file === "project/docs/notes.md" ? { appendSystemPrompt: "docs/notes.md" } : {};
    const result = await render(
      { "agent/sections/usec.md": appended, [file]: "Notes:\n\n```\nnpm test\n```\n" },
      { projectTrusted: trusted, ...named },
    );
    // A repository's text is in its own element after the line naming it (rev53c F5); yours is as written.
    expect(result.text).toContain(
      file === "agent/APPEND_SYSTEM.md" ? "Appended: Notes:" : '.md">\nNotes:',
    );
    expectNothingSwallowed(result.text, [...NEEDLES, "(end of appended)."]);
  });

  const base = `---\norder: 5\n---\nBase prompt in use: {{customPrompt}} (end of base).\n${USER_RULE}\n`;
  it.each([
    ["a trusted project's .pi/SYSTEM.md", true, "project/.pi/SYSTEM.md", undefined],
    [
      "a repository file named by --system-prompt, untrusted",
      false,
      "project/docs/base.md",
      "docs/base.md",
    ],
    ["your own SYSTEM.md", true, "agent/SYSTEM.md", undefined],
  ])("%s, printed mid-line as `customPrompt`", async (_what, trusted, file, named) => {
    const result = await render(
      { "agent/sections/usec.md": base, [file]: "You are the repo bot.\n\n```\nnpm test\n```" },
      { projectTrusted: trusted, ...(named === undefined ? {} : { systemPrompt: named }) },
    );
    expect(result.text).toContain("Base prompt in use: You are the repo bot.");
    expectNothingSwallowed(result.text, [USER_RULE, "USER-AGENTS-MARKER", "(end of base)."]);
  });

  it("a trusted project's `vars:` value printed mid-line", async () => {
    const result = await render({
      "agent/sysprompt.yaml": "vars:\n  mine: none\n",
      "agent/sections/usec.md": `---\norder: 5\n---\nYour ticket.\n\nTicket: {{vars.ticket}}. Work on it first.\n\n${USER_RULE}\n`,
      "project/.pi/sysprompt.yaml": 'vars:\n  ticket: "PROJ-1 notes\\n```\\nx\\n```"\n',
    });
    expect(result.text).toContain("PROJ-1 notes");
    expectNothingSwallowed(result.text, [...NEEDLES, ". Work on it first."]);
  });

  it("a text that ends with an ordinary line is printed as it was: your words stay on its line", async () => {
    const result = await render(
      {
        "agent/sections/project_context.md":
          '{{#list contextFiles join="\\n\\n"}}<file path="{{path}}">\n{{content}}</file>{{/list}}\n',
        "project/AGENTS.md": "Run the tests with npm test.\n",
      },
      { projectTrusted: false },
    );
    expect(result.text).toContain("Run the tests with npm test.</file>");
  });
});
