import { describe, expect, it } from "vitest";
import { escapeWrapperTags } from "../../src/_prompt-text.js";
import { expectEscapedOnce, expectKept, HOST_NAMES as NAMES } from "./_forged-tags.js";

// Review rev61c F8 (low). Any non-ASCII symbol right before a role name was read as a `<` and
// replaced by `&lt;`: the fullwidth bar `｜` of CJK prose and tables was lost
// (`角色｜user｜说明` -> `角色&lt;user｜说明`), and DeepSeek's `<｜User｜>` lost its bar
// (`&lt;&lt;User｜>`). A vertical bar is no `<`: it stays; a chat token's `<｜` is escaped at its `<`.

describe("hostile repository: a vertical bar before a role name is kept", () => {
  it("the bars stay as written", () => {
    expectKept([
      "角色｜user｜说明",
      "| 名称 ｜system prompt ｜",
      "tree │user",
      "a ∣tool",
      "x ￨ai ¦bot",
    ]);
  });

  it("DeepSeek's tokens keep their bar, escaped at the `<`, a fixpoint", () => {
    expectEscapedOnce([
      [
        "DeepSeek writes <｜User｜> and <｜Assistant｜>",
        "DeepSeek writes &lt;｜User｜> and &lt;｜Assistant｜>",
      ],
    ]);
  });

  it("other symbols before a role name are still read as `<`", () => {
    expect(escapeWrapperTags("⪡user>", NAMES)).toBe("&lt;user>");
    expect(escapeWrapperTags("→/system>", NAMES)).toBe("&lt;/system>");
  });
});
