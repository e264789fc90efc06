import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPrompt } from "../../src/engine/index.js";
import { cpuTimed } from "../gather/_timed.js";

/**
 * The rules of formatPrompt, written the plain way (split into lines, one
 * decision per line): the offset-walking implementation must agree with it.
 */
function formatByLines(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let fence: { char: string; length: number } | undefined;
  let previousBlank = false;
  const run = (line: string) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    return m?.[1] ? { char: m[1][0] ?? "", length: m[1].length, end: m[0].length } : undefined;
  };
  lines.forEach((raw, index) => {
    const line = raw.replace(/[ \t]+$/, "");
    if (fence !== undefined) {
      const r = run(raw);
      const closes =
        r !== undefined &&
        r.char === fence.char &&
        r.length >= fence.length &&
        line.length <= r.end;
      if (closes) fence = undefined;
      out.push(closes ? line : raw);
      previousBlank = false;
      return;
    }
    const r = run(line);
    fence = r && !(r.char === "`" && line.indexOf("`", r.end) >= 0) ? r : undefined;
    const blank = line === "";
    if (blank && previousBlank && index !== lines.length - 1) return;
    out.push(line);
    previousBlank = blank;
  });
  return out.join("\n");
}

describe("formatPrompt", () => {
  it("agrees with the line-by-line statement of its rules on any text", () => {
    const text = fc
      .array(fc.constantFrom(" ", "\t", "\n", "\r", "`", "~", "a", "```", "~~~", "\n\n"), {
        maxLength: 60,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (t) => formatPrompt(t) === formatByLines(t)),
      { numRuns: 5000 },
    );
  });

  it("returns a text that needs no change as it is", () => {
    const text = "# Title\n\nA line.\n\n```\ncode  \n\n\n```\n";
    expect(formatPrompt(text)).toBe(text);
  });

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
  // of CPU time (see cpuTimed) tells the two apart at any load; on the clock, at
  // a load of 9, one case took 620 ms.
  const SIZE = 1024 * 1024 - 1024;
  const BOUND_MS = 1500;

  const timed = async (text: string): Promise<{ out: string; ms: number }> => {
    const { value, cpuMs } = await cpuTimed(() => formatPrompt(text));
    return { out: value, ms: cpuMs };
  };

  it("trims a long run of spaces followed by another character in linear time", async () => {
    const text = `Build with make.${" ".repeat(SIZE)}x`;
    const { out, ms } = await timed(text);
    expect(out).toBe(text);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("trims a long run of trailing spaces and tabs in linear time", async () => {
    const { out, ms } = await timed(`a${" \t".repeat(SIZE / 2)}\nb`);
    expect(out).toBe("a\nb");
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("reads a long fence-like run in linear time", async () => {
    const text = `${"`".repeat(SIZE)}\u2028\nx  `;
    const { out, ms } = await timed(text);
    expect(out).toBe(`${"`".repeat(SIZE)}\u2028\nx  `);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("reads many fence-like lines in linear time", async () => {
    const count = Math.floor(SIZE / 16);
    const { out, ms } = await timed("   ~~~ x  \n~~~  \n".repeat(count));
    expect(out).toBe("   ~~~ x\n~~~\n".repeat(count));
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
