import { describe, expect, it } from "vitest";
import { withoutHidden } from "../../src/sections/user-text.js";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev56c (F1, medium): a project's slash template put your words in a
// run the section check (`withoutHidden`) counts as never shown but the
// argument guard did not know (`<template>`, `<title>`, `<iframe>`, an element
// with `hidden`, inline or across blank lines), or in a start tag's attribute
// value (`<span data-x="$ARGUMENTS">`): commonmark.js printed them only there,
// with no word. Now the guard asks the same reader (`hiddenAt`): such a run or
// tag open at the placeholder is closed before your words, which start a
// paragraph of their own, with `arguments-hidden`. Since rev82f F1, F4 a start tag that draws
// nothing in place (`<template>`, `<title>`, `<iframe>`, `<dialog>`, a `hidden` or `style`
// attribute, `<input>`) is written `&lt;` in a text not yours, with `page-tag-escaped`: it holds
// nothing; the guard's cases use `<details>`, kept, which hides its content.

const WORDS = "never push to main";

function expand(content: string) {
  return expandProjectTemplate(content, `/t ${WORDS}`);
}

describe("hostile repository: a run no reader shows or a tag's attribute cannot hold your arguments", () => {
  it("an element that hides its content (inline, across lines and blank lines): closed before them", () => {
    for (const content of [
      "Review.\n\n<details>$ARGUMENTS</details>\n\nTAIL\n",
      "Review.\n\n<details>\n$ARGUMENTS\n</details>\n\nTAIL\n",
      "Review.\n\n<details>\n\n$ARGUMENTS\n\n</details>\n\nTAIL\n",
      "Review <b>now</b>: <DETAILS>$ARGUMENTS</DETAILS>\n",
      "> <details>\n>\n> $ARGUMENTS\n>\n> </details>\n",
    ]) {
      const out = expand(content);
      expect(withoutHidden(out.text), content).toContain(WORDS);
      expect(placeOf(out.text, WORDS).block, content).toBe("paragraph");
      expect(
        out.diagnostics.map((d) => [d.code, d.path]),
        content,
      ).toEqual([["arguments-hidden", "/p/.pi/prompts/t.md"]]);
    }
  });

  it("a start tag's attributes or attribute value: the tag ended before them", () => {
    for (const content of [
      'Review.\n\n<span data-x="$ARGUMENTS"></span>\n\nTAIL\n',
      '<img alt="$ARGUMENTS">\n',
      "<div title='\n$ARGUMENTS\n'>\nok\n</div>\n",
      'See <a href=# title = "$ARGUMENTS">here</a>.\n',
      "<span $ARGUMENTS>x</span>\n",
      '<details title="$ARGUMENTS">x</details>\n',
    ]) {
      const out = expand(content);
      expect(placeOf(out.text, WORDS).block, content).toBe("paragraph");
      expect(
        out.diagnostics.map((d) => d.code),
        content,
      ).toEqual(["arguments-hidden"]);
    }
  });

  it("the line named: the placeholder's line in the file", () => {
    const out = expandProjectTemplate(
      "Review.\n\n<details>\n$ARGUMENTS\n</details>\n",
      `/t ${WORDS}`,
    );
    expect(out.diagnostics[0]?.line).toBe(4);
  });

  it("an element a reader shows, a closed tag, text with `<`: left as written", () => {
    for (const content of [
      "<div>\n$ARGUMENTS\n</div>\n",
      '<span title="x">$ARGUMENTS</span>\n',
      "if a < b then $ARGUMENTS\n",
      "<details></details> $ARGUMENTS\n",
      '<img alt="x"> $ARGUMENTS\n',
    ]) {
      const out = expand(content);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toBe(content.replace("$ARGUMENTS", WORDS));
    }
  });

  it("a tag that draws nothing in place is written &lt; (rev82f F1, F4): your words shown as written, with page-tag-escaped", () => {
    for (const content of [
      "Review.\n\n<template>$ARGUMENTS</template>\n\nTAIL\n",
      "Review.\n\n<title>$ARGUMENTS</title>\n\nTAIL\n",
      "Review.\n\n<iframe>$ARGUMENTS</iframe>\n\nTAIL\n",
      "Review.\n\n<noembed>$ARGUMENTS</noembed>\n\nTAIL\n",
      "Review.\n\n<div hidden>$ARGUMENTS</div>\n\nTAIL\n",
      "Review.\n\n<p hidden>\n$ARGUMENTS\n</p>\n\nTAIL\n",
      "Review.\n\n<textarea hidden>$ARGUMENTS</textarea>\n\nTAIL\n",
      "Review.\n\n<template>\n\n$ARGUMENTS\n\n</template>\n\nTAIL\n",
      "Review <b>now</b>: <TEMPLATE>$ARGUMENTS</TEMPLATE>\n",
      "> <div hidden>\n>\n> $ARGUMENTS\n>\n> </div>\n",
      // The section check's later additions (rev56c F5) come with the shared reader.
      "Review.\n\n<dialog>\n$ARGUMENTS\n</dialog>\n\nTAIL\n",
      '<div style="display: none">$ARGUMENTS</div>\n',
      '<input type="hidden" value="$ARGUMENTS">\n',
      '<div hidden title="$ARGUMENTS">x</div>\n',
      "<template></template> $ARGUMENTS\n",
      '<input type="hidden"> $ARGUMENTS\n',
    ]) {
      const out = expand(content);
      // The one start tag that draws nothing in place (not `<b>`, no end tag) is written `&lt;`.
      const escaped = content.replace("$ARGUMENTS", WORDS).replace(/<(?!b>|\/)/, "&lt;");
      expect(out.text, content).toBe(escaped);
      expect(withoutHidden(out.text), content).toContain(WORDS);
      expect(placeOf(out.text, WORDS).block, content).toBe("paragraph");
      expect(
        out.diagnostics.map((d) => [d.code, d.path]),
        content,
      ).toEqual([["page-tag-escaped", "/p/.pi/prompts/t.md"]]);
    }
  });
});
