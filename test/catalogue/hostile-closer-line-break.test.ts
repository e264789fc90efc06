import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// Review rev45c F1 and F2 (medium). A closer added at the end of a
// repository's text had no line break after it, and a trusted project's
// partial without a final line break was joined to your next line after it
// was judged:
// - F1: your section printing a project's `vars:` value of several lines
//   with text after it on the same line (`Ticket: {{vars.ticket}}. Work on
//   it first.`), or your own template writing `{{content}}</file>` after an
//   untrusted repository's AGENTS.md that ends inside a fence: the closer
//   line was "```. Work on it first." or "```</file>", which closes nothing,
//   and the rest of the prompt (your AGENTS.md, your later sections) was
//   one code block;
// - F2: `{{> notes}}` alone on its line drops that line's break and expects
//   the partial to bring its own; a project partial with none was joined to
//   your next line: its closer and your rule made "```IMPORTANT…" (no
//   closer), `<!-` and your `- item` an open `<!--`, `~~` and your `~/…` a
//   tilde fence, each over the rest of the prompt.
// Now every closer added to a text a template prints ends with a line break,
// a value is closed so that it may start mid-line or on a line of its own,
// and a project partial always ends with a line break.

const USER_RULE = "IMPORTANT-USER-RULE: never push to main.";
const NEEDLES = [USER_RULE, "USER-AGENTS-MARKER", "Current working directory"];

async function render(files: Record<string, string>, projectTrusted = true, systemPrompt?: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "USER-AGENTS-MARKER: answer in French.\n",
    ...files,
  });
  const named = systemPrompt === undefined ? {} : { systemPrompt };
  return renderSystemPrompt(pinned(root, { projectTrusted, configFiles: true, ...named }));
}

function expectNothingSwallowed(text: string, needles = NEEDLES) {
  for (const needle of needles) expect(swallowed(text, needle), needle).toBe(false);
}

describe("hostile repository: a closer is a line of its own wherever a template prints the text", () => {
  it.each([
    "PROJ-1: see the sample\n\n```",
    "PROJ-1: see the sample\n\n~~~~",
    "```\nPROJ-1",
    "PROJ-1\n<pre>",
  ])("a project's var %j printed mid-line, your text after it on the line", async (ticket) => {
    const result = await render({
      "agent/sysprompt.yaml": "vars:\n  mine: none\n",
      "agent/sections/usec.md": `---\norder: 5\n---\nCurrent ticket: {{vars.ticket}}. Work on it first.\n${USER_RULE}\n`,
      "project/.pi/sysprompt.yaml": `vars:\n  ticket: ${JSON.stringify(ticket)}\n`,
    });
    expect(result.text).toContain("PROJ-1");
    expect(result.text).toContain(". Work on it first.");
    expectNothingSwallowed(result.text, [...NEEDLES, ". Work on it first."]);
  });

  it("an untrusted repository's AGENTS.md ending in a fence, printed `{{content}}</file>` by your template", async () => {
    const result = await render(
      {
        "agent/sections/project_context.md":
          '{{#list contextFiles join="\\n\\n"}}<file path="{{path}}">\n{{content}}</file>{{/list}}\n',
        "agent/sections/zz_user.md": `---\norder: 990\n---\n${USER_RULE}\n`,
        "project/AGENTS.md": "Repo notes.\n\nExample:\n\n```sh\nmake",
      },
      false,
    );
    expect(result.text).toContain("Repo notes.");
    expectNothingSwallowed(result.text);
  });
});

// Review rev46b F3 (medium): the custom base prompt in use, which templates
// see as `customPrompt`, was still closed with no line break after its
// closer: `Base prompt in use: {{customPrompt}} (end of base).` made the
// closer line "``` (end of base).", and the rest of the prompt one code block.
describe("hostile repository: the custom base prompt printed mid-line by your section", () => {
  const usec = `---\norder: 5\n---\nBase prompt in use: {{customPrompt}} (end of base).\n${USER_RULE}\n`;
  it.each([
    ["a trusted project's .pi/SYSTEM.md", true, "project/.pi/SYSTEM.md", undefined],
    [
      "the repository's file named by --system-prompt, untrusted",
      false,
      "project/docs/base.md",
      "docs/base.md",
    ],
  ])("%s ending in an open fence", async (_what, trusted, file, named) => {
    const result = await render(
      {
        "agent/sections/usec.md": usec,
        [file]: "You are the repo bot.\n\n```",
      },
      trusted,
      named,
    );
    expect(result.text).toContain("Base prompt in use: You are the repo bot.");
    expectNothingSwallowed(result.text, [USER_RULE, "USER-AGENTS-MARKER", "(end of base)."]);
  });

  it("your own APPEND_SYSTEM.md ending in an open fence, printed mid-line as `appendPrompt`", async () => {
    const result = await render({
      "agent/sections/usec.md": `---\norder: 5\n---\nAlso: {{appendPrompt}} (end of addendum).\n${USER_RULE}\n`,
      "agent/APPEND_SYSTEM.md": "Deploy notes:\n\n```",
    });
    expect(result.text).toContain("Also: Deploy notes:");
    expectNothingSwallowed(result.text, [USER_RULE, "USER-AGENTS-MARKER", "(end of addendum)."]);
  });
});

describe("hostile repository: a trusted project's partial with no final line break is not joined to your line", () => {
  it.each([
    ["an open fence", "see below\n\n```", USER_RULE],
    ["`<!-` before your list item", "see below\n\n<!-", `- ${USER_RULE}`],
    ["`~~` before your `~/` line", "see below\n\n~~", `~/.config/tool holds it. ${USER_RULE}`],
  ])("ending with %s, called alone on its line", async (_what, partial, line) => {
    const result = await render({
      "agent/sections/usec.md": `---\norder: 5\n---\nTeam notes:\n{{> notes}}\n${line}\n`,
      "agent/partials/notes.md": "Your notes.\n",
      "project/.pi/partials/notes.md": partial,
    });
    expect(result.text).toContain("see below");
    expectNothingSwallowed(result.text);
  });

  it("ending with an open fence, called mid-line", async () => {
    const result = await render({
      "agent/sections/usec.md": `---\norder: 5\n---\nTeam notes: {{> notes}} (from the team).\n${USER_RULE}\n`,
      "agent/partials/notes.md": "Your notes.",
      "project/.pi/partials/notes.md": "see below\n\n```",
    });
    expect(result.text).toContain("see below");
    expectNothingSwallowed(result.text, [...NEEDLES, "(from the team)."]);
  });

  it("a partial that leaves nothing open keeps its text, and gets its line break", async () => {
    const result = await render({
      "agent/sections/usec.md": `---\norder: 5\n---\nTeam notes:\n{{> notes}}\n${USER_RULE}\n`,
      "agent/partials/notes.md": "Your notes.\n",
      "project/.pi/partials/notes.md": "Project notes.",
    });
    expect(result.text).toContain(`Team notes:\nProject notes.\n${USER_RULE}\n`);
    expect(result.diagnostics.some((d) => d.code === "project-section-open")).toBe(false);
  });
});
