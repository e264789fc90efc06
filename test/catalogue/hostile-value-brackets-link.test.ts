import { describe, expect, it } from "vitest";
import { linksOf } from "./_commonmark.js";
import { renderYourSection } from "./_your-section.js";

// Review rev72c F4: a trusted project's one-line value printed in your link's text,
// `See [{{vars.team}}](https://mine.example/docs)`, with `docs](https://evil.example) [x`,
// printed `See [docs](https://evil.example) [x](https://mine.example/docs)`: your link
// started at the value's `x`, and the value's "docs" pointed at the project's URL, with no
// warning. Only a leading `[` was written as a reference. Now, in a one-line value and in
// a multi-line value's first line and last paragraph (the lines your template's line
// continues), every `[` or `]` left unpaired, and both of a pair whose `]` ends the piece or
// is followed by `(`, `[` or `:`, are written `&#91;` / `&#93;`; a pair that is text on its
// own (`a [b] c`, a route `app/[slug]/`) stays as written and reads as brackets.

const LINK = "Intro.\n\nSee [{{vars.team}}](https://mine.example/docs) USER-SEC-AFTER.\n";

describe("hostile repository: a project's value cannot end or start your link", () => {
  it("a one-line value with `]` and `[` in your link's text leaves your link whole", async () => {
    for (const team of [
      "docs](https://evil.example) [x",
      "a] [b",
      "docs]\nmore](https://evil.example) [x",
      "[a](https://evil.example)",
      "x [label]",
    ]) {
      const { mine } = await renderYourSection(LINK, { team });
      const links = linksOf(mine);
      expect(
        links.map((l) => l.destination),
        team,
      ).toEqual(["https://mine.example/docs"]);
      expect(mine).toContain("USER-SEC-AFTER");
    }
  });

  it("a value's brackets read as brackets", async () => {
    const { mine } = await renderYourSection(LINK, { team: "core [infra]" });
    expect(mine).toContain("core &#91;infra&#93;");
    expect(linksOf(mine)).toEqual([
      { text: "core [infra]", destination: "https://mine.example/docs" },
    ]);
  });

  it("a pair of brackets inside a value, followed by its own text, stays as written", async () => {
    const { mine } = await renderYourSection(LINK, { team: "core [infra] team" });
    expect(mine).toContain("See [core [infra] team](https://mine.example/docs)");
    expect(linksOf(mine)).toEqual([
      { text: "core [infra] team", destination: "https://mine.example/docs" },
    ]);
  });
});
