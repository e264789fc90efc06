import { Parser } from "commonmark";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markPrinted, placeMarked, placePrinted } from "../../src/_fence.js";
import { elementText, valueText, wrapperNames } from "../../src/_prompt-text.js";

// A text of several lines printed by your template inside a container or a
// block of its own (src/_fence.ts placePrinted), read by CommonMark's
// reference parser: your paragraph after it is at the top level, and in a
// fence or <pre> of yours the text stays inside it (one block before yours).

const LINES = [
  ...["```", "````", "~~~", "  ```", "   ```", "    ```", "> ```", "- ```", "\t```", "```js"],
  ...["~~~~~", "  ~~~", "> ~~~", "~~~~~~~~", "``````", " ~~~ ", "<!--", "-->", "<pre>", "</pre>"],
  ...["<div>", "", "", "text", "- item", "    indented", "  code", "***", "<script>", "  <!--"],
  ...["  <pre>", "x", "1. one", "> quote", "===", "---"],
  // Lines that end an item or a quote a text's first line continues lazily, or widen an item.
  ...[" x", "     code", "2) two", "+ p", "* * *", "# h", "  - sub", "\tx", "---x", "<div>x"],
];
const NAMES = wrapperNames([], false, []);

const AROUND: Record<string, (v: string) => string> = {
  item: (v) => `- Notes: ${v}`,
  itemLine: (v) => `- Notes:\n  ${v}`,
  nested: (v) => `- a\n  - ${v}`,
  ordered: (v) => `1. ${v}`,
  quote: (v) => `> ${v}`,
  // Review rev49a F2: an empty item, the value on its line or on the next, indented into it.
  emptyItem: (v) => `- ${v}`,
  emptyItemNext: (v) => `-\n  ${v}`,
  wideItem: (v) => `-   ${v}`,
  // Review rev49a F9: a line at a line's start that continues an item's or a quote's paragraph.
  lazyItem: (v) => `- a\n${v}`,
  lazyNested: (v) => `- a\n  - b\n${v}`,
  lazyNestedHalf: (v) => `- a\n  - b\n  ${v}`,
  lazyQuote: (v) => `> a\n${v}`,
  lazyQuoteItem: (v) => `> - a\n> ${v}`,
};
const MID_LINE: Record<string, (v: string) => string> = {
  midLine: (v) => `Lead: ${v} tail.`,
};
const INSIDE: Record<string, (v: string) => string> = {
  tildes: (v) => `~~~markdown\n${v}\n~~~`,
  backticks: (v) => `\`\`\`\n${v}\n\`\`\``,
  pre: (v) => `<pre>\n${v}\n</pre>`,
  itemFence: (v) => `- a\n\n  ~~~\n  ${v}\n  ~~~`,
  quoteFence: (v) => `> ~~~\n> ${v}\n> ~~~`,
};
const AFTER = "\n\nMARKER-AFTER your next line.\n";

function topLevel(markdown: string): { blocks: number; markerLast: boolean } {
  const blocks = [];
  for (let n = new Parser().parse(markdown).firstChild; n !== null; n = n.next) blocks.push(n);
  const last = blocks[blocks.length - 1];
  const markerLast =
    last?.type === "paragraph" && (last.firstChild?.literal ?? "").startsWith("MARKER-AFTER");
  return { blocks: blocks.length, markerLast };
}

const texts = fc.array(fc.constantFrom(...LINES), { minLength: 2, maxLength: 6 });

describe("a text of several lines placed where your template prints it", () => {
  it("in your list item (empty, wide, nested, lazy), ordered item or quote: the text stays in it, your next paragraph is top level", () => {
    fc.assert(
      fc.property(texts, fc.constantFrom(...Object.keys(AROUND)), (lines, shape) => {
        const text = lines.join("\n");
        for (const v of [elementText(text, NAMES), valueText(text, NAMES)]) {
          const placed = placePrinted(`${AROUND[shape]?.(markPrinted(v))}${AFTER}`);
          // One block of yours (the list or the quote), then your paragraph: nothing of the text between.
          expect(topLevel(placed), JSON.stringify(placed)).toEqual({ blocks: 2, markerLast: true });
        }
      }),
      { numRuns: 400 },
    );
  });

  it("mid-line at the top level: your next paragraph is top level", () => {
    fc.assert(
      fc.property(texts, (lines) => {
        const text = lines.join("\n");
        for (const v of [elementText(text, NAMES), valueText(text, NAMES)]) {
          const placed = placePrinted(`${MID_LINE.midLine?.(markPrinted(v))}${AFTER}`);
          expect(topLevel(placed).markerLast, JSON.stringify(placed)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("inside your fence, <pre>, an item's fence or a quote's fence: the text stays in it", () => {
    fc.assert(
      fc.property(texts, fc.constantFrom(...Object.keys(INSIDE)), (lines, shape) => {
        const v = elementText(lines.join("\n"), NAMES);
        const placed = placePrinted(`${INSIDE[shape]?.(markPrinted(v))}${AFTER}`);
        expect(topLevel(placed), JSON.stringify(placed)).toEqual({ blocks: 2, markerLast: true });
      }),
      { numRuns: 400 },
    );
  });

  it("takes every mark out, and keeps a text's own SO and SI", () => {
    const placed = placePrinted(`- Notes: ${markPrinted("a\u000eb\nc\u000fd")}\n`);
    expect(placed).toBe("- Notes: a\u000eb\n  c\u000fd\n");
  });

  it("each value in nothing, judged without reading the values: the same text as read line by line", () => {
    const pieces = fc.constantFrom(
      ...["", "\n", "- ", "\n- a\n", "> ", "Lead: ", "~~~\n", "\n~~~\n", "<pre>\n", "1. "],
      ...["\n\n", "  ", "-\n  ", "x\n", "\n> q\n", "\n  - b\n", "3", '<x a="1">\n'],
      ...["\r\n- a\r\n", "\r", "\r\n\r\n> "],
    );
    const eols = fc.constantFrom("\n", "\r\n", "\r");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(pieces, texts, eols), { minLength: 1, maxLength: 4 }),
        pieces,
        (printed, tail) => {
          const marked =
            printed
              .map(
                ([before, lines, eol]) => before + markPrinted(elementText(lines.join(eol), NAMES)),
              )
              .join("") + tail;
          expect(placePrinted(marked), JSON.stringify(marked)).toBe(placeMarked(marked));
        },
      ),
      { numRuns: 400 },
    );
  });
});
