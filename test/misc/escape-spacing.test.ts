import { describe, expect, it } from "vitest";
import { escapeSpacing } from "../../src/_text.js";

describe("escapeSpacing", () => {
  it("keeps a name with single inner spaces as it is", () => {
    expect(escapeSpacing("my notes.md")).toBe("my notes.md");
    expect(escapeSpacing("")).toBe("");
    expect(escapeSpacing("a b c")).toBe("a b c");
  });

  it("writes leading and trailing spaces and runs of two or more", () => {
    expect(escapeSpacing("  x")).toBe("\\u0020\\u0020x");
    expect(escapeSpacing(" x ")).toBe("\\u0020x\\u0020");
    expect(escapeSpacing("a  b c")).toBe("a\\u0020\\u0020b c");
    expect(escapeSpacing(" ")).toBe("\\u0020");
  });

  it("counts any space separator, no-break and ideographic ones too", () => {
    expect(escapeSpacing("\u3000x")).toBe("\\u3000x");
    expect(escapeSpacing("a\u00a0 b")).toBe("a\\u00a0\\u0020b");
    expect(escapeSpacing("a\u00a0b")).toBe("a\u00a0b");
  });

  it("writes every TAB, a single one inside a name too (review rev55a F1)", () => {
    expect(escapeSpacing("x\tuser.mdc")).toBe("x\\u0009user.mdc");
    expect(escapeSpacing("\t\ta b\t")).toBe("\\u0009\\u0009a b\\u0009");
    expect(escapeSpacing("a \t b")).toBe("a \\u0009 b");
  });

  it("takes one pass over a long run", () => {
    const text = `a${" ".repeat(200_000)}b`;
    expect(escapeSpacing(text)).toBe(`a${"\\u0020".repeat(200_000)}b`);
  });
});
