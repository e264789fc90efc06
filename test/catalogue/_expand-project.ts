import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";

/** The slash command `text` expanded against one project template `t` holding `content`. */
export function expandProjectTemplate(content: string, text: string) {
  return expandPromptTemplateResult(text, [
    { name: "t", content, source: "project", filePath: "/p/.pi/prompts/t.md" },
  ]);
}
