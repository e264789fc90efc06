import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev89c (F3, medium): with a trusted project's slash template `Review: $ARGUMENTS`,
// typing `/r Press <kbd class="key">Ctrl</kbd>, then fix <input type="checkbox"> and
// <details open>` printed YOUR words rewritten (`&lt;kbd…`, `&lt;input…`, `&lt;details open>`)
// and a `page-tag-escaped` warning blaming the template's file at a line it does not have:
// the expansion, template and arguments together, was escaped as a text not yours. A project
// skill and your own template print the same words as typed. Now a tag wholly in your arguments
// is your own text (the host's elements only, as `ownTextNames`); every other tag, the
// template's own, one split by a placeholder, one your words start and the template ends, a
// default's, is the template's, told at the template's line.

const TYPED =
  'Press <kbd class="key">Ctrl</kbd>, then fix <input type="checkbox"> and <details open> in src/a.html';

function codes(out: { diagnostics: { code: string }[] }) {
  return out.diagnostics.map((d) => d.code);
}

describe("hostile repository: a project's slash template does not rewrite the tags you type", () => {
  it("F3: `Review: $ARGUMENTS` prints your words as typed, with no warning", () => {
    const out = expandProjectTemplate("Review: $ARGUMENTS\n", `/t ${TYPED}`);
    expect(out.text).toBe(`Review: ${TYPED}\n`);
    expect(codes(out)).toEqual([]);
    // As your own template prints them.
    const mine = expandPromptTemplateResult(`/t ${TYPED}`, [
      { name: "t", content: "Review: $ARGUMENTS\n", source: "user", filePath: "/h/prompts/t.md" },
    ]);
    expect(mine.text).toBe(out.text);
  });

  it("a tag in each of several arguments, JSX and a page's tag you type: yours", () => {
    const out = expandProjectTemplate(
      "Fix $1 in $2.\n\nThen: $3\n",
      '/t "<Button onClick={go}>" src/a.tsx "<style> and <body hidden> in the page"',
    );
    expect(out.text).toBe(
      "Fix <Button onClick={go}> in src/a.tsx.\n\nThen: <style> and <body hidden> in the page\n",
    );
    expect(codes(out)).toEqual([]);
  });

  it("the host's elements are still held in your arguments", () => {
    const out = expandProjectTemplate("do $1\n", "/t <user>x</user><kbd>y</kbd>");
    expect(out.text).toBe("do &lt;user>x&lt;/user><kbd>y</kbd>\n");
  });

  it("the template's own tag is held and told at its line, after your multi-line words", () => {
    const content = "Review:\n$ARGUMENTS\n<$0dialog open>covered</dialog>\n";
    const out = expandProjectTemplate(content, '/t "a\nb\nc\n<kbd>K</kbd>\nd"');
    expect(out.text).toContain("<kbd>K</kbd>");
    expect(out.text).toContain("&lt;dialog open>covered");
    expect(codes(out)).toEqual(["page-tag-escaped"]);
    expect(out.diagnostics[0]?.path).toBe("/p/.pi/prompts/t.md");
    expect(out.diagnostics[0]?.message).toContain('"<dialog open>" (line 3,');
  });

  it("a tag the template ends around your words, or a default's, is the template's", () => {
    // Your `<kbd` ended by the template's ` hidden>`: not wholly yours.
    const ended = expandProjectTemplate("Fix $1 hidden>$2\n", '/t "<kbd" NOT-SHOWN');
    expect(ended.text).toContain("&lt;kbd hidden>");
    expect(codes(ended)).toContain("page-tag-escaped");
    // The template's `<` before your words (`<$1`): the guard moves them out of its tag.
    const opened = expandProjectTemplate("Fix <$1> $2\n", "/t dialog NOT");
    expect(opened.text).not.toMatch(/<dialog/);
    expect(codes(opened)).toEqual(["arguments-hidden"]);
    // A default's text is the template's.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test.
    const fallback = expandProjectTemplate("Fix ${1:-<dialog open>}x\n", "/t");
    expect(fallback.text).toContain("&lt;dialog open>");
    expect(codes(fallback)).toEqual(["page-tag-escaped"]);
  });

  it("a template that hides around your words is still caught: arguments-hidden", () => {
    const content = "Review.\n\n<details>\n$ARGUMENTS\n</details>\n";
    const out = expandProjectTemplate(content, "/t NOT <kbd>Ctrl</kbd>");
    expect(placeOf(out.text, "NOT").block).toBe("paragraph");
    expect(out.text).toContain("NOT <kbd>Ctrl</kbd>");
    expect(codes(out)).toEqual(["arguments-hidden"]);
  });
});
