import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// Review rev43c (F1, F2; medium): a section and `{{#xml}}` trimmed their text
// with JavaScript's `trim()` AFTER a project's text in it had been judged.
// - F1: `trim()` takes off U+3000, U+00A0, U+2000-U+200A and the other
//   Unicode spaces, which CommonMark reads as text: a project's one-line
//   value "\u3000```" (a paragraph) starting your section became "```", a
//   fence that ran to the end of the prompt. So did a multi-line value's
//   first-line indentation ("    ```" is indented code, trimmed a fence).
//   A tag with `_` (`<team_notes>`, as the builtin sections are named) is no
//   HTML tag to CommonMark: the fence on the line after it opens.
// - F2: the blank line a text that reads otherwise after a tag's line is
//   given before it was trimmed away; under `<addendum>`, `<usec>` or an
//   `{{#xml}}` tag line (an HTML block to the next blank line) the text's
//   first fence was HTML and its closing fence opened a code block over your
//   AGENTS.md and every later section. A cloned repository's 5-line
//   `.pi/APPEND_SYSTEM.md` did it (trusted, the default), and so did a
//   repository file named by `appendSystemPrompt`, untrusted too.
// Now the trims take off only what leaves nothing open the text did not,
// and keep that blank line where the text needs it.

const NEEDLES = ["USER-AGENTS-MARKER", "USER-AFTER", "Current working directory"];

/** One line, yet a fence or an HTML block once JavaScript's `trim()` takes its start. */
const ONE_LINE = ["\u3000```", "\u00a0~~~", "\u2003````x", "\u205f```", "\u3000<script>"];

/** Several lines: the first one's indentation is what keeps it from opening a block. */
const MULTI_LINE = ["    ```\nfoo", "\t~~~\nfoo", "\u3000```\nfoo", "\u3000<pre>\nx"];

/** Nothing open read alone; under a tag line that starts an HTML block, the last fence opens one. */
const CLOSED_ALONE = "Use tabs.\n```\n\nThat was a sample.\n```";

const SECTIONS: Record<string, [string, string]> = {
  "your section without a tag": ["usec.md", "---\norder: 5\ntag: false\n---\n{{vars.notes}}"],
  "your section <team_notes>": ["team_notes.md", "---\norder: 5\n---\n{{vars.notes}}"],
  "your section <usec>": ["usec.md", "---\norder: 5\n---\n{{vars.notes}}"],
  'an {{#xml "team_notes"}} block mid-section': [
    "usec.md",
    '---\norder: 5\n---\nTeam notes, from the project:\n\n{{#xml "team_notes"}}{{vars.notes}}{{/xml}}',
  ],
  'an {{#xml "notes"}} block mid-section': [
    "usec.md",
    '---\norder: 5\n---\nTeam notes, from the project:\n\n{{#xml "notes"}}{{vars.notes}}{{/xml}}',
  ],
};

async function render(files: Record<string, string>, extra = {}) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "USER-AGENTS-MARKER: answer in French.\n",
    ...files,
  });
  return (
    await renderSystemPrompt(pinned(root, { projectTrusted: true, configFiles: true, ...extra }))
  ).text;
}

function section([file, text]: [string, string], value: string) {
  return {
    [`agent/sections/${file}`]: `${text}\n\nUSER-AFTER: keep the notes above in mind.\n`,
    "project/.pi/sysprompt.yaml": `vars:\n  notes: ${JSON.stringify(value)}\n`,
  };
}

describe("hostile repository: a section's or an element's trim opens no block", () => {
  for (const [where, spec] of Object.entries(SECTIONS)) {
    it.each([...ONE_LINE, ...MULTI_LINE, CLOSED_ALONE])(
      `a project's var %j at the start of ${where}`,
      async (value) => {
        const text = await render(section(spec, value));
        expect(text).toContain("USER-AFTER");
        // A one-line value's backticks are written `&#96;` (rev68c F2).
        const start = value.trim().slice(1);
        const shown = value.includes("\n") ? start : start.replaceAll("`", "&#96;");
        expect(text).toContain(value.includes("foo") ? "foo" : shown);
        for (const needle of NEEDLES)
          expect(swallowed(text, needle), `${JSON.stringify(value)} / ${needle}`).toBe(false);
      },
    );
  }

  it("a trusted project's APPEND_SYSTEM.md that reads closed alone, first in <addendum>", async () => {
    const text = await render({
      "agent/APPEND_SYSTEM.md": "USER-APPEND: be terse.\n",
      "project/.pi/APPEND_SYSTEM.md": `${CLOSED_ALONE}\n`,
    });
    expect(text).toContain("That was a sample.");
    for (const needle of NEEDLES.slice(0, 1).concat("Current working directory"))
      expect(swallowed(text, needle), needle).toBe(false);
  });

  it.each([false, true])(
    "a repository file named by appendSystemPrompt, first in <addendum> (trusted: %s)",
    async (projectTrusted) => {
      const text = await render(
        { "project/docs/agent-notes.md": `${CLOSED_ALONE}\n` },
        { projectTrusted, appendSystemPrompt: ["docs/agent-notes.md", "Be brief."] },
      );
      expect(text).toContain("That was a sample.");
      expect(text).toContain("Be brief.");
      for (const needle of ["USER-AGENTS-MARKER", "Current working directory"])
        expect(swallowed(text, needle), needle).toBe(false);
    },
  );
});
