import { describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { touchedElement } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expectRawPlain, rawFormattingAround } from "./_raw-reading.js";

// Review rev80c F1. HTML's list of active formatting elements keeps at most three identical
// entries (the Noah's Ark clause) and drops the earliest: four `` `<s>` `` (or `` `<font
// color=white>` ``) leave that one open on the stack of open elements, off the list. The raw
// reading told only the list's three, so the end-tag line after the text ended three and your
// words after it (your AGENTS.md, your sections, `<cwd>`, the next file on touch) were struck
// out or drawn white for an HTML parser fed the raw prompt. Now every formatting element open
// around the words is ended.
//
// Review rev80b F3. That end-tag line had no bound: 64 KB of `` `<b xN>` `` samples (each
// distinct, so each kept in the list) gave one 11,599-character line, told nothing. Past the
// CommonMark closers' bound (1,024 characters) a repository's text is written as text, with the
// markup-as-text warning, and a tool result gets nothing after it.

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

/** Your section printing each context file, then your words on its line and on the next. */
const mySection =
  "---\norder: 95\n---\nIntro.\n\n{{#each contextFiles}}\nFrom {{path}}: {{content}} QZ-NEVER push to main.\n\nQZ-NEXT: yours wins.\n\n{{/each}}\n";

const next = '<instructions path="r.mdc">\nQZ-GLOB-RULE: typed.\n</instructions>';

describe("hostile repository: four identical formatting tags leave none open around your words (rev80c F1)", () => {
  for (const [name, agents] of [
    ["four `<s>` in code spans", "# Project\n\nUse `<s>` `<s>` `<s>` `<s>` in diffs."],
    ["four `<b>` in code spans", "# Project\n\nUse `<b>` `<b>` `<b>` `<b>` here."],
    ["an indented sample of four `<s>`", "# Project\n\n    <s>\n    <s>\n    <s>\n    <s>\n"],
    ["`<s>` x3, `<s x>`, `<s>`", "# Project\n\nUse `<s>` `<s>` `<s>` `<s x>` `<s>` in diffs."],
  ] as const)
    it(`an untrusted AGENTS.md with ${name}: your words after it are in no formatting element`, async () => {
      const result = await render(
        { "agent/sections/mysec.md": mySection, "project/AGENTS.md": agents },
        false,
      );
      expectRawPlain(result.text, ["QZ-NEVER", "QZ-NEXT", "Current working directory"], name);
    });

  it("a trusted project's .pi/SYSTEM.md with four `<font color=white>`: your AGENTS.md and sections are not white", async () => {
    const result = await render(
      {
        "agent/AGENTS.md": "MYRULE-NEVER push to main.\n",
        "agent/sections/mysec.md": "---\norder: 95\n---\nMYSEC-MARK: yours wins.\n",
        "project/.pi/SYSTEM.md":
          "You are a helper. Use `<font color=white>` `<font color=white>` `<font color=white>` `<font color=white>` for notes.\n",
      },
      true,
    );
    expectRawPlain(result.text, ["MYRULE", "MYSEC-MARK", "Current working directory"], "SYSTEM.md");
  });

  it("a trusted project's partial with four `<s>` in your section: your words after it are in no <s>", async () => {
    const result = await render(
      {
        "agent/sections/mysec.md":
          "---\norder: 95\n---\nIntro {{> notes}} MYWORDS never push.\n\nMYNEXT ok.\n",
        "project/.pi/partials/notes.md": "Use `<s>` `<s>` `<s>` `<s>` in diffs.\n",
      },
      true,
    );
    expectRawPlain(result.text, ["MYWORDS", "MYNEXT", "Current working directory"], "partial");
  });

  it("on touch: a nested AGENTS.md with four `<s>` leaves the next file in no <s>", () => {
    const element = touchedElement(
      {
        path: "/p/sub/AGENTS.md",
        content: "Use `<s>` `<s>` `<s>` `<s>` in diffs.",
        kind: "context",
      },
      "/p",
    );
    expect(rawFormattingAround(`<instructions>\n${element}\n${next}`, "QZ-GLOB-RULE")).toEqual([]);
  });

  it("a tool result with four `<s>`: the host's closer leaves what follows in no <s>", () => {
    const output = "1\tUse `<s>` `<s>` `<s>` `<s>` in diffs.\n";
    const closer = hostClosingAfter(output);
    expect(closer).toBeDefined();
    expect(rawFormattingAround(`${output}${closer}\n\n${next}`, "QZ-GLOB-RULE")).toEqual([]);
  });
});

describe("hostile repository: the end-tag line after a text is bounded (rev80b F3)", () => {
  // 400 distinct `<b xN>`: 1,600 characters of `</b>`, past the closers' 1,024.
  const samples = `# Project\n\n${Array.from({ length: 400 }, (_, i) => `Use \`<b x${i}>\` here.`).join("\n\n")}\n`;

  it("an untrusted AGENTS.md of hundreds of distinct `<b xN>` samples: written as text, with a warning", async () => {
    const result = await render(
      { "agent/sections/mysec.md": mySection, "project/AGENTS.md": samples },
      false,
    );
    const longest = Math.max(...result.text.split("\n").map((line) => line.length));
    expect(longest).toBeLessThan(1200);
    expect(result.text).not.toContain("</b></b></b></b></b></b></b></b>");
    expect(result.diagnostics.map((d) => d.code)).toContain("context-markup-as-text");
    expectRawPlain(result.text, ["QZ-NEVER", "QZ-NEXT", "Current working directory"], "samples");
  });

  it("a tool result of the same: nothing is appended after it", () => {
    expect(hostClosingAfter(samples)).toBeUndefined();
  });

  it("a few samples are still closed on a line of their own", () => {
    const few = "Use `<b x1>` and `<b x2>` here.\n";
    expect(hostClosingAfter(few)).toContain("</b></b>");
  });
});
