import { describe, expect, it } from "vitest";
import { capTotal } from "../../src/gather/context/_context-total.js";

// Review rev65a F4: a context file cut by the 2 MiB total (an AGENTS.md importing nine files of
// 250 KB) had every `<` written `&lt;` and only the cut's warning, which said nothing of it: the kept
// head, past the 512 KiB the check renders, could not be verified, and the cut's closing fell back
// silently. The cut's warning now says what was done to its markup.

describe("hostile repository: a text cut by the total says when its markup is written as text", () => {
  it("a 700 KB head holding <b> is written with &lt;, and the cut's warning says so", () => {
    const content = `<b>x</b>\n\n${"word ".repeat(200_000)}\n`;
    const got = capTotal([{ path: "/p/AGENTS.md", content, origin: "project" }], 700_000);
    expect(got.files[0]?.content.startsWith("&lt;b>x&lt;/b>")).toBe(true);
    expect(got.diagnostics.map((d) => d.code)).toEqual(["context-total-cut"]);
    // Outside any check budget's scope a head this long is not checked (UNSCOPED_CHECK_CHARS, rev66e F5).
    expect(got.diagnostics[0]?.message).toContain("is written as text");
  });

  it("a small head that closes gets the cut's warning alone", () => {
    const content = `<b>x</b>\n\n${"word ".repeat(2_000)}\n`;
    const got = capTotal([{ path: "/p/AGENTS.md", content, origin: "project" }], 5_000);
    expect(got.files[0]?.content.startsWith("<b>x</b>")).toBe(true);
    expect(got.diagnostics[0]?.message).not.toContain("written as text");
  });
});
