import { describe, expect, it } from "vitest";
import { hostClosingAfter, lastLineOpenToYours } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expectOutside } from "./_raw-reading.js";

// Review rev80c F2. An element outside HTML's formatting elements that only an HTML parser fed
// the raw prompt opens (`` Mark removed text with `<del>`. ``, `` `<kbd>` ``, `` `<span
// style="color:white">` ``, `` `<bdo dir=rtl>` ``, `` `<sub>` ``, an unknown `` `<t style=…>` ``) was
// never closed: the raw reading told only elements that hide, capture or format, so your words
// after `{{content}}` in your section, and after a trusted SYSTEM.md (printed in no element)
// your AGENTS.md, your sections and `<cwd>`, were struck out, white, reversed or lowered for that
// parser. Now every element of the text still open around the words after it is ended on the
// end-tag line (`<!----></del>`), on touch too; but an element of no HTML name with no attribute
// that draws (`Promise<T>`'s `<t>`, an autolink's `<https:>`), which changes nothing of how your
// words are drawn and which real Markdown opens by the hundred, is left open (known limit).
//
// Review rev80c F3. (a) The same element left open on a text's last line (`Old rules: <del>always
// push`) held your words printed on that line for CommonMark readers too; only hiding and
// formatting elements were closed. (b) A multi-line value's last paragraph has its backticks
// written `&#96;`, which turned its code span `` `<del>` `` into markup holding your words: the
// `<` in such a span is now written `&lt;`.
//
// Review rev80b F3 for these elements: the end-tag line is bounded (1,024 characters); past it
// the text is written as text, with the warning, and a tool result gets nothing after it.

async function render(files: Record<string, string>, trusted: boolean) {
  const root = tempDir();
  writeFiles(root, { "project/.git/HEAD": "ref: refs/heads/main\n", ...files });
  return renderSystemPrompt(pinned(root, { projectTrusted: trusted, configFiles: true }));
}

/** Your section printing each context file, then your words on its line and on the next. */
const mySection =
  "---\norder: 95\n---\nIntro.\n\n{{#each contextFiles}}\nFrom {{path}}: {{content}} QZ-NEVER push to main.\n\nQZ-NEXT: yours wins.\n\n{{/each}}\n";

const next = '<instructions path="r.mdc">\nQZ-GLOB-RULE: typed.\n</instructions>';

// The third: written `&lt;` since rev82f F1, F4 (a `style` or `dir` attribute, `<bdo>`, draws
// anything but in place), with page-tag-escaped, instead of ended.
const TAGS = [
  ["<del>", "del", false],
  ["<kbd>", "kbd", false],
  ['<span style="color:white">', "span", true],
  ["<bdo dir=rtl>", "bdo", true],
  ["<sub>", "sub", false],
  ['<t style="color:white">', "t", true],
  ['<span lang="ar">', "span", false],
] as const;

