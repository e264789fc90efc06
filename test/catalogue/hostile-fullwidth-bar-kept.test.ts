import { describe, expect, it } from "vitest";
import { escapeWrapperTags, HOST_ELEMENTS, printedLength } from "../../src/_prompt-text.js";

// Review rev61c F8 (low). Any non-ASCII symbol right before a role name was read as a `<` and
// replaced by `&lt;`: the fullwidth bar `｜` of CJK prose and tables was lost
// (`角色｜user｜说明` -> `角色&lt;user｜说明`), and DeepSeek's `<｜User｜>` lost its bar
// (`&lt;&lt;User｜>`). A vertical bar is no `<`: it stays; a chat token's `<｜` is escaped at its `<`.

const NAMES: ReadonlySet<string> = new Set(HOST_ELEMENTS);

describe("hostile repository: a vertical bar before a role name is kept", () => {
  it("the bars stay as written", () => {
    for (const text of [
      "角色｜user｜说明",
      "| 名称 ｜system prompt ｜",
      "tree │user",
      "a ∣tool",
      "x ￨ai ¦bot",
    ])
      expect(escapeWrapperTags(text, NAMES), text).toBe(text);
  });

  it("DeepSeek's tokens keep their bar, escaped at the `<`, a fixpoint", () => {
    const text = "DeepSeek writes <｜User｜> and <｜Assistant｜>";
    const escaped = "DeepSeek writes &lt;｜User｜> and &lt;｜Assistant｜>";
    expect(escapeWrapperTags(text, NAMES)).toBe(escaped);
    expect(escapeWrapperTags(escaped, NAMES)).toBe(escaped);
    expect(printedLength(text, "element")).toBeGreaterThanOrEqual(Buffer.byteLength(escaped));
  });

  it("other symbols before a role name are still read as `<`", () => {
    expect(escapeWrapperTags("⪡user>", NAMES)).toBe("&lt;user>");
    expect(escapeWrapperTags("→/system>", NAMES)).toBe("&lt;/system>");
  });
});
