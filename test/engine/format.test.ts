import { describe, expect, it } from "vitest";
import { formatPrompt } from "../../src/engine/index.js";

describe("formatPrompt", () => {
  it("normalises CRLF and CR to LF", () => {
    expect(formatPrompt("a\r\nb\rc\n")).toBe("a\nb\nc\n");
  });

  it("trims trailing spaces and tabs but not leading ones", () => {
    expect(formatPrompt("  a  \t\n\tb\t \nc")).toBe("  a\n\tb\nc");
  });

  it("collapses runs of blank lines, including whitespace-only ones", () => {
    expect(formatPrompt("a\n\n\n\nb\n \t\n\nc\n\nd")).toBe("a\n\nb\n\nc\n\nd");
  });

  it("does not trim the start or end of the text", () => {
    expect(formatPrompt("\n\n\na\n\n\n\n")).toBe("\na\n\n");
    expect(formatPrompt("  a")).toBe("  a");
    expect(formatPrompt("a\n\n")).toBe("a\n\n");
    expect(formatPrompt("")).toBe("");
  });

  it("leaves backtick and tilde fences untouched", () => {
    const text = [
      "Intro   ",
      "",
      "",
      "```ts  ",
      "const a = 1;   ",
      "",
      "",
      "",
      "```",
      "",
      "",
      "   ~~~",
      "keep\t",
      "",
      "",
      "   ~~~~",
      "after  ",
    ].join("\n");
    expect(formatPrompt(text)).toBe(
      [
        "Intro",
        "",
        "```ts",
        "const a = 1;   ",
        "",
        "",
        "",
        "```",
        "",
        "   ~~~",
        "keep\t",
        "",
        "",
        "   ~~~~",
        "after",
      ].join("\n"),
    );
  });

  it("does not close a fence with the other character or a shorter run", () => {
    const text = "````md  \n~~~  \n```  \n\n\n````\nout  \n\n\n~~~\n```\nin  \n~~~\nend  ";
    expect(formatPrompt(text)).toBe(
      "````md\n~~~  \n```  \n\n\n````\nout\n\n~~~\n```\nin  \n~~~\nend",
    );
  });

  it("runs an unclosed fence to the end", () => {
    expect(formatPrompt("a  \n```\nb  \n\n\n\nc  ")).toBe("a\n```\nb  \n\n\n\nc  ");
  });

  it("only counts fences indented up to three spaces", () => {
    expect(formatPrompt("    ```\nx  \n\n\ny")).toBe("    ```\nx\n\ny");
  });

  it("does not treat a backtick run with a backtick in its info string as a fence", () => {
    expect(formatPrompt("``` a`b\nx  \n\n\ny")).toBe("``` a`b\nx\n\ny");
  });

  it("normalises line endings inside fences too", () => {
    expect(formatPrompt("```\r\na  \r\n```\r\n")).toBe("```\na  \n```\n");
  });
});
