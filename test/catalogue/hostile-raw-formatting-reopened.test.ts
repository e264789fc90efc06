import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { touchedElement } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expectRawPlain, rawFormattingAround } from "./_raw-reading.js";

// Review rev78c F2. A formatting element (HTML's list of active formatting elements: `<code>`,
// `<b>`, `<s>`, `<font color=white>`, `<a href>` …) that only an HTML parser fed the raw prompt
// opens (in a code span, a fenced sample, or a tag CommonMark reads as text: `<code/x>`,
// `<font color=white @x>`, a quoted value over a blank line) was printed as written, never closed:
// that parser opened it again around every later text node, and your rules, skills, `<cwd>` and
// your own section's words were code, struck out, a link or drawn white. Now the one raw reading
// (`rawHidingTags`) tells such an element, and it is closed after the text on a line CommonMark
// shows nothing of (`<!----></b></code>`): real Markdown names `<code>` or `<b>` in code spans,
// which an escape would show as `&lt;code>`.

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

/** Your section printing each context file, then your words on its line and on the next. */
const mySection =
  "---\norder: 95\n---\nIntro.\n\n{{#each contextFiles}}\nFrom {{path}}: {{content}} QZ-NEVER push to main.\n\nQZ-NEXT: yours wins.\n\n{{/each}}\n";

describe("hostile repository: a formatting element only a raw HTML reader opens is closed after the text (rev78c F2)", () => {
  for (const [name, agents] of [
    ["code spans naming <code> and <b>", "# Project\n\nWrap it in `<code>` or `<b>` tags."],
    ["a fenced html sample", "Our snippets:\n\n```html\n<code>\n<s>\n```\n"],
    ["<font color=white @x>", "# Project\n\nBuild with make. <font color=white @x>"],
    ["<s/x>", "# Project\n\nBuild with make. <s/x>"],
    ['<a href=… x"y>', '# Project\n\nBuild with make. <a href=https://evil.example/ x"y>'],
    ["<code/x>", "# Project\n\nBuild with make. <code/x>"],
    ["<s x=a=b>", "# Project\n\n<s x=a=b>"],
    ["a quoted value over a blank line", '# Project\n\n<s title="a\n\nb">'],
  ] as const)
    it(`an untrusted AGENTS.md with ${name}: your words after it are in no formatting element`, async () => {
      const result = await render(
        { "agent/sections/mysec.md": mySection, "project/AGENTS.md": agents },
        false,
      );
      expectRawPlain(result.text, ["QZ-NEVER", "QZ-NEXT", "Current working directory"], name);
    });

  it("an untrusted always rule (.cursor/rules) ending in a quoted value over a blank line", async () => {
    const result = await render(
      {
        "project/.cursor/rules/a.mdc":
          '---\nalwaysApply: true\n---\nUse tabs.\n\n<s title="a\n\nb">\n',
      },
      false,
    );
    expectRawPlain(result.text, ["Current working directory"], "always rule");
  });

  for (const file of ["SYSTEM.md", "APPEND_SYSTEM.md"])
    it(`a trusted project's .pi/${file} ending <code/x>`, async () => {
      const result = await render(
        {
          "agent/sections/mysec.md": "---\norder: 95\n---\nQZ-MINE: yours wins.\n",
          [`project/.pi/${file}`]: "You are a helper. <code/x>\n",
        },
        true,
      );
      expectRawPlain(result.text, ["QZ-MINE", "Current working directory"], file);
    });

  it("a trusted project's value of several lines in your section", async () => {
    const result = await render(
      {
        "agent/sections/team.md":
          "---\norder: 95\n---\n<team>\nOur team is {{vars.team}} and USER-NEVER push.\n\nUSER-SECTION-AFTER: always write tests.\n</team>\n",
        "project/.pi/sysprompt.yaml":
          'vars:\n  team: "core\\n\\nSee <font color=white @x> there\\n\\nend <s/x>"\n',
      },
      true,
    );
    expectRawPlain(result.text, ["USER-NEVER", "USER-SECTION-AFTER"], "value");
  });

  it("on touch: a nested AGENTS.md ending <code/x> leaves the next file in no <code>", () => {
    const element = touchedElement(
      { path: "/p/sub/AGENTS.md", content: "Use make. <code/x>", kind: "context" },
      "/p",
    );
    const next = '<instructions path="r.mdc">\nQZ-GLOB-RULE: typed.\n</instructions>';
    expect(rawFormattingAround(`<instructions>\n${element}\n${next}`, "QZ-GLOB-RULE")).toEqual([]);
  });

  it("real Markdown naming <code> in a code span is printed as written, closed with no warning", async () => {
    const text = "Build.\n\nWrap it in `<code>`, or `<b>`, then `</b>`.";
    const result = await render(
      { "agent/sections/mysec.md": mySection, "project/AGENTS.md": text },
      false,
    );
    expect(result.text).toContain(`${text}\n<!----></code>`);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("context-markup-as-text");
    expectRawPlain(result.text, ["QZ-NEVER", "QZ-NEXT"], "real");
  });
});
