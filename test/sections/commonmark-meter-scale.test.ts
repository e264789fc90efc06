import { HtmlRenderer, Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import {
  commonmarkHtml,
  MAX_INLINE_WORK,
  MAX_RENDER_HTML,
  MAX_RENDER_NODES,
} from "../../src/sections/_commonmark.js";

// commonmarkHtml meters commonmark as it works (rev66b F2, rev66c F7): the same HTML as the
// renderer alone, or undefined past one of its bounds.
const plain = (markdown: string) => new HtmlRenderer().render(new Parser().parse(markdown));

describe("commonmarkHtml: the renderer metered", () => {
  it("writes what the renderer alone writes", () => {
    const markdown = [
      "# Title *em* `code`",
      "",
      'Text with [a link](http://x.y "t"), a [reference][r], ![an image](i.png), <b>raw</b> & more.',
      "",
      "[r]: /u",
      "",
      "- item _one_",
      "  > quoted **two**",
      "- item <span hidden>three</span>",
      "",
      "```js",
      "a < b",
      "```",
      "",
      "<div hidden>",
      "",
      "Setext",
      "------",
    ].join("\n");
    expect(commonmarkHtml(markdown)).toBe(plain(markdown));
  });

  it(`makes at most ${MAX_RENDER_NODES} block nodes`, () => {
    // A list, then an item and a paragraph a line.
    const items = (n: number) => "- a\n".repeat(n);
    const most = Math.floor((MAX_RENDER_NODES - 1) / 2);
    expect(commonmarkHtml(items(most))).toBe(plain(items(most)));
    expect(commonmarkHtml(items(most + 1))).toBeUndefined();
  });

  it("reads at most MAX_INLINE_WORK of inlines: a paragraph's length times its starts", () => {
    // 4 characters and 2 starts a `*a* `: 8 k² in all.
    const most = Math.floor(Math.sqrt(MAX_INLINE_WORK / 8));
    const emphasis = (k: number) => "*a* ".repeat(k);
    expect(commonmarkHtml(emphasis(most))).toBe(plain(emphasis(most)));
    expect(commonmarkHtml(emphasis(most + 1))).toBeUndefined();
    // The same starts over paragraphs of their own cost far less.
    const apart = (k: number) => "*a* *b*\n\n".repeat(k);
    expect(commonmarkHtml(apart(most))).toBe(plain(apart(most)));
  });

  it("counts no step that reads nothing more: `<` before a space, `!` not before `[`, `*` between spaces, `_` inside a word", () => {
    // 240 KB of code in one paragraph: 40,000 such characters would count past the bound.
    const code = "if (!a_b && c < d) x = y * 2;\n".repeat(8000);
    expect(commonmarkHtml(code)).toBe(plain(code));
    expect(commonmarkHtml(code.replaceAll("c < d", "c <d"))).toBeUndefined();
  });

  it(`writes at most ${MAX_RENDER_HTML} characters of HTML (a link's destination again at each use)`, () => {
    const uses = (n: number) => `[y]: /${"a".repeat(1000)}\n\n${"[y] ".repeat(n)}`;
    const each = plain(uses(2)).length - plain(uses(1)).length;
    const fits = Math.floor(MAX_RENDER_HTML / each) - 2;
    expect(commonmarkHtml(uses(fits))).toBe(plain(uses(fits)));
    expect(commonmarkHtml(uses(fits + 4))).toBeUndefined();
  });
});
