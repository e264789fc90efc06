import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { commonmarkHtml } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { renderYourSection } from "./_your-section.js";

// Review rev70a F8: an untrusted `AGENTS.md` (or always rule) ending in a lone backtick (``see `x``),
// printed by your ``From {{path}}: {{content}} and QZ-NEVER push to `main`.``, made your words up
// to your own backtick a code span (``<code>x and QZ-NEVER push to </code>``), no warning. rev68c
// F5 held this for values and names only. Review rev70a F6 (rev68f F2 for a trusted project's
// value): one ending in a GFM table row (`| Step |` / `|-|` / `| make |`) made your words after it
// on its last line an extra cell of that row, which a GFM reader drops. `closedOpenToYours` now
// writes the last paragraph's backticks `&#96;` when a run of them may be left open there, and
// ends a last run of lines a GFM reader may read as a table with a blank line.

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

const section = (body: string) => `---\norder: 95\n---\nIntro.\n\n${body}`;
const MID_LINE =
  "{{#each contextFiles}}\nFrom {{path}}: {{content}} and QZ-NEVER push to `main`.\n\n{{/each}}\n";
const TABLE_LINE =
  "{{#each contextFiles}}\nFrom {{path}}: {{content}} (QZ-TAIL: the user's rules win | NEVER push to main.)\n\n{{/each}}\n";

/** The code spans CommonMark reads in `text`. */
const codeSpans = (text: string) =>
  [...commonmarkHtml(text).matchAll(/<code>([^<]*)<\/code>/g)].map((m) => m[1] ?? "");

/**
 * Whether the words at `marker` are in a run of lines (to a blank line) that holds a line a GFM
 * reader may take for a table's delimiter row: then they are a cell or a row of that table.
 */
function inTableRun(text: string, marker: string): boolean {
  const at = text.indexOf(marker);
  const start = text.lastIndexOf("\n\n", at);
  const end = text.indexOf("\n\n", at);
  const run = text.slice(start + 2, end === -1 ? text.length : end);
  return run.split("\n").some((l) => /^[\s>|:-]*$/.test(l) && l.includes("-") && /[|:]/.test(l));
}

describe("hostile repository: a repository text's end takes none of your words into a code span or a table cell", () => {
  for (const trusted of [false, true]) {
    const how = trusted ? "trusted" : "--untrusted";
    it(`${how}: an AGENTS.md ending in a lone backtick, printed mid-line`, async () => {
      const shapes = [
        "Build.\n\nsee `x",
        "Build.\n\nsee `a` and ``b",
        "Build.\n\nsee `a\nb` `c",
        // A backslash's backtick opens nothing; the next one does.
        "Build.\n\nsee \\`a `c",
        // Raw HTML (and a link) may take a backtick out of the runs: read liberally.
        'Build.\n\nsee <b title="`">b</b> `c',
        "Build.\n\nsee [a](/x`) `c",
      ];
      for (const agents of trusted ? shapes.slice(0, 1) : shapes) {
        const result = await render(
          { "agent/sections/mysec.md": section(MID_LINE), "project/AGENTS.md": agents },
          trusted,
        );
        const spans = codeSpans(result.text);
        expect(
          spans.filter((s) => s.includes("QZ-NEVER")),
          agents,
        ).toEqual([]);
        // Your own code span is yours.
        expect(spans, agents).toContain("main");
      }
    });

    it(`${how}: an AGENTS.md whose code spans are closed is printed as written`, async () => {
      for (const agents of [
        "Build.\n\nRun `make` and ``a`b`` first.",
        "Run `make`.\n\n```\nx `y\n```",
      ]) {
        const result = await render(
          { "agent/sections/mysec.md": section(MID_LINE), "project/AGENTS.md": agents },
          trusted,
        );
        expect(result.text, agents).toContain(agents);
        expect(result.text, agents).not.toContain("&#96;");
      }
    });

    it(`${how}: an always rule ending in a lone backtick`, async () => {
      const result = await render(
        {
          "agent/sections/mysec.md": section(
            "{{#each alwaysRules}}\n{{name}}: {{content}} and QZ-NEVER push to `main`.\n\n{{/each}}\n",
          ),
          "project/.cursor/rules/style.mdc": "---\nalwaysApply: true\n---\nUse tabs; see `x\n",
        },
        trusted,
      );
      expect(result.text).toContain("Use tabs; see &#96;x");
      expect(codeSpans(result.text).filter((s) => s.includes("QZ-NEVER"))).toEqual([]);
    });

    it(`${how}: an AGENTS.md ending in a GFM table row, printed mid-line`, async () => {
      for (const agents of [
        "Build.\n\n| Step |\n|-|\n| make |",
        "Build.\n\n> | Step |\n> |-|\n> | make |",
        "Build.\n\n- | Step |\n  | :- |\n  | make",
      ]) {
        const result = await render(
          { "agent/sections/mysec.md": section(TABLE_LINE), "project/AGENTS.md": agents },
          trusted,
        );
        // The table is the repository's, as written; your words are a paragraph after it.
        expect(result.text, agents).toContain(agents.slice(agents.indexOf("\n\n") + 2));
        expect(inTableRun(result.text, "QZ-TAIL"), agents).toBe(false);
      }
    });

    it(`${how}: an AGENTS.md ending in a thematic break and a line is printed as written`, async () => {
      const agents = "Build.\n\n---\nLast updated by ops.";
      const result = await render(
        { "agent/sections/mysec.md": section(TABLE_LINE), "project/AGENTS.md": agents },
        trusted,
      );
      expect(result.text).toContain(`${agents} (QZ-TAIL`);
    });
  }

  it("a trusted project's value ending in a table row, printed mid-line (rev68f F2)", async () => {
    const { mine } = await renderYourSection("Team {{vars.team}} (QZ-TAIL: a | NEVER push.)\n", {
      team: "core\n\n| Step |\n|-|\n| make |",
    });
    expect(mine).toContain("| make |");
    expect(inTableRun(mine, "QZ-TAIL")).toBe(false);
  });
});
