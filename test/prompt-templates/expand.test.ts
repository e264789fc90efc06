// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${…}` is the placeholder syntax under test, not a forgotten template literal.
import { describe, expect, it } from "vitest";
import {
  expandPromptTemplate,
  type PromptTemplate,
  splitSlashCommand,
} from "../../src/prompt-templates/index.js";

const template = (name: string, content: string): PromptTemplate => ({
  name,
  description: "",
  content,
  filePath: `/prompts/${name}.md`,
  source: "user",
});

const templates = [
  template("review", "Review $1 for ${2:-bugs}.\nAll: $@"),
  template("echo", "[$ARGUMENTS]"),
  template("review:deep", "Deep review of $1"),
];

describe("expandPromptTemplate", () => {
  it("expands a known name with its parsed arguments", () => {
    expect(expandPromptTemplate('/review src/a.ts "race conditions"', templates)).toEqual(
      "Review src/a.ts for race conditions.\nAll: src/a.ts race conditions",
    );
  });

  it("uses defaults when there are no arguments", () => {
    expect(expandPromptTemplate("/review", templates)).toEqual("Review  for bugs.\nAll: ");
  });

  it("reads the arguments across newlines", () => {
    expect(expandPromptTemplate("/echo\nfirst line\n'second line'", templates)).toEqual(
      "[first line second line]",
    );
  });

  it("lets the name run to the first whitespace, punctuation included", () => {
    expect(expandPromptTemplate("/review:deep x", templates)).toEqual("Deep review of x");
  });

  it("returns any other text unchanged", () => {
    for (const text of [
      "review x",
      " /review x",
      "/ review x",
      "/",
      "",
      "/unknown x",
      "/Review x",
      "//review x",
    ]) {
      expect(expandPromptTemplate(text, templates)).toEqual(text);
    }
  });

  it("does not re-substitute what the arguments bring in", () => {
    expect(expandPromptTemplate("/echo $1 '${@:-x}'", templates)).toEqual("[$1 ${@:-x}]");
  });
});

describe("splitSlashCommand", () => {
  it("splits the name from the raw argument text", () => {
    expect(splitSlashCommand("/review  a\nb")).toEqual({ name: "review", argsText: " a\nb" });
    expect(splitSlashCommand("/review")).toEqual({ name: "review", argsText: "" });
    expect(splitSlashCommand("/review\tx")).toEqual({ name: "review", argsText: "x" });
  });

  it("is undefined unless / is directly followed by a name", () => {
    expect(splitSlashCommand("review")).toEqual(undefined);
    expect(splitSlashCommand("/ review")).toEqual(undefined);
    expect(splitSlashCommand("/")).toEqual(undefined);
  });
});
