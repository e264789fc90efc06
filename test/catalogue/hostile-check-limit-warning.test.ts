import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { replyStart } from "../../src/hook/reply.js";
import { renderSystemPrompt } from "../../src/index.js";
import {
  fallbackMessage,
  type HtmlFallback,
  type RenderLimit,
} from "../../src/prompt-templates/hidden-closers.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev71b F1 (low/medium) and F2 (low): a text whose Markdown the
// closers check does not read (block quotes nested past 128 levels, block
// quotes and list items kept open over too many lines, more work than the
// renderer is given) is escaped, as recorded, but the warning said it "leaves
// HTML open at its end that could not be closed ... (too much of it, or a
// <plaintext>)": false for an AGENTS.md whose only HTML is a balanced
// `<kbd>Ctrl</kbd>`. Gemini CLI's hook said a result of 129 `> ` and no `<`
// "holds HTML whose end sysprompt could not read". Each warning now names
// the bound the check stopped at, carried from the renderer to the one
// wording (`fallbackMessage`, `renderLimitWords`).

const KBD = "Use <kbd>Ctrl</kbd> to copy.\n";
/** The words for a text left open, which these texts are not. */
const LEFT_OPEN = "leaves HTML open at its end that could not be closed";

/** `text` closed as a repository's text is, with the fallback it took and its warning. */
function fallbackOf(text: string) {
  let taken: { fallback: HtmlFallback; limit?: RenderLimit } | undefined;
  const out = withCheckBudget(() =>
    closeOpenBlocks(text, false, {
      onFallback: (fallback, limit) => {
        taken = { fallback, ...(limit === undefined ? {} : { limit }) };
      },
    }),
  );
  const message = taken === undefined ? undefined : fallbackMessage(taken.fallback, taken.limit);
  return { out, taken, message };
}

describe("hostile repository: a warning names the bound the closers check stopped at", () => {
  it("an AGENTS.md of 129 nested > and a balanced <kbd>: the depth, not HTML left open", async () => {
    for (const depth of [128, 129]) {
      const root = tempDir();
      writeFiles(root, {
        "project/.git/HEAD": "ref: refs/heads/main\n",
        "project/AGENTS.md": `# Notes\n\n${">".repeat(depth)} quoted\n\n${KBD}`,
      });
      const { text, diagnostics } = await renderSystemPrompt(
        pinned(root, { projectTrusted: false }),
      );
      const warned = diagnostics.filter((d) => d.code === "context-markup-as-text");
      if (depth === 128) {
        expect(text).toContain(KBD);
        expect(warned).toEqual([]);
        continue;
      }
      expect(text).toContain("Use &lt;kbd>Ctrl&lt;/kbd> to copy.");
      expect(warned).toHaveLength(1);
      expect(warned[0]?.message).toContain("nests block quotes and list items 129 deep");
      expect(warned[0]?.message).toContain("128 levels");
      expect(warned[0]?.message).not.toContain(LEFT_OPEN);
      expect(warned[0]?.message).toContain("its HTML is written as text");
    }
  });

  it("deeper than any line before it: the depth of the first line past the bound", () => {
    const { taken, message } = fallbackOf(`${"> ".repeat(200)}deep\n\n${KBD}`);
    expect(taken).toEqual({
      fallback: "markup-as-text",
      limit: { kind: "depth", depth: 200, most: 128 },
    });
    expect(message).toContain("200 deep");
  });

  it("list items kept open over 12,000 blank lines: the walk bound, not HTML left open", () => {
    const text = `${"- ".repeat(128)}x\n${"\n".repeat(12_000)}${KBD}`;
    const { out, taken, message } = fallbackOf(text);
    expect(taken?.limit).toEqual({ kind: "walk", most: 1_500_000 });
    expect(out).not.toContain("<kbd>");
    expect(message).toContain("open over more lines than sysprompt's HTML check reads");
    expect(message).toContain("1,500,000");
    expect(message).not.toContain(LEFT_OPEN);
  });

  it("a heading of 10,000 spaces: the renderer's work bound, not HTML left open", () => {
    const { out, taken, message } = fallbackOf(`#${" ".repeat(10_000)}x\n\n${KBD}`);
    expect(taken?.limit).toEqual({ kind: "work" });
    expect(out).not.toContain("<kbd>");
    expect(message).toContain("more work for the Markdown renderer");
    expect(message).not.toContain(LEFT_OPEN);
  });

  it("a <plaintext> at normal depth keeps the words for HTML left open", () => {
    const { taken, message } = fallbackOf(`# Notes\n\n> quoted\n\n<plaintext>\n`);
    expect(taken).toEqual({ fallback: "markup-as-text" });
    expect(message).toContain(LEFT_OPEN);
  });

  it("Gemini CLI's hook on a result of 129 `> ` and no <: the depth, not HTML it holds", () => {
    expect(replyStart("gemini-cli", "> ".repeat(128), "read_file")).toEqual({ closer: "" });
    const start = replyStart("gemini-cli", "> ".repeat(129), "read_file");
    expect(start).toHaveProperty("nothing");
    const nothing = "nothing" in start ? start.nothing : "";
    expect(nothing).toContain("nests block quotes and list items 129 deep");
    expect(nothing).not.toContain("holds HTML");
  });

  it("Gemini CLI's hook on a result that leaves a <plaintext> open: HTML it holds", () => {
    const start = replyStart("gemini-cli", "Read it.\n\n<plaintext>\n", "read_file");
    expect("nothing" in start ? start.nothing : "").toContain("holds HTML");
  });
});
