import { describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { geminiResultText } from "../../src/hook/input.js";
import { geminiShows, hookReply, MAX_RESULT_TEXT, replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { formatTouched } from "../../src/touch/format.js";
import { swallowed, tagLinesInside } from "./_commonmark.js";
import { geminiProject } from "./_gemini.js";

// Gemini CLI appends a hook's additional context to the tool's result as
// "\n\n<hook_context>" + text + "</hook_context>" (a string result), or as a
// part of its own that is joined to the others' text with a line break. The
// result is the repository's text (a file read_file printed): one ending
// inside a fence, an HTML comment or <pre> took the <instructions> elements,
// the nested AGENTS.md and the user's glob rule into it (review rev36d,
// medium: 4 of 4 lines each kind), and the rule counted as given. The hook's
// reply now starts with the closer that text needs, or, when Gemini CLI's
// escaping of `<` and `>` would leave that closer closing nothing (`-->`,
// `</pre>`: review rev38c F2, catalogue/hostile-gemini-hook-escaped-closer),
// adds nothing.

function setup() {
  return geminiProject({
    "p/pkg/sub/AGENTS.md": "# pkg/sub\n\nNESTED-AGENTS: no default exports.\n",
    "p/pkg/sub/x.ts": "export const x = 1;\n",
  });
}

/**
 * What Gemini CLI sends its model as the tool's result, with the hook's reply `reply`
 * (coreToolHookTriggers.ts): the reply's text with `<` and `>` escaped (getAdditionalContext).
 */
function asGemini(llmContent: unknown, reply: string): string {
  const context = JSON.parse(reply).hookSpecificOutput?.additionalContext as string;
  expect(context).toContain("USER-GLOB-RULE");
  const wrapped = `\n\n<hook_context>${geminiShows(context)}</hook_context>`;
  if (typeof llmContent === "string") return llmContent + wrapped;
  const parts = [...(llmContent as { text: string }[]), { text: wrapped }];
  return parts.map((p) => p.text).join("\n");
}

const FILES: TouchedFile[] = [
  { path: "/p/pkg/sub/AGENTS.md", content: "NESTED-AGENTS: no default exports.", kind: "context" },
  {
    path: "/home/u/.pi/agent/rules/ts.md",
    content: "USER-GLOB-RULE: strict types.",
    kind: "rule",
    name: "ts",
  },
];

/** The model's text for a result `llmContent` and the files above, through the hook's reply; undefined when it adds nothing. */
function modelText(llmContent: unknown): string | undefined {
  const context = formatTouched(FILES, "/p");
  const start = replyStart("gemini-cli", geminiResultText({ llmContent }));
  if ("nothing" in start) return undefined;
  const reply = hookReply("gemini-cli", context, start.closer);
  return asGemini(llmContent, reply);
}

function expectNothingSwallowed(model: string | undefined): void {
  // Nothing added (the closer would close nothing once escaped): nothing to take in.
  if (model === undefined) return;
  for (const needle of ["USER-GLOB-RULE", "NESTED-AGENTS", "to what this call touched"])
    expect(swallowed(model, needle), needle).toBe(false);
  expect(tagLinesInside(model, (line) => line.includes("<instructions"))).toEqual([]);
}

const ENDINGS = [
  ["a fence", "export const x = 1;\n/* usage:\n```sh\nmake build\n"],
  ["a comment", "export const x = 1;\n\n<!-- generated\n"],
  ["<pre>", "export const x = 1;\n\n<pre>\nbuild\n"],
  ["a quoted comment, no final line break", "# Guide\n\n> Note:\n> <!-- TODO"],
  ["a fence in a list item", "- step\n\n  ~~~\n  make"],
] as const;

describe("hostile repository: a Gemini CLI tool result left open does not take the hook's text", () => {
  for (const [name, text] of ENDINGS) {
    it(`a read whose text ends in ${name}, as a string and as parts`, () => {
      expectNothingSwallowed(modelText(text));
      expectNothingSwallowed(modelText([{ text }]));
      expectNothingSwallowed(modelText([{ text: "first part" }, { text }]));
    });
  }

  it("a result with nothing open gets no closer", () => {
    expect(modelText("export const x = 1;\n")).toContain("<hook_context>Instruction files apply");
  });

  it("a fence, alone or in a list item, gets its closer and the text (its closer has no `<` or `>`)", () => {
    for (const [, text] of ENDINGS.filter(([name]) => name.includes("fence")))
      expect(modelText(text)).toContain("USER-GLOB-RULE");
  });

  it("a result too long to read gets nothing now, and the files come with the next call", async () => {
    const { cwd, where } = setup();
    const input = (llmContent: string) =>
      JSON.stringify({
        session_id: "s-long",
        cwd,
        hook_event_name: "AfterTool",
        tool_name: "read_file",
        tool_input: { file_path: "pkg/sub/x.ts" },
        tool_response: { llmContent, returnDisplay: "" },
      });
    const long = await runHook(
      "gemini-cli",
      input(`\`\`\`\n${"x".repeat(MAX_RESULT_TEXT)}`),
      where,
    );
    expect(long.reply).toBe("{}\n");
    expect(long.note).toMatch(/too long to read/);
    const next = await runHook("gemini-cli", input("export const x = 1;\n"), where);
    expect(next.reply).toContain("USER-GLOB-RULE");
  });

  it("the hook reads the result from its input: a read ending in a fence", async () => {
    const { cwd, where } = setup();
    const llmContent = "export const x = 1;\n/* usage:\n```sh\nmake build\n";
    const input = JSON.stringify({
      session_id: "s-1",
      cwd,
      hook_event_name: "AfterTool",
      tool_name: "read_file",
      tool_input: { file_path: "pkg/sub/x.ts" },
      tool_response: { llmContent, returnDisplay: "" },
    });
    const { reply } = await runHook("gemini-cli", input, where);
    expectNothingSwallowed(asGemini(llmContent, reply));
  });
});
