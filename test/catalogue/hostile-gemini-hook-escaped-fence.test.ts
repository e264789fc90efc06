import { describe, expect, it } from "vitest";
import { geminiShows } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { formatTouched } from "../../src/touch/format.js";
import { swallowed } from "./_commonmark.js";
import { geminiContext, geminiProject } from "./_gemini.js";

// Gemini CLI writes each `<` and `>` of a hook's text as `&lt;` and `&gt;`
// before the model reads it. A file given on touch whose fence line sits
// inside an HTML comment or block (`<!--`, a line of three backticks, `-->`)
// leaves nothing open as written, so it got no closer; escaped, the comment is
// text and the fence opens: it took `</instructions>`, the files after it (the
// user's glob rule) and `</hook_context>` into a code block, all counted as
// given (review rev41c F1, medium: 9 of 10 kinds of HTML block). For Gemini
// CLI what a file leaves open is now judged, and closed, as the model reads it.

const HIDING = [
  "<!--\n```bash\nnpm install\n-->\n",
  "<div>\n```\n</div>\n",
  "<pre>\n~~~\n</pre>\n",
  "<?php\n```\n?>\n",
  "<![CDATA[\n```\n]]>\n",
  "<!DOCTYPE x\n```\n>\n",
  "<script>\n```\n</script>\n",
  "Intro\n\n<custom-tag>\n```\n",
  'Intro\n\n<a href="x">\n~~~~\n',
  "- <!--\n  ```\n  -->\n",
  "> <div>\n> ```\n",
];

/** What the model reads after a result `x`: the hook's text for a file and a nested one after it, escaped by Gemini CLI. */
function modelReads(content: string): string {
  const text = formatTouched(
    [
      { path: "/p/pkg/AGENTS.md", content, kind: "context" },
      {
        path: "/p/pkg/sub/AGENTS.md",
        content: "NESTED-LEGIT: no default exports.",
        kind: "context",
      },
    ],
    "/p",
    geminiShows,
  );
  return `x\n\n<hook_context>${geminiShows(text)}</hook_context>`;
}

describe("hostile repository: a fence hidden in HTML opens once Gemini CLI escapes the hook's text", () => {
  for (const content of HIDING) {
    it(`a file with ${JSON.stringify(content)} does not take the files after it`, () => {
      const model = modelReads(content);
      expect(swallowed(model, "NESTED-LEGIT")).toBe(false);
    });
  }

  it("the hook gives the nested file and your glob rule outside any code block", async () => {
    const { cwd, where } = geminiProject({
      "p/pkg/AGENTS.md": "# pkg\n\nUse pnpm.\n\n<!--\n```bash\nnpm install\n-->\n",
      "p/pkg/sub/AGENTS.md": "# sub\n\nNESTED-LEGIT: no default exports.\n",
      "p/pkg/sub/x.ts": "export const x = 1;\n",
    });
    const input = JSON.stringify({
      session_id: "s-escaped-fence",
      cwd,
      hook_event_name: "AfterTool",
      tool_name: "read_file",
      tool_input: { file_path: "pkg/sub/x.ts" },
      tool_response: { llmContent: "export const x = 1;\n", returnDisplay: "" },
    });
    const { reply } = await runHook("gemini-cli", input, where);
    const model = `export const x = 1;\n\n\n<hook_context>${geminiContext(reply)}</hook_context>`;
    for (const needle of ["Use pnpm", "NESTED-LEGIT", "USER-GLOB-RULE"]) {
      expect(model).toContain(needle);
      expect(swallowed(model, needle), needle).toBe(false);
    }
  });

  it("other hosts read the text as written: a fence hidden in a comment gets no closer", () => {
    const content = "<!--\n```\n-->\n";
    const text = formatTouched([{ path: "/p/AGENTS.md", content, kind: "context" }], "/p");
    // Its first paragraph holds a `<`: after a blank line of its own (rev65b F4).
    expect(text).toContain(`>\n\n${content}\n\n</instructions>`);
  });
});
