import { describe, expect, it } from "vitest";
import { blockClosingAfter } from "../../src/_fence.js";
import { geminiShows, hookReply, replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { swallowed } from "./_commonmark.js";
import { geminiProject, geminiSends } from "./_gemini.js";

// Gemini CLI writes each `<` and `>` of a hook's text as `&lt;` and `&gt;`
// (getAdditionalContext) but leaves the tool's result before it as it was.
// The reply's closer for a read ending inside `<!--` arrived as `--&gt;`
// (review rev38c F2a, medium), `</script>` as `&lt;/script&gt;`, `?>` and
// `]]>` alike: the comment or block stayed open over every <instructions>
// element and the user's glob rule, which counted as given. Such a call now
// gets nothing, with a note, and the files come with a later call; a
// fence's closer, which has no `<` or `>`, still works.

function setup() {
  return geminiProject({
    "p/pkg/sub/AGENTS.md": "# pkg/sub\n\nNESTED-AGENTS: no default exports.\n",
    "p/pkg/sub/x.ts": "export const x = 1;\n",
  });
}

const read = (cwd: string, llmContent: string) =>
  JSON.stringify({
    session_id: "s-esc",
    cwd,
    hook_event_name: "AfterTool",
    tool_name: "read_file",
    tool_input: { file_path: "pkg/sub/x.ts" },
    tool_response: { llmContent, returnDisplay: "" },
  });

const CLOSES_NOTHING = [
  ["an HTML comment", "export const x = 1;\n<!-- note\n"],
  ["<script>", "<script>\nlet a = 1;\n"],
  ["<pre>", "text\n\n<pre>\nbuild\n"],
  ["<?php", "<?php\necho 1;\n"],
  ["CDATA", "<![CDATA[\nx\n"],
] as const;

const FENCES = [
  ["a fence", "```\ncode\n"],
  ["a fence in a block quote", "> ```\n> code\n"],
  ["a fence in a list item", "- step\n\n  ~~~\n  make"],
] as const;

describe("hostile repository: a closer Gemini CLI's escaping would break is not sent", () => {
  for (const [name, result] of CLOSES_NOTHING) {
    it(`a read ending inside ${name}: nothing now, the files with the next call`, async () => {
      const { cwd, where } = setup();
      const first = await runHook("gemini-cli", read(cwd, result), where);
      expect(first.reply).toBe("{}\n");
      expect(first.note).toMatch(/close nothing; the files come with a later call/);
      const next = await runHook("gemini-cli", read(cwd, "export const x = 1;\n"), where);
      expect(geminiSends("export const x = 1;\n", next.reply, false)).toContain("USER-GLOB-RULE");
    });
  }

  for (const [name, result] of FENCES) {
    it(`a read ending inside ${name} gets its closer and the files, out of the block as Gemini CLI shows them`, async () => {
      const { cwd, where } = setup();
      const { reply } = await runHook("gemini-cli", read(cwd, result), where);
      const sent = geminiSends(result, reply, false);
      expect(sent).toContain("USER-GLOB-RULE");
      expect(swallowed(sent, "USER-GLOB-RULE")).toBe(false);
    });
  }

  it("random endings: a file's text is never inside a block as Gemini CLI shows it", () => {
    const pieces = [
      "```",
      "~~~",
      "> ",
      "- ",
      "   ",
      "<!--",
      "-->",
      "<pre>",
      "</pre>",
      "<script>",
      "<?",
      "?>",
      "<![CDATA[",
      "]]>",
      "<!X",
      "text",
      "<",
      "`",
      "\n",
      "\r\n",
      "",
    ];
    let seed = 38;
    const next = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const lead = "Instruction files apply to what this call touched";
    const needle = "USER-GLOB-RULE";
    const element = `<instructions path="a.md">\n${needle}\n\n</instructions>`;
    const broken: string[] = [];
    let sent = 0;
    for (let t = 0; t < 1500; t++) {
      let result = "";
      for (let i = 1 + next(6); i > 0; i--)
        result += `${pieces[next(pieces.length)]}${["\n", " ", ""][next(3)]}`;
      const start = replyStart("gemini-cli", result, "read_file");
      if ("nothing" in start) continue;
      sent++;
      const reply = hookReply("gemini-cli", `${lead}:\n${element}`, start.closer);
      const context = JSON.parse(reply).hookSpecificOutput.additionalContext as string;
      const model = `${result}\n\n<hook_context>${geminiShows(context)}`;
      // Open as CommonMark reads it: a `<!--` that starts no block opens nothing (catalogue/hostile-gemini-hook-inline-comment).
      if (
        blockClosingAfter(model.slice(0, model.indexOf(needle))) !== "" ||
        swallowed(model, needle)
      )
        broken.push(JSON.stringify(result));
    }
    expect(broken.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThan(700);
  });
});
