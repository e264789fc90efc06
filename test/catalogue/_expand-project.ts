import { expect } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";
import { placeOf } from "./_commonmark.js";

/** The slash command `text` expanded against one project template `t` holding `content`. */
export function expandProjectTemplate(content: string, text: string) {
  return expandPromptTemplateResult(text, [
    { name: "t", content, source: "project", filePath: "/p/.pi/prompts/t.md" },
  ]);
}

/**
 * Your words (the slash command's text, holding `NOT`) were moved to a paragraph of their own,
 * with one `arguments-hidden` warning at the template's file.
 */
export function expectMovedOut(out: ReturnType<typeof expandProjectTemplate>, content: string) {
  expect(placeOf(out.text, "NOT").block, content).toBe("paragraph");
  expect(
    out.diagnostics.map((d) => d.code),
    content,
  ).toEqual(["arguments-hidden"]);
  expect(out.diagnostics[0]?.path, content).toBe("/p/.pi/prompts/t.md");
}
