import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { swallowed, tagLinesInside } from "./_commonmark.js";

// pi's on-touch patch adds the files given on touch as a text part after the
// tool's own, and pi joins a tool result's text parts with one line break.
// The tool's text is the repository's (a file pi's read printed): one that
// ended inside a fence or a comment took the `<instructions>` elements and
// the user's glob rule into it (review rev35b, medium), and one that ended in
// a list item took the lead line as a lazy line of it. Our part now starts
// with the closer the joined text needs, then a line break.

const FILES: TouchedFile[] = [
  { path: "/p/pkg/AGENTS.md", content: "pkg: no default exports.", kind: "context" },
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
  expect(patch?.content?.[0]).toEqual({ type: "text", text: output });
  return (patch?.content ?? []).flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

describe("hostile repository: a tool output left open does not take the files given on touch", () => {
  for (const [name, output] of [
    ["a fence", "# Guide\n\nRun this:\n\n```sh\nmake build\n"],
    ["a fence in a list item", "# Guide\n\n- step\n\n  ~~~\n  make"],
    ["a comment", "# Guide\n\n<!-- draft"],
    ["an HTML block", "<pre>\nraw"],
  ] as const) {
    it(`a read whose text ends in ${name}`, () => {
      const text = joined(output);
      expect(swallowed(text, "USER-GLOB-RULE")).toBe(false);
      expect(swallowed(text, "pkg: no default exports.")).toBe(false);
      expect(swallowed(text, "to what this call touched")).toBe(false);
      expect(tagLinesInside(text, (line) => line.includes("instructions"))).toEqual([]);
    });
  }

  it("a read whose text ends in a list item: the lead line starts a paragraph of its own", () => {
    const text = joined("# Guide\n\n- step one");
    expect(text).toContain("- step one\n\nInstruction files apply");
    expect(tagLinesInside(text, (line) => line.includes("instructions"))).toEqual([]);
  });
});
