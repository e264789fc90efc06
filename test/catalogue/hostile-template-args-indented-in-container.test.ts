import { describe, expect, it } from "vitest";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev56c (F7, low): indented code inside a block quote or a list item
// (`> quote\n>\n>     $ARGUMENTS`) held your arguments with no word: the
// four-column rule was applied only to a line of blanks, not after a
// container's markers. Now blanks after the markers that make your words
// indented code end the line before them, with `arguments-hidden`.

const WORDS = "never push to main";

describe("hostile repository: indented code in a container cannot hold your arguments", () => {
  it("in a block quote, a list item, nested: your words leave the code", () => {
    for (const content of [
      "Review.\n\n> quote\n>\n>     $ARGUMENTS\n\nTAIL\n",
      "> > a\n> >\n> >     $ARGUMENTS\n",
      "-     $ARGUMENTS\n",
      "1. a\n\n       $ARGUMENTS\n",
    ]) {
      const out = expandProjectTemplate(content, `/t ${WORDS}`);
      expect(placeOf(out.text, WORDS).block, content).not.toBe("code");
      expect(
        out.diagnostics.map((d) => d.code),
        content,
      ).toEqual(["arguments-hidden"]);
    }
  });

  it("text in a quote or an item, a lazy line: left as written", () => {
    for (const content of [
      "> quote\n>\n> $ARGUMENTS\n",
      "> a\n>     $ARGUMENTS\n",
      "- a\n\n  $ARGUMENTS\n",
    ]) {
      const out = expandProjectTemplate(content, `/t ${WORDS}`);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toBe(content.replace("$ARGUMENTS", WORDS));
    }
  });
});
