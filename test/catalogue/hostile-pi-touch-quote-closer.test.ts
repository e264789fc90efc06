import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { placeOf, swallowed, tagLinesInside } from "./_commonmark.js";

// pi joins a tool result's text parts with one line break, and our part
// started with the closer the tool's text needs as if it followed that text
// on the next line, then pi's line break made a blank line between them. A
// blank line ends a block quote: the closer of a quoted `<!--`, `<?`,
// `<![CDATA[` or `<pre>` ("> -->") then started a new quote whose paragraph
// took our lead line, the <instructions> tag and the user's glob rule as lazy
// lines (review rev36d, low-medium: 86 of 4,000 fuzzed outputs). The closer
// is now read from the text with pi's line break after it.

const FILES: TouchedFile[] = [
  { path: "/p/pkg/AGENTS.md", content: "NESTED-MARK", kind: "context" },
  {
    path: "/home/u/.pi/agent/rules/ts.md",
    content: "USER-GLOB-RULE: never run migrations without asking me.",
    kind: "rule",
    name: "ts",
  },
];

/** The tool result's text parts as pi joins them into one message. */
function joined(output: string): string {
  const patch = appendTouched({ content: [{ type: "text", text: output }] }, FILES, "/p");
  return (patch?.content ?? []).flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

describe("hostile repository: a block left open inside a quote does not take the files given on touch", () => {
  for (const [name, output] of [
    ["a quoted comment", "# Guide\n\n> Note for maintainers:\n> <!-- TODO: rewrite"],
    ["a quoted <pre>", "# Guide\n\n> <pre>\n> make build"],
    ["a quoted <?", "> <?php echo 1;"],
    ["a quoted CDATA", "> <![CDATA[ x"],
    ["a quoted comment in a list item", "- item\n  > <!-- x"],
    ["a quoted comment, CR line ends", "> a\r> <!-- x\r"],
  ] as const) {
    it(`a read whose text ends in ${name}, no final line break`, () => {
      const text = joined(output);
      for (const needle of ["USER-GLOB-RULE", "NESTED-MARK", "to what this call touched"]) {
        expect(swallowed(text, needle), needle).toBe(false);
        expect(placeOf(text, needle).containers, needle).toEqual([]);
      }
      expect(tagLinesInside(text, (line) => line.includes("instructions"))).toEqual([]);
    });
  }
});
