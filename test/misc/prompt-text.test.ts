import { describe, expect, it } from "vitest";
import { escapeWrapperTags, nameText, oneLine } from "../../src/_prompt-text.js";

// A path or name the repository chose is printed in the prompt on one line.
// Marks that reorder or hide text (U+200E, U+200F, U+061C, zero-width
// characters, a BOM) passed as written: `report\u202Edm.exe` was escaped, but
// a folder named with a right-to-left mark read in another order than it is.

/** Each character of the set, as one string: spans written out here, not taken from src. */
const SET = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
].flatMap(([from = 0, to = 0]) =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)),
);

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

describe("oneLine and nameText", () => {
  it("write every control, separator, zero-width and bidirectional mark as \\uXXXX", () => {
    expect(oneLine(`a${SET.join("")}b`)).toBe(`a${SET.map(escaped).join("")}b`);
  });

  it("a name with right-to-left and Arabic letter marks reads as its characters are", () => {
    expect(oneLine("src/\u200fevil\u200e/\u061cAGENTS.md")).toBe(
      "src/\\u200fevil\\u200e/\\u061cAGENTS.md",
    );
    expect(nameText("a\u200b</rules>\ufeff", new Set(["rules"]))).toBe(
      "a\\u200b&lt;/rules>\\ufeff",
    );
  });

  it("writes every default-ignorable code point as \\uXXXX, one past U+FFFF as its surrogates (rev50c F6)", () => {
    expect(oneLine("myskill\u2060")).toBe("myskill\\u2060");
    expect(oneLine("own\u00ader\u034f=\u180e\ufe0f\u3164")).toBe(
      "own\\u00ader\\u034f=\\u180e\\ufe0f\\u3164",
    );
    expect(oneLine("owner\u{e0020}=x\u{e007f}")).toBe("owner\\udb40\\udc20=x\\udb40\\udc7f");
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
    for (let c = 0x80; c < 0xe1000; c++) {
      const s = String.fromCodePoint(c);
      if (ignorable.test(s)) expect(oneLine(s), c.toString(16)).toMatch(/^(\\u[0-9a-f]{4})+$/);
    }
  });

  it("leaves the characters next to the set as written", () => {
    // U+FEFE, unassigned, is written \ufefe since review rev53c F6: U+FEFC is its assigned neighbour.
    const text = "\u061b\u061d\u200a\u2010\u2027\u202f\u2070\u00ac\u00ae\ufefc é 名前";
    expect(oneLine(text)).toBe(text);
  });
});

describe("escapeWrapperTags: look-alike brackets and invisible characters", () => {
  const names = new Set(["project_context", "rules"]);
  it("writes a tag with a fullwidth or small less-than, a fullwidth slash or greater-than as &lt;", () => {
    expect(escapeWrapperTags("a \uff1c/project_context\uff1e b", names)).toBe(
      "a &lt;/project_context\uff1e b",
    );
    expect(escapeWrapperTags("\ufe64rules\ufe65", names)).toBe("&lt;rules\ufe65");
    expect(escapeWrapperTags("<\uff0fRULES>", names)).toBe("&lt;\uff0fRULES>");
  });

  it("skips zero-width, bidirectional, soft-hyphen and combining characters before, in and after the name", () => {
    for (const tag of [
      "<\u200b/project_context>",
      "</project\u200d_context>",
      "</\u202eproject_context\u202c>",
      "</proj\u00adect_context>",
      "</rules\u0301>",
      "</ru\u0301les>",
      "<\u2060rules\ufe0f>",
      "<\v/rules>",
    ]) {
      expect(escapeWrapperTags(`x${tag}y`, names)).toBe(`x&lt;${tag.slice(1)}y`);
    }
  });

  it("a line break or tab still ends the name: attributes on the next line, a cut's marker after it", () => {
    expect(escapeWrapperTags('<rules\npath="x">', names)).toBe('&lt;rules\npath="x">');
    expect(escapeWrapperTags("<rules\tx>", names)).toBe("&lt;rules\tx>");
    expect(escapeWrapperTags("<rules\n[… 5 B more]", names)).toBe("&lt;rules\n[… 5 B more]");
  });

  it("leaves other names, and look-alikes before other names, as written", () => {
    // Double angle quotation marks are not single brackets: «rules» stays (〈rules〉 does not).
    const text =
      "\uff1cdiv\uff1e <rulesX> </notes_contexts> \u00abrules\u00bb \u3008div\u3009 <\u200bdiv>";
    expect(escapeWrapperTags(text, names)).toBe(text);
    // A name of several words in the plural is that name (review rev104c F4).
    expect(escapeWrapperTags("</project_contexts>", names)).toBe("&lt;/project_contexts>");
  });
});
