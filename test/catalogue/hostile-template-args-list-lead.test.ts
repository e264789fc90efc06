import { describe, expect, it } from "vitest";
import { expandPromptTemplateResult } from "../../src/prompt-templates/index.js";

// Review rev52b (F5, low): a project's slash-command template with a fence in
// a list item (`Notes:\n- ```text\n  $ARGUMENTS\n`) made the expansion start
// with two blank lines: after the guard had closed the item's fence, the end
// closer read the expansion as if it might follow a paragraph or an HTML tag
// line, found a reading with a block open, and wrote its lead. The expansion
// is a message of its own: it is read from a blank line, and a text the guard
// left with nothing open comes back as it is.

const WORDS = "do NOT touch the database";

function expand(content: string) {
  return expandPromptTemplateResult(`/t ${WORDS}`, [{ name: "t", content, source: "project" }]);
}

describe("hostile repository: a template's list-item fence adds no lead to the expansion", () => {
  it("the expansion starts with the template's first line, and fed back is unchanged", () => {
    expect(expand("Notes:\n- ```text\n  $ARGUMENTS\n").text).toBe(
      `Notes:\n- \`\`\`text\n  \n  \`\`\`\n${WORDS}\n`,
    );
    for (const content of [
      "Notes:\n- ```text\n  $ARGUMENTS\n",
      "Notes:\n  $ARGUMENTS\n- ```\n",
      "<x-tag>\n  ```\n$ARGUMENTS\n",
      "> ```\n> $ARGUMENTS\n",
      "Notes:\n1. ```\n   $ARGUMENTS\n   ```\n",
    ]) {
      const once = expand(content).text;
      expect(once.startsWith("\n"), content).toBe(false);
      // The guard's output as a template: nothing open in it, nothing added.
      expect(expand(once).text, content).toBe(once);
    }
  });
});
