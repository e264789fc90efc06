import { describe, expect, it } from "vitest";
import { withoutHidden } from "../../src/sections/user-text.js";

// Review rev54a (F1, low): a project's section over yours that printed your
// text (`{{> base}}`) only inside `<div hidden>`, `<title>`, `<noembed>`,
// `<noframes>` or `<iframe>` counted it as shown: no `user-text-left-out`.
// No HTML reader shows those; they are now read as hidden, as comments,
// `<?…?>` and `<script>` were (rev52b F12). `<textarea>` shows its text.

const YOURS = "USER-SECTION-MARKER line one.";

describe("hostile repository: elements no reader shows hide your text", () => {
  it("hidden attribute, title, noembed, noframes, iframe", () => {
    for (const text of [
      `<div hidden>\n${YOURS}\n</div>`,
      `<p class="x" hidden="">${YOURS}</p >`,
      `<SECTION data-x=1 HIDDEN>${YOURS}</section>`,
      `<title>${YOURS}</title>`,
      `<noembed>${YOURS}</noembed>`,
      `<noframes>${YOURS}</noframes>`,
      `<iframe srcdoc="">${YOURS}</iframe>`,
      // Never closed, it runs to the text's end as an HTML reader reads it (a repository's text
      // gets its closer after it, closeOpenBlocks): what it holds is hidden.
      `<div hidden>${YOURS}`,
    ]) {
      expect(withoutHidden(`PROJ ${text} replaced`), text).not.toContain(YOURS);
    }
  });

  it("shown: textarea, data-hidden, a hidden word in the text", () => {
    for (const text of [
      `<textarea>${YOURS}</textarea>`,
      `<div data-hidden>${YOURS}</div>`,
      `<div>hidden ${YOURS}</div>`,
    ]) {
      expect(withoutHidden(text), text).toContain(YOURS);
    }
  });

  it("linear: 1 MB of unfinished tags and hidden elements", () => {
    for (const text of [
      "<a ".repeat(350_000),
      "<div hidden>x".repeat(80_000),
      `${"<b hidden>".repeat(100_000)}</b>`,
    ]) {
      const started = performance.now();
      withoutHidden(text);
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });
});
