import { describe, expect, it } from "vitest";
import { replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { unendedMarkupAt } from "../../src/sections/html-reading.js";
import { geminiCall, geminiProject, geminiSends } from "./_gemini.js";

// rev82c F3's known limit, for Gemini CLI's hook: a tool result ending inside markup a raw
// reader is still in (`Link: <a href='`, `see <span hidden`, `</a`, `<!x`, in a code span too)
// got the files after Gemini CLI's `<hook_context>`, inside the attribute's value or the tag for
// an HTML tokenizer fed the string as sent. Gemini CLI writes the hook's `<` and `>` as `&lt;`
// and `&gt;`, so no ending can arrive: such a call now gets nothing, with a note, and the files
// come with a later call (as pi and opencode do when their ending is not confirmed). A comment
// left open stays CommonMark's reading (rev39b F1: an inline `<!--` opens nothing).

function setup() {
  return geminiProject({
    "p/pkg/sub/AGENTS.md": "# pkg/sub\n\nNESTED-AGENTS: no default exports.\n",
    "p/pkg/sub/x.ts": "export const x = 1;\n",
  });
}

const ENDINGS = [
  "Link the docs: <a href='",
  'Link the docs: <a href="https://example.com/',
  "Link the docs: <a href=",
  "text, see <span hidden",
  "text, see <span title='x' hidden",
  "closing </a",
  "a bogus comment <!x",
  "a processing instruction <?x",
  "Use `<a href='` in a template.",
  "```\n<a href='\n```\n",
  "export const x = 1; // i<n",
];

describe("hostile repository: a result ending inside unended markup gets nothing from Gemini CLI's hook", () => {
  for (const [i, result] of ENDINGS.entries()) {
    it(`gemini-unended-markup: ${JSON.stringify(result)} gets nothing now, the files with the next call`, async () => {
      expect(unendedMarkupAt(result)).not.toBe(-1);
      const { cwd, where } = setup();
      const first = await runHook(
        "gemini-cli",
        geminiCall(`s-raw-${i}`, cwd, "read_file", result),
        where,
      );
      expect(geminiSends(result, first.reply, false)).not.toContain("USER-GLOB-RULE");
      expect(first.reply).toBe("{}\n");
      expect(first.note).toMatch(/markup left unended/);
      const plain = "export const x = 1;\n";
      const next = await runHook(
        "gemini-cli",
        geminiCall(`s-raw-${i}`, cwd, "read_file", plain),
        where,
      );
      expect(geminiSends(plain, next.reply, false)).toContain("USER-GLOB-RULE");
    });
  }

  it("a result whose markup is ended, or that leaves a comment open inline, still gets the files", () => {
    for (const result of [
      "Link the docs: <a href='x'>docs</a>\n",
      "if (a < b) return;\n",
      'const open = "<!--";\n',
      "<script>\nif (a<b) {}\n</script>\n",
    ]) {
      expect(replyStart("gemini-cli", result, "read_file"), result).toEqual({ closer: "" });
    }
  });
});
