import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { MARKDOWN_BLOCKS, MAX_CLOSER_CHARS } from "../../src/sections/html-reading.js";
import { oracleReading } from "../_oracle/hidden-oracle.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev64e F6 (medium): the closers wrote the Markdown blocks' end tags (38 characters)
// after every scope boundary they closed, uncounted: a 152 KB AGENTS.md of `<div hidden>` and
// 19,000 `<object>` became a 1 MB prompt, past any budget. They are written once now, after the
// last boundary, and closers past MAX_CLOSER_CHARS are too much: the text's markup is written as
// text instead.
const objects = (n: number) => `Notes.\n\n<div hidden>${"<object>".repeat(n)}\n`;

describe("hostile repository: the closers at a text's end are bounded", () => {
  it("50 nested <object>: closed with no blocks' end tags (only what the text opened: rev78e F2), your words shown", () => {
    const text = objects(50);
    const closed = closeOpenBlocks(text);
    expect(closed.startsWith(text)).toBe(true);
    expect(closed.split(MARKDOWN_BLOCKS).length - 1).toBe(0);
    expect(closed.length - text.length).toBeLessThanOrEqual(MAX_CLOSER_CHARS);
    expect(oracleReading(`${closed}\n\nQzmarker words`, "Qzmarker").verdict).toBe("shown");
  });

  it("2,000 nested <object>: more closers than the bound, written as text, your words shown", () => {
    const text = objects(2000);
    const closed = closeOpenBlocks(text);
    // `&lt;` for each `<`, nothing appended.
    expect(closed.length).toBeLessThanOrEqual(text.length + 3 * 2001);
    expect(closed).not.toContain("</object>");
    expect(oracleReading(`${closed}\n\nQzmarker words`, "Qzmarker").verdict).toBe("shown");
  });

  it("an AGENTS.md whose closers are too much: its HTML as text, a warning naming the file", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      // `<div hidden>` and `<object>` are written `&lt;` since rev82f F1 (page-tag-escaped):
      // `<details>`, kept, is closed by the same closers.
      "project/AGENTS.md": `Notes.\n\n${"<details>".repeat(2001)}\n`,
      "agent/skills/deploy/SKILL.md":
        "---\nname: deploy\ndescription: Qzskill deploy safely.\n---\nbody\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: false }));
    expect(oracleReading(result.text, "Qzskill").verdict).toBe("shown");
    const warned = result.diagnostics.filter((d) => d.code === "context-markup-as-text");
    expect(warned.map((d) => [d.level, d.path?.endsWith("AGENTS.md")])).toEqual([
      ["warning", true],
    ]);
  });
});
