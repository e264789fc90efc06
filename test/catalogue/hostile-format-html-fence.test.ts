import { describe, expect, it } from "vitest";
import { formatPrompt, renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// rev53c F4: the formatting pass read fence lines on their own, without HTML
// blocks or containers: a repository's `<!--` / ```` ``` ```` / `-->` (a fence
// line inside a comment, as CommonMark and the closers read it) before your
// text in <addendum> left the pass thinking a fence open, so your own code
// block's bare ```` ``` ```` was taken for its closer and your block's blank
// lines were collapsed (a YAML block scalar changed). Untrusted too, from a
// repository file named by --append-system-prompt.

const MINE =
  "Run exactly this (YAML, blank lines matter):\n\n```\nblock: |\n  line one\n\n\n  line two after two blank lines\n```\n";
const KEPT = "  line one\n\n\n  line two after two blank lines\n```";
const COMMENT = "Project notes.\n\n<!--\n```\n-->\n";

describe("hostile repository: a fence line in an HTML block does not change how your text is formatted", () => {
  it("a trusted project's APPEND_SYSTEM.md with a fence line in a comment: your code block is kept", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/APPEND_SYSTEM.md": COMMENT,
    });
    const { text } = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, noContextFiles: true, appendSystemPrompt: MINE }),
    );
    expect(text).toContain(KEPT);
  });

  it("untrusted, a repository file named by --append-system-prompt before yours", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/notes.md": COMMENT,
    });
    const { text } = await renderSystemPrompt(
      pinned(root, {
        projectTrusted: false,
        noContextFiles: true,
        appendSystemPrompt: ["notes.md", MINE],
      }),
    );
    expect(text).toContain(KEPT);
  });

  it("formatPrompt reads blocks as CommonMark does: comments, HTML blocks and list items", () => {
    // The fence line in a comment opens nothing: the blank lines after it collapse, yours stay.
    expect(formatPrompt(`<!--\n\`\`\`\n-->\n\n\n\nx\n\n${MINE}`)).toBe(
      `<!--\n\`\`\`\n-->\n\nx\n\n${MINE}`,
    );
    // A fence in a list item ends with the item.
    expect(formatPrompt("- a\n  ```\n  code\n\nb\n\n\n\nc\n")).toBe(
      "- a\n  ```\n  code\n\nb\n\nc\n",
    );
    // A code block's own blank lines and trailing spaces are kept.
    expect(formatPrompt("```\na  \n\n\nb\n```  \n")).toBe("```\na  \n\n\nb\n```\n");
  });
});
