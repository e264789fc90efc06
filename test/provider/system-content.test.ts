import { describe, expect, it } from "vitest";
import { anthropicSystem, openAiSystemMessage } from "../../src/provider/system-content.js";
import type { PromptBlock } from "../../src/types.js";

const block = (cache: PromptBlock["cache"], text: string): PromptBlock => ({
  cache,
  sections: [text],
  text,
});
const mark = { cache_control: { type: "ephemeral" } };

describe("anthropicSystem", () => {
  it("marks the last block of each stable and session run, never a volatile one", () => {
    const blocks = [block("stable", "a\n\n"), block("session", "b\n\n"), block("volatile", "c")];
    expect(anthropicSystem({ blocks })).toEqual([
      { type: "text", text: "a\n\n", ...mark },
      { type: "text", text: "b\n\n", ...mark },
      { type: "text", text: "c" },
    ]);
    expect(anthropicSystem({ blocks: [] })).toEqual([]);
  });

  it("at most four breakpoints (the first ones), fewer when the host keeps some", () => {
    const blocks = ["stable", "session", "stable", "session", "stable", "session"].map((c, i) =>
      block(c as PromptBlock["cache"], String(i)),
    );
    const marked = (n?: number) =>
      anthropicSystem({ blocks }, n === undefined ? {} : { maxBreakpoints: n }).map(
        (b) => b.cache_control !== undefined,
      );
    expect(marked()).toEqual([true, true, true, true, false, false]);
    expect(marked(1)).toEqual([true, false, false, false, false, false]);
    expect(marked(9)).toEqual([true, true, true, true, false, false]);
    expect(marked(-1)).toEqual([false, false, false, false, false, false]);
  });
});

describe("openAiSystemMessage", () => {
  it("is the blocks' text in one system message", () => {
    expect(
      openAiSystemMessage({ blocks: [block("stable", "a\n\n"), block("session", "b")] }),
    ).toEqual({ role: "system", content: "a\n\nb" });
  });
});
