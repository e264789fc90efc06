import { describe, expect, it } from "vitest";
import { placeOf } from "./_commonmark.js";
import { expandProjectTemplate, expectMovedOut } from "./_expand-project.js";

// Review rev54a (F7, low): a project's template that wrapped `$ARGUMENTS` in
// `<?…?>`, `<!X…>`, `<![CDATA[…]]>` or `<script>…</script>` and closed it kept
// your words there with no word, while the section check (`withoutHidden`)
// counts the same runs as never shown. One notion of "never shown" for both:
// those runs (and comments) are closed before your words with
// `arguments-hidden` even when the template closes them; `<pre>` or `<div>`
// the template closes still wraps them as written. A `<style>` start tag is
// written `&lt;style>` since rev80c F5, and a `<script>` one since rev82f F4 (it
// draws nothing in place), so they wrap nothing.

const WORDS = "do NOT touch the database";

function expand(content: string) {
  return expandProjectTemplate(content, `/t ${WORDS}`);
}

describe("hostile repository: a run no reader shows cannot wrap your arguments", () => {
  it("processing instruction, declaration, CDATA, comment: closed before them", () => {
    for (const content of [
      "<?ignore\n$ARGUMENTS\n?>\nDo the task.\n",
      "<!IGNORE\n$ARGUMENTS\n>\nDo the task.\n",
      "<![CDATA[\n$ARGUMENTS\n]]>\nDo the task.\n",
      "<!--\n$ARGUMENTS\n-->\nDo the task.\n",
    ]) {
      expectMovedOut(expand(content), content);
    }
  });

  it("a <style> or <script> around them is written &lt; (rev80c F5, rev82f F4): nothing hides them", () => {
    const out = expand("<style>\n$ARGUMENTS\n</style>\nDo the task.\n");
    expect(out.text).toBe(`&lt;style>\n${WORDS}\n</style>\nDo the task.\n`);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["page-tag-escaped"]);
    const script = expand('<script type="text/plain">\n$ARGUMENTS\n</script>\nDo the task.\n');
    expect(script.text).toBe(`&lt;script type="text/plain">\n${WORDS}\n</script>\nDo the task.\n`);
    expect(script.diagnostics.map((d) => d.code)).toEqual(["page-tag-escaped"]);
    expect(placeOf(script.text, "NOT").block).toBe("paragraph");
  });

  it("a <pre> or <div> the template closes wraps them as written", () => {
    for (const content of ["<pre>\n$ARGUMENTS\n</pre>\n", "<div>\n$ARGUMENTS\n</div>\n"]) {
      const out = expand(content);
      expect(out.diagnostics, content).toEqual([]);
      expect(out.text, content).toBe(content.replace("$ARGUMENTS", WORDS));
    }
  });
});
