import { describe, expect, it } from "vitest";
import { escapeWrapperTags, repositoryNames, USER_TURN_ELEMENTS } from "../../src/_prompt-text.js";

// Review rev105f F2, second half (low). A reserved name after a prefix glued on by a character
// other than `-`, `_`, `.`, `:` (`<my+system-reminder>`, `<my~user_instructions>`,
// `<x=system-reminder>`) printed raw in a repository's text: the name reader stopped at the
// `+` and read `my`, where an HTML parser reads one tag named `my+system-reminder` and a model
// the reserved name after a prefix. Such a character is now read as a `-` is, up to where an
// HTML parser ends a tag's name, so the prefix rule of `<my-system-reminder>` holds.

const names = repositoryNames(USER_TURN_ELEMENTS);

describe("hostile repository: a reserved name after a glued prefix", () => {
  it("is escaped whatever punctuation glues the prefix on", () => {
    for (const tag of [
      "<my+system-reminder>",
      "</my+system-reminder>",
      "<my~user_instructions>",
      "<x=system-reminder>",
      "<x'system-reminder>",
      "<a+b+user_instructions>",
      "<my!repository_instructions>",
      "<x|system-reminder>",
      "<my•user_instructions>",
    ])
      expect(escapeWrapperTags(tag, names)).toBe(`&lt;${tag.slice(1)}`);
  });

  it("ordinary text and one-word tails stay as written", () => {
    for (const text of [
      "a<b+c>",
      "<T+1>",
      "Vec<T+user>",
      "std::vector<a+b> x",
      "<my+rules>",
      "<x/system-reminder>",
      "if (a<b && c>d)",
      "<a+b>=<c+d>",
    ])
      expect(escapeWrapperTags(text, names)).toBe(text);
  });
});
