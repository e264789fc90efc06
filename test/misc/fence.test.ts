import { describe, expect, it } from "vitest";
import { closesFence, fenceOpener } from "../../src/_fence.js";
import { formatPrompt } from "../../src/engine/format.js";
import { splitParagraphs } from "../../src/gather/_markdown.js";

/** The fence each line opens, as the scanner sees it (the whole line is `text`). */
const open = (line: string) => fenceOpener(line, 0, line.length);

describe("the one fence scanner", () => {
  it("opens on three or more backticks or tildes, indented by at most three spaces", () => {
    expect(open("```")).toEqual({ char: "`", length: 3 });
    expect(open("   ~~~~ sh")).toEqual({ char: "~", length: 4 });
    expect(open("    ```")).toBeUndefined();
    expect(open("``")).toBeUndefined();
    expect(open("\t```")).toBeUndefined();
    // A backtick fence's info string holds no backtick; a tilde fence's may.
    expect(open("``` a`b")).toBeUndefined();
    expect(open("~~~ a`b")).toEqual({ char: "~", length: 3 });
  });

  it("closes on the same character, at least as many, then only spaces and tabs", () => {
    const fence = { char: "`", length: 4 } as const;
    const closes = (line: string) => closesFence(line, 0, line.length, fence);
    expect(closes("````")).toBe(true);
    expect(closes("  ````` \t")).toBe(true);
    expect(closes("```")).toBe(false);
    expect(closes("~~~~")).toBe(false);
    expect(closes("```` x")).toBe(false);
    expect(closes("    ````")).toBe(false);
  });

  it("is the same fence for the prompt's formatting and for gathering's paragraphs", () => {
    const text = "a  \n\n\n~~~~\nkept  \n\n\n~~~\nstill inside\n~~~~~\nb  ";
    // Inside the fence (closed only by five tildes) trailing spaces and blank runs stay.
    expect(formatPrompt(text)).toBe("a\n\n~~~~\nkept  \n\n\n~~~\nstill inside\n~~~~~\nb");
    expect(splitParagraphs(text)).toEqual(["a", "~~~~\nkept  \n\n\n~~~\nstill inside\n~~~~~\nb"]);
  });
});
