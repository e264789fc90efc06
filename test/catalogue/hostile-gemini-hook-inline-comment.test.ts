import { describe, expect, it } from "vitest";
import { replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { swallowed } from "./_commonmark.js";
import { geminiProject, geminiSends } from "./_gemini.js";

// Since 2538e64 a Gemini CLI tool result that left an HTML comment open got
// nothing (the `-->` would arrive as `--&gt;`), but "open" was any `<!--`
// never closed, anywhere in the text: a string literal, a code comment, a
// code span, a path (`src/<!--core/`). A repository with such a folder and
// `"<!--"` in each file kept the user's `**/*.ts` rule from read_file,
// read_many_files, replace, write_file, list_directory, grep_search and cat (review rev39b
// F1, medium: 1 of 8 calls delivered). CommonMark opens a comment only
// where `<!--` starts a block; inline, it is text and nothing after it is
// swallowed. Such a result now gets the files; one that really opens a
// comment block still gets nothing.

function setup() {
  return geminiProject({
    "p/src/<!--core/a.ts": 'export const open = "<!--";\n',
  });
}

const call = (cwd: string, tool: string, input: object, llmContent: string) =>
  JSON.stringify({
    session_id: `s-inline-${tool}`,
    cwd,
    hook_event_name: "AfterTool",
    tool_name: tool,
    tool_input: input,
    tool_response: { llmContent, returnDisplay: "" },
  });

const FILE = "src/<!--core/a.ts";

const CALLS = [
  ["read_file", { file_path: FILE }, 'export const open = "<!--";\n'],
  [
    "replace",
    { file_path: FILE, old_string: "a", new_string: "b" },
    `Successfully modified file: /p/${FILE} (1 replacements). Here is the updated code:\nexport const open = "<!--";\n`,
  ],
  [
    "write_file",
    { file_path: FILE, content: "x" },
    `Successfully created and wrote to new file: ${FILE}.`,
  ],
  [
    "read_many_files",
    { include: [FILE] },
    `--- ${FILE} ---\nexport const open = "<!--";\n\n--- End of content ---`,
  ],
  ["run_shell_command", { command: `cat '${FILE}'` }, 'Output: export const open = "<!--";\n'],
] as const;

describe("hostile repository: a <!-- that starts no block keeps nothing from Gemini CLI", () => {
  for (const [tool, input, result] of CALLS) {
    it(`${tool} on a path and text holding an inline <!-- gets the rule, outside any comment`, async () => {
      const { cwd, where } = setup();
      const { reply, note } = await runHook("gemini-cli", call(cwd, tool, input, result), where);
      expect(note).toBeUndefined();
      const sent = geminiSends(result, reply, tool === "run_shell_command");
      expect(sent).toContain("USER-GLOB-RULE");
      expect(swallowed(sent, "USER-GLOB-RULE")).toBe(false);
    });
  }

  const INLINE = [
    'const i = html.indexOf("<!--");\nreturn html.slice(0, i);\n',
    "Use `<!--` to start a comment.\n",
    '// "<!--", "<script" and "</script" can end\n',
    "> quoted text <!-- here\n",
    "- item <!-- here",
  ];
  for (const result of INLINE) {
    it(`an inline <!-- (${JSON.stringify(result.slice(0, 24))}) leaves nothing open`, () => {
      expect(replyStart("gemini-cli", result, "read_file")).toEqual({ closer: "" });
    });
  }

  // A block quote or list item the blank line before <hook_context> ends closes the comment in it.
  const BLOCK = ["x\n\n<!-- note\n", "x\n<!-- note", "  <!--", '"<!--"\n<!--'];
  for (const result of BLOCK) {
    it(`a <!-- that starts a block (${JSON.stringify(result)}) still gets nothing`, () => {
      expect(replyStart("gemini-cli", result, "read_file")).toHaveProperty("nothing");
    });
  }
});