describe("hostile repository: an element only a raw HTML reader opens, of any kind, is ended after the text (rev80c F2)", () => {
  for (const [tag, name, escaped] of TAGS)
    it(`a trusted project's .pi/SYSTEM.md naming \`${tag}\` in a code span: your AGENTS.md, sections and <cwd> are not in <${name}>`, async () => {
      const result = await render(
        {
          "agent/AGENTS.md": "MYRULE-NEVER push to main.\n",
          "agent/sections/mysec.md": "---\norder: 95\n---\nMYSEC-MARK: yours wins.\n",
          "project/.pi/SYSTEM.md": `You are a helper. Mark removed text with \`${tag}\`.\n`,
        },
        true,
      );
      expectOutside(result.text, ["MYRULE", "MYSEC-MARK", "Current working directory"], [name]);
      // Shown as written to a Markdown reader: ended, not escaped; or escaped, with the warning.
      if (escaped) {
        expect(result.text).toContain(`\`&lt;${tag.slice(1)}\``);
        expect(result.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
      } else expect(result.text).toContain(`\`${tag}\``);
    });

  for (const [tag, name] of [
    ["<del>", "del"],
    ["<samp>", "samp"],
    ['<span style="opacity:0">', "span"],
    ["<sub>", "sub"],
  ] as const)
    it(`an untrusted AGENTS.md naming \`${tag}\`, printed by your section: your words after it are not in <${name}>`, async () => {
      const result = await render(
        {
          "agent/sections/mysec.md": mySection,
          "project/AGENTS.md": `# Project\n\nMark removed text with \`${tag}\`.\n`,
        },
        false,
      );
      expectOutside(result.text, ["QZ-NEVER", "QZ-NEXT", "Current working directory"], [name]);
    });

  it("an element that draws inside one of the same name that draws nothing: both are ended, no fallback", async () => {
    const result = await render(
      {
        "agent/sections/mysec.md": mySection,
        // (`dir` is not kept since rev82f F1: `lang` is, and draws in place.)
        "project/AGENTS.md": "# Project\n\nUse `<x lang=ar>` and then `<x>` here.\n",
      },
      false,
    );
    expect(result.text).toContain("<!----></x></x>");
    expect(result.diagnostics.map((d) => d.code)).not.toContain("context-markup-as-text");
    expectOutside(result.text, ["QZ-NEVER", "QZ-NEXT"], ["x"]);
  });

  it("a normal project's autolink and `Promise<void>` get no end-tag line (no HTML name, nothing drawn)", async () => {
    const result = await render(
      {
        "project/AGENTS.md":
          "# Project\n\nSee <https://example.com/docs> for docs. Use `Promise<void>` for helpers.\n\nBuild with make.\n",
      },
      true,
    );
    expect(result.text).toContain("Use `Promise<void>` for helpers.");
    expect(result.text).not.toContain("<!---->");
    expect(hostClosingAfter("1\tconst x: Map<string, Promise<void>> = new Map();\n")).toBe("");
  });

  it("on touch: a tool result naming `<del>` gets a closer that leaves the host's next text in no <del>", () => {
    const output = "1\tMark removed text with `<del>`.\n";
    const closer = hostClosingAfter(output);
    expect(closer).toContain("</del>");
    expectOutside(`${output}${closer}\n\n${next}`, ["QZ-GLOB-RULE"], ["del"]);
  });

  it('on touch: `<span style="opacity:0">` in a tool result is ended too', () => {
    const output = '1\tSee `<span style="opacity:0">` here.\n';
    const closer = hostClosingAfter(output);
    expectOutside(`${output}${closer}\n\n${next}`, ["QZ-GLOB-RULE"], ["span"]);
  });
});

describe("hostile repository: an element left open on a text's last line holds none of your words on it (rev80c F3)", () => {
  for (const [body, name] of [
    ["Old rules: <del>always push", "del"],
    ['See <span style="color:white">notes', "span"],
    ["Press <kbd>x", "kbd"],
  ] as const)
    it(`an untrusted AGENTS.md ending \`${body}\`: your words on its line are in no <${name}> for raw and CommonMark readers`, async () => {
      const result = await render(
        { "agent/sections/mysec.md": mySection, "project/AGENTS.md": `# Project\n\n${body}\n` },
        false,
      );
      expectOutside(result.text, ["QZ-NEVER", "QZ-NEXT"], [name], true);
    });

  for (const body of ["Old rules: <del>always push", 'See <span style="color:white">notes'])
    it(`the CommonMark last-line check: \`${body}\` then your words on its line is written as text`, () => {
      const told: string[] = [];
      const out = lastLineOpenToYours(`# Project\n\n${body}`, " ", () => told.push("escaped"));
      expect(out).toContain("&lt;");
      expect(told).toEqual(["escaped"]);
      expectOutside(`${out} QZ-NEVER push.\n`, ["QZ-NEVER"], ["del", "span"], true);
    });

  it("an untrusted AGENTS.md whose last paragraph names `<del>` in a code span and leaves a backtick open: its backticks written as text leave no <del> holding your words", async () => {
    const result = await render(
      {
        "agent/sections/mysec.md": mySection,
        "project/AGENTS.md": "# Project\n\nMark removed lines with `<del>` always, see `x",
      },
      false,
    );
    expect(result.text).toContain("&#96;&lt;del>&#96; always, see &#96;x QZ-NEVER push to main.");
    expectOutside(result.text, ["QZ-NEVER", "QZ-NEXT"], ["del"], true);
  });

  it("a trusted project's value of several lines whose last paragraph names `<del>` in a code span: your words after it are in no <del>", async () => {
    const result = await render(
      {
        "agent/sections/team.md":
          "---\norder: 96\n---\nOur team is {{vars.team}} and MYWORDS-NEVER push.\n",
        "project/.pi/sysprompt.yaml":
          'vars:\n  team: "core\\n\\nMark removed lines with `<del>` always"\n',
      },
      true,
    );
    // Its code span's `<` is text, as the span showed it: no closer line, your words on its line.
    expect(result.text).toContain("&#96;&lt;del>&#96; always and MYWORDS-NEVER push.");
    expectOutside(result.text, ["MYWORDS-NEVER"], ["del"], true);
  });
});

describe("hostile repository: the end-tag line of elements of any kind is bounded (rev80b F3)", () => {
  // 400 distinct `<del xN>`: 2,400 characters of `</del>`, past the closers' 1,024.
  const samples = `# Project\n\n${Array.from({ length: 400 }, (_, i) => `Use \`<del x${i}>\` here.`).join("\n\n")}\n`;

  it("an untrusted AGENTS.md of hundreds of `<del xN>` samples: written as text, with a warning", async () => {
    const result = await render(
      { "agent/sections/mysec.md": mySection, "project/AGENTS.md": samples },
      false,
    );
    const longest = Math.max(...result.text.split("\n").map((line) => line.length));
    expect(longest).toBeLessThan(1200);
    expect(result.diagnostics.map((d) => d.code)).toContain("context-markup-as-text");
    expectOutside(result.text, ["QZ-NEVER", "QZ-NEXT", "Current working directory"], ["del"]);
  });

  it("a tool result of the same: nothing is appended after it", () => {
    expect(hostClosingAfter(samples)).toBeUndefined();
  });
});
