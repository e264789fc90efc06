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

  it("reads a fence's info string to the end of the line, whatever it holds", () => {
    expect(formatPrompt("```a\u2028b\nx  \n```")).toBe("```a\u2028b\nx  \n```");
  });
});

describe("formatPrompt on hostile text", () => {
  // Just under 1 MiB, the largest context file that is read. Linear work on it
  // takes milliseconds; the regular expressions this replaced backtracked
  // quadratically here and took minutes (2.6 s on 60,000 spaces alone). 1500 ms
  // tells the two apart with a wide margin even on a loaded 2-core machine.
  const SIZE = 1024 * 1024 - 1024;
  const BOUND_MS = 1500;

  const timed = (text: string): { out: string; ms: number } => {
    const start = performance.now();
    const out = formatPrompt(text);
    return { out, ms: performance.now() - start };
  };

  it("trims a long run of spaces followed by another character in linear time", () => {
    const text = `Build with make.${" ".repeat(SIZE)}x`;
    const { out, ms } = timed(text);
    expect(out).toBe(text);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("trims a long run of trailing spaces and tabs in linear time", () => {
    const { out, ms } = timed(`a${" \t".repeat(SIZE / 2)}\nb`);
    expect(out).toBe("a\nb");
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("reads a long fence-like run in linear time", () => {
    const text = `${"`".repeat(SIZE)}\u2028\nx  `;
    const { out, ms } = timed(text);
    expect(out).toBe(`${"`".repeat(SIZE)}\u2028\nx  `);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("reads many fence-like lines in linear time", () => {
    const count = Math.floor(SIZE / 16);
    const { out, ms } = timed("   ~~~ x  \n~~~  \n".repeat(count));
    expect(out).toBe("   ~~~ x\n~~~\n".repeat(count));
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
