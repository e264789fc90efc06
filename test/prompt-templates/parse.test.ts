import { describe, expect, it } from "vitest";
import { MAX_DESCRIPTION_LENGTH, parsePromptTemplate } from "../../src/prompt-templates/index.js";

describe("parsePromptTemplate", () => {
  it("cuts a long first line by characters, never inside an emoji", () => {
    const line = "🙂".repeat(MAX_DESCRIPTION_LENGTH + 1);
    expect(parsePromptTemplate(`${line}\n`, "/p/smile.md", "project")).toEqual({
      template: {
        name: "smile",
        description: `${"🙂".repeat(MAX_DESCRIPTION_LENGTH)}...`,
        content: `${line}\n`,
        filePath: "/p/smile.md",
        source: "project",
      },
      diagnostics: [],
    });
  });

  it("trims the frontmatter description and hint and ignores non-strings", () => {
    const text = "---\ndescription: '  Padded  '\nargument-hint: [a, b]\n---\nBody\n";
    expect(parsePromptTemplate(text, "/p/padded.md", "option")).toEqual({
      template: {
        name: "padded",
        description: "Padded",
        content: "Body\n",
        filePath: "/p/padded.md",
        source: "option",
      },
      diagnostics: [],
    });
  });

  it("keeps an empty frontmatter block out of the content", () => {
    expect(parsePromptTemplate("---\n---\nBody $1\n", "/p/bare.md", "user")).toEqual({
      template: {
        name: "bare",
        description: "Body $1",
        content: "Body $1\n",
        filePath: "/p/bare.md",
        source: "user",
      },
      diagnostics: [],
    });
  });
});
