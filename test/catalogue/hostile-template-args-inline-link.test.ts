import { describe, expect, it } from "vitest";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev57b F4 (medium): a project's slash template that puts your
// arguments in an inline link's or image's title or destination
// (`[the docs](https://x.example "$ARGUMENTS")`) showed them as a tooltip at
// most, with no word, while a link reference definition's title (rev56c F6)
// and `<a title="$ARGUMENTS">` were moved out. A destination or title the
// paragraph leaves open at the placeholder now ends before your words, which
// start a paragraph of their own, with `arguments-hidden`.

const WORDS = "never push to main";

describe("hostile repository: an inline link's title or destination cannot hold your arguments", () => {
  it("title, image title, angle destination, a title over lines: moved out with arguments-hidden", () => {
    for (const content of [
      'See [the docs](https://x.example "$ARGUMENTS").\n',
      "See [the docs](https://x.example '$ARGUMENTS').\n",
      "See [the docs](https://x.example ($ARGUMENTS)).\n",
      'See ![logo](/l.png "$ARGUMENTS").\n',
      "[a](<$ARGUMENTS>)\n",
      'See [a](/u\n"title\n$ARGUMENTS\n").\n',
      '> Quote [a](/u "$ARGUMENTS")\n',
    ]) {
      const out = expandProjectTemplate(content, `/t ${WORDS}`);
      expect(placeOf(out.text, WORDS).block, content).toBe("paragraph");
      expect(
        out.diagnostics.map((d) => [d.code, d.line]),
        content,
      ).toEqual([
        ["arguments-hidden", content.split("\n").findIndex((l) => l.includes("$ARGUMENTS")) + 1],
      ]);
    }
  });

  it("left as written: after a link is closed, a bracket alone, a link in code", () => {
    for (const content of [
      '[a](/u "t") $ARGUMENTS\n',
      "text ] ( $ARGUMENTS\n",
      '```\n[a](/u "\n```\n$ARGUMENTS\n',
      '[a](/u "x\n\n$ARGUMENTS\n',
    ]) {
      const out = expandProjectTemplate(content, `/t ${WORDS}`);
      expect(out.text, content).toBe(content.replace("$ARGUMENTS", WORDS));
      expect(out.diagnostics, content).toEqual([]);
    }
  });
});
