import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/on-touch.js";
import { renderSystemPrompt } from "../../src/index.js";
import { formatTouched } from "../../src/touch/format.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed, tagLinesInside } from "./_commonmark.js";

// Repository texts put one after another, each in an element of its own: a
// text that ends inside a list item or a block quote kept that container
// open over the element's closing tag, and where the elements were joined by
// one line break (the files given on touch), over the next element's tag and
// text too. The next text's indented lines were then read inside the item,
// where the closer computed for it as a fresh text closes nothing: with three
// nested GEMINI.md and `sysprompt hook claude-code`, CommonMark read the
// nearer file, the user's glob rule, Claude Code's `</system-reminder>` and
// the user's turn as one code block (review rev34c, finding 1). Each pair of
// texts below is run through each joiner and read by CommonMark's reference
// parser: no tag line of the prompt's or the host's is inside a code block,
// a raw HTML block, a list item or a block quote.

/** Texts that end inside a container. */
const ENDS_OPEN: Record<string, string> = {
  "a list item": "Notes for folder a.\n\n- build with make\n",
  "an ordered item": "Steps:\n\n1. build\n2. test\n",
  // A blank line first: up to one, the lines go on the HTML block of the tag line before them.
  "a nested item": "Nested:\n\n- outer\n  - inner\n",
  "a block quote": "Quoted:\n\n> keep this\n",
  "a quote in an item": "Steps:\n\n- step\n  > note\n",
};

/** Texts whose lines read differently inside an item than alone. */
const FOLLOWS: Record<string, string> = {
  "an indented fence, closed at column 0":
    "Notes for b:\n  ```\n```\nThe text after this line is example output.\n",
  "a quoted fence in the item's indent": "Notes:\n  > ```\nmore\n",
  "an indented item": "  - sub point\n  ```\n",
};

const isOurTag = (line: string) =>
  /^<\/?(instructions|system-reminder|repository_instructions|user_instructions|rule|project_context|project_rules|cwd)\b[^>]*>$/.test(
    line,
  ) || line.startsWith("The user:");

const pairs = Object.entries(ENDS_OPEN).flatMap(([a, first]) =>
  Object.entries(FOLLOWS).map(([b, second]) => ({ name: `${a}, then ${b}`, first, second })),
);

describe("hostile repository: a text that ends in a list item or quote keeps nothing after it inside", () => {
  for (const { name, first, second } of pairs) {
    it(`files given on touch: ${name}`, () => {
      // A file's text comes without its final line break, as loading leaves it.
      const files: TouchedFile[] = [
        { path: "/p/a/GEMINI.md", content: first.trimEnd(), kind: "context" },
        { path: "/p/a/b/GEMINI.md", content: second.trimEnd(), kind: "context" },
        { path: "/p/a/b/c/GEMINI.md", content: "Folder c: never delete data.", kind: "context" },
        {
          path: "/home/u/.pi/agent/rules/ts.md",
          content: "USER-GLOB-RULE: never run migrations without asking me.",
          kind: "rule",
          name: "ts",
        },
      ];
      // As Claude Code sends a hook's context: in a system reminder, then the user's turn.
      const text = `<system-reminder>\n${formatTouched(files, "/p")}\n</system-reminder>\n\nThe user: hello`;
      expect(tagLinesInside(text, isOurTag)).toEqual([]);
      expect(swallowed(text, "USER-GLOB-RULE")).toBe(false);
      expect(swallowed(text, "Folder c")).toBe(false);
    });
  }

  for (const { name, first, second } of pairs) {
    it(`context files and always rules in the prompt: ${name}`, async () => {
      const root = tempDir();
      const rule = (text: string) => `---\nalwaysApply: true\n---\n${text}`;
      writeFiles(root, {
        "agent/AGENTS.md": first,
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": second,
        "project/sub/AGENTS.md": first,
        // Each rule says something of its own first: one that repeats a context file is left out.
        "project/.cursor/rules/a.mdc": rule(`Rule a.\n\n${first}`),
        "project/.cursor/rules/b.mdc": rule(`Rule b.\n\n${second}`),
        "project/.cursor/rules/c.mdc": rule(`Rule c.\n\n${first}`),
      });
      const result = await renderSystemPrompt(
        pinned(root, { projectTrusted: false, cwd: join(root, "project", "sub") }),
      );
      expect(result.text).toContain("</user_instructions>");
      expect(result.text.match(/<\/rule>/g)).toHaveLength(3);
      expect(tagLinesInside(result.text, isOurTag)).toEqual([]);
      expect(swallowed(result.text, "Current working directory")).toBe(false);
    });
  }

  it("a text that ends in a paragraph gets the same blank line: no link title or lazy line runs on", () => {
    const files: TouchedFile[] = [
      { path: "/p/a/GEMINI.md", content: 'See [x].\n\n[x]: /docs\n"title', kind: "context" },
      { path: "/p/b/GEMINI.md", content: 'Then "quoted".', kind: "context" },
    ];
    expect(formatTouched(files, "/p")).toContain(
      '"title\n\n</instructions>\n<instructions path="b/GEMINI.md">',
    );
  });
});
