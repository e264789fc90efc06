import { describe, expect, it, vi } from "vitest";
import { o200kCounter } from "../../src/budget/tokens.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

vi.mock("../../src/budget/tokens.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/budget/tokens.js")>();
  return { ...real, o200kCounter: vi.fn(real.o200kCounter) };
});

describe("the tokenizer", () => {
  it("is loaded only when a budget is given", async () => {
    const root = tempDir();
    await renderSystemPrompt(pinned(root));
    expect(o200kCounter).not.toHaveBeenCalled();
    await renderSystemPrompt(pinned(root, { maxPromptTokens: 10_000 }));
    expect(o200kCounter).toHaveBeenCalled();
  });
});
