import { describe, expect, it } from "vitest";
import { withCutMarker } from "../../src/repo-files/capped-read.js";
import { withCheckBudget } from "../../src/sections/html-reading.js";

// budget64's follow-up: eight nested 300 KB AGENTS.md, each cut at 256 KiB, had
// the closers' check run on each cut text inside the context step (outside any
// render's budget): the step missed its deadline (4.2 s at --deadline 2000) and
// every context file was dropped. A cut text is no longer checked while it is
// gathered: each `<` in it is written `&lt;` (0.6 s, all eight kept).

const HTML = "Use <b>bold</b> here.\n".repeat(50);

describe("hostile repository: a cut text is not checked while it is gathered", () => {
  it("has its markup written as text, the cut marker after it", () => {
    const out = withCutMarker(HTML, 1000, 1024);
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;b>bold&lt;/b>");
    expect(out).toMatch(/\n\[… .* more of this file left out/);
  });

  it("inside a call's budget (a touch call) it is checked and kept as written", () => {
    const out = withCheckBudget(() => withCutMarker(HTML, 1000, 1024));
    expect(out).toContain("Use <b>bold</b> here.");
  });
});
