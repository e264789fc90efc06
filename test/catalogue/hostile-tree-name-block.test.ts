import { describe, expect, it } from "vitest";
import { placeOf } from "./_commonmark.js";
import { treeWithNames } from "./_hostile-tree.js";

// Review rev56c F8 (low). The workspace tree printed each entry's name raw
// but for its spacing: a file named `<!--` (its line indented two spaces, an
// HTML block of kind 2) made every later entry a comment to a Markdown
// reader, `<pre>` and `<script>` an HTML block running to the tree's end, and
// a name "```" a code block. Each name now goes through the rule every other
// name in the prompt follows: every `<` written `&lt;`, a fence run's first
// character escaped, so it opens no block.

const HOSTILE = ["<!--", "<pre>", "<script>", "```", "~~~"];

describe("hostile repository: a tree entry's name opens no block over the later entries", () => {
  it("each entry is read as a line of the listing", async () => {
    // Newest first: the hostile names are listed before the others.
    const tree = await treeWithNames(HOSTILE, ["alater.ts", "zlater.ts", "src/index.ts"]);
    for (const needle of ["alater.ts", "zlater.ts", "index.ts"])
      expect([needle, placeOf(tree, needle).block]).toEqual([needle, "paragraph"]);
    for (const name of ["&lt;!--", "&lt;pre>", "&lt;script>"])
      expect(tree).toContain(`\n  ${name}  0B`);
    // Its run of two after the escaped backtick may pair with words printed after the tree:
    // each backtick is `&#96;` (rev70a F8).
    expect(tree).toContain("\n  &#96;&#96;&#96;  0B");
    expect(tree).toContain("\n  \\~~~  0B");
    // Nothing is left open for the tree's end to close.
    expect(tree).not.toContain("-->");
  });
});
