import { describe, expect, it } from "vitest";
import { replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { rawMarkupCloser, unendedMarkupAt } from "../../src/sections/html-reading.js";
import { geminiCall, geminiProject, geminiSends } from "./_gemini.js";

// Review rev89f F1: a tool result ending `x <style><!--</style><a href='` got the files after
// Gemini CLI's `<hook_context>` inside the unended attribute value, with no note, and they were
// counted as given. `unendedMarkupAt` read from the data state and took the `<!--` inside the
// raw-text element for a comment left open, which the hook exempts (rev39b F1, an inline `<!--`
// opens nothing). A raw-text or RCDATA element's text is now read as the tokenizer reads it, to
// its own end tag, and the hook exempts a comment only when the tokenizer ends in one.

const ELEMENTS = [
  "style",
  "textarea",
  "script",
  "title",
  "noembed",
  "noscript",
  "iframe",
  "xmp",
  "noframes",
];

const ENDINGS = [
  ...ELEMENTS.map((e) => `x <${e}><!--</${e}><a href='`),
  'x <title><!--</title><a href="https://example.com/',
  "x <script><!--</script><a href='\n",
  "x <STYLE><!--</Style ><a href='",
];

describe("hostile repository: a `<!--` inside a raw-text element is no comment to the hook", () => {
  for (const [i, result] of ENDINGS.entries()) {
    it(`gemini-raw-text-comment: ${JSON.stringify(result)} gets nothing now, the files with the next call`, async () => {
      const open = unendedMarkupAt(result);
      expect(result.slice(open)).toMatch(/^<a href=/);
      const { cwd, where } = geminiProject({
        "p/pkg/sub/AGENTS.md": "# pkg/sub\n\nNESTED-AGENTS: no default exports.\n",
        "p/pkg/sub/x.ts": "export const x = 1;\n",
      });
      const first = await runHook(
        "gemini-cli",
        geminiCall(`s-rt-${i}`, cwd, "read_file", result),
        where,
      );
      expect(geminiSends(result, first.reply, false)).not.toContain("USER-GLOB-RULE");
      expect(first.reply).toBe("{}\n");
      expect(first.note).toMatch(/markup left unended/);
      const plain = "export const x = 1;\n";
      const next = await runHook(
        "gemini-cli",
        geminiCall(`s-rt-${i}`, cwd, "read_file", plain),
        where,
      );
      expect(geminiSends(plain, next.reply, false)).toContain("USER-GLOB-RULE");
    });
  }

  it("gemini-raw-text-comment: a raw-text `<!--` whose `-->` comes later no longer reads as ended markup", () => {
    // The linear reader said "nothing left open" here (its comment ran to the `-->`), so the
    // render's and pi's closers took the fast path; the tokenizer is in the attribute's value.
    for (const e of ELEMENTS) {
      const text = `x <${e}><!--</${e}><a href='-->`;
      expect(unendedMarkupAt(text), text).not.toBe(-1);
      expect(rawMarkupCloser(text), text).toBe("'>");
    }
  });

  it("gemini-raw-text-comment: a comment the tokenizer is really in, and raw text, still get the files", () => {
    for (const result of [
      'const open = "<!--";\n',
      "x <style>a {}</style> <!-- note\n",
      "<script>\nif (a<b) {}\n</script>\n",
      "<script>\nconst s = '<!--<script></script>';\n-->\n</script>\n",
      "<svg><title>Logo</title></svg> done\n",
    ]) {
      expect(replyStart("gemini-cli", result, "read_file"), result).toEqual({ closer: "" });
    }
  });

  it("gemini-raw-text-comment: where the tree may read the element's text as markup, both readings count", () => {
    // In `<svg>` a `<style>` is no raw text: the tag in it is open to the tokenizer.
    for (const text of [
      `<svg><style><b title="</style>`,
      `<math><title><a href='</title>`,
      `<select><textarea><b title="</textarea>`,
    ]) {
      expect(unendedMarkupAt(text), text).not.toBe(-1);
    }
    expect(unendedMarkupAt("<svg><title>Logo</title></svg> <style>a{}</style>")).toBe(-1);
  });
});
