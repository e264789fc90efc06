import { describe, expect, it } from "vitest";
import { closeOpenBlocks, openBlockAtEnd } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// The closers added after a repository's text must close what it left open,
// never open something themselves. The fence scanner read an HTML comment's
// lines as Markdown: '<!--', '```', '-->' left (to it) a fence open, so a
// '```' line went after the comment, where a CommonMark reader takes it to
// open a fence running over every section after it. A fence opened inside a
// list item ('- a' then '  ```') was closed at column 0, which ends the item
// and opens a new fence. And an HTML block that runs to its end tag
// ('<script>', '<pre>', '<?', '<![CDATA[') was left open over the rest of the
// prompt.

describe("hostile repository: the closer added after a repository's text opens nothing", () => {
  it("a fence line inside an HTML comment is not closed after the comment", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "# Notes\n\n<!--\n```\n-->\n",
      "project/.cursorrules": "Style.\n<!--\n~~~~\n-->",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain("<!--\n```\n-->\n\n</repository_instructions>");
    expect(result.text).toContain("Style.\n<!--\n~~~~\n-->\n\n</rule>");
    for (const s of result.sections)
      expect([s.name, openBlockAtEnd(s.text)]).toEqual([s.name, undefined]);
  });

  it("HTML blocks that run to their end tag are closed inside their element", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      // A `<script>` one is written `&lt;script>` since rev82f F4: `<pre>` runs to its end tag too.
      "project/AGENTS.md": "# Notes\n\n<pre>\nx\n",
      "project/.cursorrules": "Style.\n<![CDATA[\n",
      "project/.windsurfrules": "Other.\n<?php\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(result.text).toContain("<pre>\nx\n</pre>\n\n</repository_instructions>");
    expect(result.text).toContain("<![CDATA[\n]]>\n\n</rule>");
    expect(result.text).toContain("<?php\n?>\n\n</rule>");
    for (const s of result.sections)
      expect([s.name, openBlockAtEnd(s.text)]).toEqual([s.name, undefined]);
  });

  it("a fence opened inside a list item is closed at its own indent", () => {
    expect(closeOpenBlocks("- step\n  ```sh\n  make")).toBe("- step\n  ```sh\n  make\n  ```");
    expect(closeOpenBlocks("<PRE class=x>\ncode")).toBe("<PRE class=x>\ncode\n</pre>");
    // Nothing open: nothing added (an added fence line would open one).
    for (const text of ["<!--\n```\n-->", "<pre>\n```\n</pre>", "<!-->\nx", "<?x?>\n```\n```"]) {
      expect(closeOpenBlocks(text)).toBe(text);
    }
  });
});
