import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { closeHiddenRuns } from "../../src/prompt-templates/hidden-closers.js";
import { EMPTY_COMMENT } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { depthAt } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev58f (F1, medium): a never-shown element a repository's text left
// open was taken as closed by an end tag no reader takes as one: in a comment,
// an attribute value, a code span, a fence, an indented code line, or of a
// longer name (`</divider>`). Review rev58b (F3): after a mid-line `a <?x`
// (text to a Markdown reader) nothing later was read at all. No closer was
// added, and your skill stayed inside `<div hidden>`, `--untrusted` too.
// Since rev82f F1, F4 a `hidden` attribute is not kept in a text not yours (its `<` is written
// `&lt;`): the cases hide with `<details>`, kept, which the same closers end.

function withLine(text: string, line: string): string {
  return `${text}${text.endsWith("\n") ? "" : "\n"}${line}\n`;
}

// These texts close without a fallback, so no rewritten text is closed again.
const blocks = { withLine, close: (text: string) => text };

describe("hostile repository: an end tag no reader takes does not close a never-shown element", () => {
  const tails: Record<string, string> = {
    comment: "<details>\n<!-- </details> -->\n",
    attribute: '<details>\n<span title="</details>">x</span>\n',
    "code span": "<details>\n\nUse `</details>` to end a block.\n",
    "code span over lines": "<details>\n\nUse ``x\nthen </details>\ny`` here.\n",
    fence: "<details>\n\n```html\n</details>\n```\n",
    indented: "<details>\n\nText.\n\n    </details>\n",
    "longer name": "<details>\n\nSee </detailsx>.\n",
    "after a mid-line <?": "Notes: a <?x there.\n\n<details>\n",
    "after a mid-line CDATA": "Notes: a <![CDATA[ there.\n\n<details>\n",
    // Review rev59a F3: a short comment at the very end left the element unasked.
    "short comment at the end": "<details>\nx <!---->",
    "short spaced comment at the end": "<details>\nx <!-- -->",
    "comment opener at the end": "<details>\n\n<!--",
    // Review rev59b F3: a mid-line opener "closed" paragraphs later is text to a Markdown reader.
    "<? closed paragraphs later": "Notes: a <?x there.\n\n<details>\n\nend ?> here.\n",
    "CDATA closed paragraphs later": "Notes: a <![CDATA[ there.\n\n<details>\n\nend ]]> here.\n",
    "comment closed paragraphs later": "Notes: a <!-- there.\n\n<details>\n\nend --> here.\n",
    // Review rev59b F2: end tags a Markdown reader prints as text.
    "backslash escape": "<details>\n\nx \\</details>\n",
    "link destination": "<details>\n\n[a](</details>)\n",
    "end tag with an attribute": "<details>\n\nx </details x>\n",
    "end tag with a slash": "<details>\n\nx </details/>\n",
  };
  for (const [what, tail] of Object.entries(tails)) {
    it(`an untrusted AGENTS.md ending in a <details> with an end tag in a ${what}: your skill outside it`, async () => {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": `Repo rules.\n\n${tail}`,
        "agent/skills/deploy/SKILL.md":
          "---\nname: deploy\ndescription: Deploy safely; never push to main.\n---\nbody\n",
      });
      const { text } = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
      expect(depthAt(text, "details", "Deploy safely")).toBe(0);
    });
  }

  it("a style hiding through a custom property is closed (rev59b F8)", () => {
    for (const style of [
      "--x:none;display:var(--x)",
      "display:var(--u,none)",
      "visibility:var(--v,hidden)",
    ]) {
      const text = `<div style="${style}">\nx`;
      expect(closeHiddenRuns(text, blocks), style).toBe(`${text}\n${EMPTY_COMMENT}</div>\n`);
    }
  });

  it("a real end tag still closes it: nothing added", () => {
    for (const text of [
      "<div hidden>\nx\n</div>\n",
      "<div hidden>\n<div>\nx\n</div>\n</div>\n",
      "<details>\n<summary>s</summary>\n`code` <!-- c -->\n</details>\n",
    ])
      expect(closeHiddenRuns(text, blocks), text).toBe(text);
  });

  it("a project section over yours: the end tag in a comment does not count, and the warning names it", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/usec.md": "<details>\n<!-- </details> -->\n\n{{> base}}\n",
      "agent/sections/usec.md": "---\ntag: usec\n---\nUSER-SECTION never push to main.\n",
    });
    const { diagnostics } = await renderSystemPrompt(pinned(root));
    expect(diagnostics.map((d) => d.code)).toContain("user-text-left-out");
  });

  it("a project section over yours: an end tag in a code span or an indented line does not count either (rev59b F12)", async () => {
    for (const body of [
      "<details>\n\nUse `</details>` to end it.\n\n{{> base}}\n",
      "<details>\n\nText.\n\n    </details>\n\n{{> base}}\n",
    ]) {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/.pi/sections/usec.md": body,
        "agent/sections/usec.md": "---\ntag: usec\n---\nUSER-SECTION never push to main.\n",
      });
      const { diagnostics } = await renderSystemPrompt(pinned(root));
      expect(
        diagnostics.map((d) => d.code),
        body,
      ).toContain("user-text-left-out");
    }
  });

  it("a slash template: your words after a <details> 'closed' in a comment are moved out with a warning", () => {
    const out = expandProjectTemplate(
      "<details><!-- </details> -->\n\n$ARGUMENTS\n",
      "/t never push to main",
    );
    expect(out.diagnostics.map((d) => d.code)).toEqual(["arguments-hidden"]);
    expect(depthAt(out.text, "details", "never push")).toBe(0);
  });
});
