import { describe, expect, it } from "vitest";
import { escapeWrapperTags, repositoryNames, USER_TURN_ELEMENTS } from "../../src/_prompt-text.js";

// Review rev105f F2 (low). Claude Code's `ide_` family was read only at a name's start or after
// a `:`: `<claude_ide_diagnostics>`, `<x.ide_diagnostics>`, `<x_ide_diagnostics>` printed raw
// in a repository's text while `<ide_diagnostics_x>` and `<x:ide_selection>` were escaped. The
// family's head is now tried after every run of separators (a `::` path still read on past).

const names = repositoryNames(USER_TURN_ELEMENTS);

describe("hostile repository: an ide_ name after a prefix", () => {
  it("is escaped after any separator", () => {
    for (const tag of [
      "<claude_ide_diagnostics>",
      "<x.ide_diagnostics>",
      "<x_ide_diagnostics>",
      "</my-IDE_selection>",
      "<x:ide_selection>",
    ])
      expect(escapeWrapperTags(tag, names)).toBe(`&lt;${tag.slice(1)}`);
  });

  it("a name without the family's head, or a path, stays as written", () => {
    for (const tag of ["<ide>", "<my_ide>", "<x_idea_box>", "<crate::ide_db>", "<identity>"])
      expect(escapeWrapperTags(tag, names)).toBe(tag);
  });
});
